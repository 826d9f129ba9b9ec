"""1822CA and its regional scenarios ERS and WRS (title package)."""
