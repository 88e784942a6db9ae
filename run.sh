#!/bin/sh
# Install dicecam into .venv (first run only) and start the live tablet view.
set -e
cd "$(dirname "$0")"
sh scripts/venv.sh
exec .venv/bin/dicecam serve "$@"
