"""The tablet page's HTML template (a package so that setuptools ships it)."""
