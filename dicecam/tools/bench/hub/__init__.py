"""Benchmarks of the tournament hub: many tables under load, abuse, a whole evening."""
