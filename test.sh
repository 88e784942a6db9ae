#!/bin/sh
# Install dicecam with its test tools into .venv, lint, and run the test suite.
set -e
cd "$(dirname "$0")"
sh scripts/venv.sh test
.venv/bin/ruff check .
exec .venv/bin/python -m pytest -q "$@"
