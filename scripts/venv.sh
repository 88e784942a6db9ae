# Run by run.sh and test.sh: make .venv (once) and install dicecam into it.
# Usage: sh scripts/venv.sh [EXTRAS]   (EXTRAS like "test" or "test,train")
set -e
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
# Reinstall only when pyproject.toml changed since the last install: keeps reruns instant.
stamp=".venv/.installed-$1"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${1:+[$1]}"
    touch "$stamp"
fi
