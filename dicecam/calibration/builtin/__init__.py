"""Built-in colour profiles (JSON), one per built-in dice set; see ``docs/calibration.md``."""
