"""Shared test helpers: painted-dice doubles, headless chromium, readings, paired tablets."""
