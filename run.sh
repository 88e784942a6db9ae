#!/bin/sh
# Install dicecam into .venv (first run only) and start the main job.
set -e
cd "$(dirname "$0")"
sh scripts/venv.sh
exec .venv/bin/dicecam score diceparty --indent 2 < dicecam/examples/diceparty-party.json
