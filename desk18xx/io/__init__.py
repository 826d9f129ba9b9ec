"""Files: save files, 18xx.games import and export (no Qt)."""
