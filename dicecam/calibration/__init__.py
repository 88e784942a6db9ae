"""Colour profiles per dice set and zone maps per table."""
