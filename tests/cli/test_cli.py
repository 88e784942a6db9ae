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


#: what the plain install (``./run.sh``) lacks: the test and train extras' modules
EXTRA_MODULES = ("websocket", "torch", "selenium", "pytest")
#: a child Python where those modules cannot be imported, running the CLI's main
_WITHOUT_EXTRAS = (
    "import sys\n"
    "for name in {modules!r}: sys.modules[name] = None\n"
    "from dicecam.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n")


def run_without_extras(*args: str) -> subprocess.CompletedProcess[str]:
    code = _WITHOUT_EXTRAS.format(modules=EXTRA_MODULES)
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                          text=True, timeout=120)


def _subcommands(command: str) -> list[str]:
    from dicecam.commands.bench import BENCHES
    from dicecam.commands.train import TRAINERS

    return list({"bench": BENCHES, "train": TRAINERS}[command])


@pytest.mark.parametrize("command", ["bench", "train", "calibrate", "hub", "serve", "read"])
def test_help_works_on_the_plain_install(command: str) -> None:
    result = run_without_extras(command, "--help")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("command", ["bench", "train"])
def test_every_target_has_help_on_the_plain_install(command: str) -> None:
    for target in _subcommands(command):
        result = run_without_extras(command, target, "--help")
        assert result.returncode == 0, f"{command} {target}: {result.stderr}"


def test_a_bench_that_needs_an_extra_says_which_in_one_line() -> None:
    result = run_without_extras("bench", "hub", "--help")
    assert "needs the test extra" in " ".join(result.stdout.split())
    ran = run_without_extras("bench", "load", "--seconds", "1")
    assert ran.returncode == 2
    assert "Traceback" not in ran.stderr
    lines = ran.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install -e '.[test]'" in lines[0], ran.stderr


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
