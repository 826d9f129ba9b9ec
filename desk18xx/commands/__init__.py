"""Command-line tools, one module each (see desk18xx.cli)."""
