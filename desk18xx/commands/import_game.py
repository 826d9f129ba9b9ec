"""``desk18xx import EXPORT --out SAVE``: turn an 18xx.games export into a desk18xx save.

The export is checked, replayed through our engine (an illegal action is
reported with its index and the engine's reason, and nothing is written),
and saved with its whole log and the resulting state digest. An existing
``SAVE`` is kept as ``SAVE.bak``.
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Command-line options."""
    parser.add_argument("file", help="an 18xx.games export (.json)")
    parser.add_argument("--out", required=True, metavar="SAVE", help="the save to write (.yaml)")


def run(args: argparse.Namespace) -> int:
    """Import; 0 written, 1 refused (nothing written)."""
    from desk18xx.io.filereader import FileKind, FileRefused, kind_of
    from desk18xx.io.import_18xxgames import ExportFormatError
    from desk18xx.io.replaying import digest_of
    from desk18xx.io.savefile import SaveWriteError, save_game
    from desk18xx.io.transfer import save_from_export

    try:
        if kind_of(args.file) is FileKind.SAVE:  # the detection the app uses
            print(f"desk18xx import: {args.file}: (file): is a desk18xx save, not an "
                  "18xx.games export (open it, or check it with 'desk18xx verify')",
                  file=sys.stderr)
            return 1
    except FileRefused as error:
        print(f"desk18xx import: {args.file}: (file): {error.problem}", file=sys.stderr)
        return 1
    try:
        converted = save_from_export(args.file)
        game = converted.replayed.game
        save_game(args.out, converted.header, converted.actions, digest_of(game))
    except (ExportFormatError, SaveWriteError, KeyError, ValueError) as error:
        print(f"desk18xx import: {error}", file=sys.stderr)
        return 1
    state = f"finished ({game.end_reason})" if game.finished else "in progress"
    print(f"{args.out}: {converted.header.title}, {len(converted.actions)} actions, game {state}")
    return 0
