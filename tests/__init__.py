"""The test suite, one package per dicecam package it tests; shared helpers in ``support``."""
