#!/bin/sh
# Install dicecam with its test tools into .venv, lint, and run the test suite in parallel.
set -e
cd "$(dirname "$0")"
sh scripts/venv.sh test
.venv/bin/ruff check .
# -n auto: pytest-xdist workers, two a core (tests/conftest.py); worksteal: an idle worker
# takes tests queued for a busy one (a few tests run for tens of seconds). Arguments go on to
# pytest: ./test.sh -k diceparty, or ./test.sh -n 0 for one process (pdb, print debugging).
exec .venv/bin/python -m pytest -q -n auto --dist worksteal "$@"
