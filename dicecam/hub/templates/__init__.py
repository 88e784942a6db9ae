"""The standings page and its assets (a package so that setuptools ships them)."""
