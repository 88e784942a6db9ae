from __future__ import annotations

import subprocess
import sys

import pytest

from dicecam.cli import COMMANDS, main


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dicecam", *args],
        input=stdin, capture_output=True, text=True, timeout=120,
    )


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for name, (module_name, _) in COMMANDS.items():
        assert name in out
        assert module_name.rsplit(".", 1)[-1] == name  # one module per subcommand


def test_every_command_module_builds_its_arguments() -> None:
    import importlib

    for name in COMMANDS:
        with pytest.raises(SystemExit) as exc:
            main([name, "--help"])
        assert exc.value.code == 0, name
        assert hasattr(importlib.import_module(COMMANDS[name][0]), "run")


def test_no_command_prints_help_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage" in capsys.readouterr().out


@pytest.mark.parametrize("text", ["", "{", "[1, 2", "nonsense"])
def test_score_rejects_text_that_is_not_json_in_one_line(text: str) -> None:
    from dicecam.scorer.registry import scorers

    game = sorted(scorers())[0]
    result = run_cli("score", game, stdin=text)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "not valid JSON" in result.stderr


def test_a_closed_pipe_is_not_a_traceback() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "dicecam", "missions", "dicetopia"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in err
