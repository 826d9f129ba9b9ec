"""Allow ``python -m desk18xx``."""

import sys

from desk18xx.cli import main

sys.exit(main())
