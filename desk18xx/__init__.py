"""desk18xx: the 18xx railway games 1867 and 1822CA on the desktop."""

__version__ = "0.1.0"
