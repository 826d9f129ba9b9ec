"""Read-only adapters from engine state to what the widgets show (STYLE.md §6)."""
