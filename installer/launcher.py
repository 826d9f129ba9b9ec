"""The bundled program's entry point: ``desk18xx [FILE]`` or ``desk18xx TOOL ...``."""

import sys

from desk18xx.cli import main

if __name__ == "__main__":
    sys.exit(main())
