"""``desk18xx export SAVE --format 18xx.games --out OUT.json``: a save as an 18xx.games export.

The save is verified completely first (as ``desk18xx verify``); the export
holds the whole log, the seed and, for a finished game, the result, so
18xx.games' hotseat import and ``desk18xx import`` read it back.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

FORMATS = ("18xx.games",)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Command-line options."""
    parser.add_argument("file", help="a desk18xx save (.yaml)")
    parser.add_argument("--format", choices=FORMATS, default=FORMATS[0],
                        help="the export format (default: %(default)s)")
    parser.add_argument("--out", required=True, metavar="OUT", help="the file to write (.json)")


def run(args: argparse.Namespace) -> int:
    """Export; 0 written, 1 refused (nothing written)."""
    from desk18xx.io.atomic import write_atomic
    from desk18xx.io.replaying import open_save
    from desk18xx.io.savefile import SaveFormatError
    from desk18xx.io.study import study_of
    from desk18xx.io.transfer import export_text

    try:
        opened = open_save(args.file)
        study_of(opened.saved, args.file, check_line=True)
        text = export_text(opened.saved.header, opened.saved.actions, opened.game)
        write_atomic(Path(args.out), text.encode("utf-8"), keep_backup=True)
    except (SaveFormatError, OSError, KeyError) as error:
        print(f"desk18xx export: {error}", file=sys.stderr)
        return 1
    print(f"{args.out}: {len(opened.saved.actions)} actions")
    return 0
