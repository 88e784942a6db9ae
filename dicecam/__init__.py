"""dicecam: a webcam companion for dice games."""

__version__ = "0.1.0"
