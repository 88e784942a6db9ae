"""Printed board layouts (JSON) that zone maps place with four corners; see docs/calibration.md."""
