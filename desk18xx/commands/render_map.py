"""``desk18xx render-map TITLE --out FILE.png``: draw a title's starting board."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from desk18xx.engine.data import TITLE_IDS
from desk18xx.engine.errors import DataError

#: Hex size (centre to corner) in pixels.
DEFAULT_SIZE = 60.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of the command."""
    parser.add_argument("title", help="one of: " + ", ".join(TITLE_IDS))
    parser.add_argument("--out", required=True, metavar="FILE.png", help="PNG file to write")
    parser.add_argument("--size", type=float, default=DEFAULT_SIZE,
                        help=f"hex size in pixels, centre to corner (default {DEFAULT_SIZE:g})")
    parser.add_argument("--no-names", action="store_true", help="leave out location names")
    parser.add_argument("-v", "--verbose", action="store_true", help="report the time taken")


def run(args: argparse.Namespace) -> int:
    """Render the board; print the path written. Exit 2 on a bad title or size."""
    title: str = args.title
    if title not in TITLE_IDS:
        print(f"desk18xx render-map: unknown title {title!r}; choose one of "
              + ", ".join(TITLE_IDS), file=sys.stderr)
        return 2
    if not 5 <= args.size <= 400:
        print("desk18xx render-map: --size must be between 5 and 400", file=sys.stderr)
        return 2
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from desk18xx.engine.data import load_title
    from desk18xx.ui.map.render import application, save_board_png
    from desk18xx.ui.map.starting import starting_board

    _app = application()  # kept alive while drawing
    start = time.perf_counter()
    try:
        data = load_title(title)
    except DataError as exc:
        print(f"desk18xx render-map: {exc}", file=sys.stderr)
        return 1
    out = Path(args.out)
    try:
        save_board_png(starting_board(data), out, args.size, show_names=not args.no_names)
    except OSError as exc:
        print(f"desk18xx render-map: {exc}", file=sys.stderr)
        return 1
    elapsed = time.perf_counter() - start
    print(out)
    if args.verbose:
        print(f"rendered in {elapsed:.2f} s", file=sys.stderr)
    return 0
