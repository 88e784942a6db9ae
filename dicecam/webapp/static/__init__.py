"""The tablet page's assets, served by the app (a package so that setuptools ships them)."""
