"""Benchmarks of what the table reader gets right: real photos, left-out sources, colours,
crowds, empty tables and taught tables."""
