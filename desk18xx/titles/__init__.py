"""Game titles: each a package with its rules, registered in TITLES."""
