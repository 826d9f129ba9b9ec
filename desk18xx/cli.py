"""Command line: ``desk18xx [FILE]`` opens the app; ``desk18xx COMMAND …`` runs a tool.

Each tool lives in ``desk18xx/commands/<name>.py`` and offers
``add_arguments(parser)`` and ``run(args) -> int``; register it in
:data:`COMMANDS`.  Tools are imported only when used, so ``replay`` never
loads Qt.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from desk18xx import __version__

#: command name -> (module under desk18xx.commands, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "render-map": ("render_map", "draw a title's starting board to a PNG file"),
    "replay": ("replay", "replay an 18xx.games export or a save and print the result as JSON"),
    "playout": ("playout", "play random legal games to the end, checking invariants"),
    "routes-audit": ("routes_audit", "compare the best routes with the declared ones in an export"),
    "verify": ("verify", "check a save completely (hash chain, replay, state digest)"),
    "import": ("import_game", "turn an 18xx.games export into a desk18xx save"),
    "export": ("export_game", "write a desk18xx save as an 18xx.games export"),
}


def _gui_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="desk18xx",
        description="Play 1867 and 1822CA at one desk, by e-mail, or study them.",
        epilog="Tools: " + "; ".join(f"{name}: {text}" for name, (_, text) in COMMANDS.items())
        + ". Run 'desk18xx TOOL --help' for a tool's options.",
    )
    parser.add_argument("--version", action="version", version=f"desk18xx {__version__}")
    parser.add_argument("file", nargs="?", help="a saved game or an 18xx.games export to open")
    parser.add_argument(
        "--screenshot", metavar="PNG", help="open the window offscreen, save a picture, exit"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``desk18xx`` console script."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in COMMANDS:
        name = args[0]
        module_name, text = COMMANDS[name]
        module = importlib.import_module(f"desk18xx.commands.{module_name}")
        parser = argparse.ArgumentParser(prog=f"desk18xx {name}", description=text)
        module.add_arguments(parser)
        options = parser.parse_args(args[1:])
        result: int = module.run(options)
        return result
    options = _gui_parser().parse_args(args)
    from desk18xx.ui import preflight

    if not preflight.check():  # names a missing system library (libEGL, ...)
        return 3
    try:
        from desk18xx.ui.app import run_app
    except ImportError as exc:  # the GUI is optional for the tools
        print(f"desk18xx: the application window is not available: {exc}", file=sys.stderr)
        return 2
    return run_app(options.file, screenshot=options.screenshot)
