"""The standings page's script and style (a package so that setuptools ships them)."""
