"""The command line's contract: formats other tools parse, exit codes, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from narrator.cli import main

FULL = (
    "doppelganger,werewolf:2,minion,mason:2,seer,robber,troublemaker,drunk,insomniac,hunter,tanner"
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_script_json_has_the_documented_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "script", "onuw", "--players", "10", "--roles", FULL, "--format", "json"
    )
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert set(doc) == {
        "ruleset",
        "phase",
        "night",
        "lang",
        "players",
        "roles",
        "warnings",
        "stages",
        "seed",
        "choices",
        "options",
        "steps",
    }
    assert (doc["ruleset"], doc["phase"], doc["night"], doc["lang"], doc["players"]) == (
        "onuw",
        "night",
        1,
        "en",
        10,
    )
    assert doc["roles"]["werewolf"] == 2 and sum(doc["roles"].values()) == 13
    for step in doc["steps"]:
        assert step["kind"] in {"say", "pause", "cue", "timer", "wait"}
        assert "role" in step
        if step["kind"] == "say":
            assert isinstance(step["text"], str) and step["text"]
        if step["kind"] in ("pause", "timer"):
            assert step["seconds"] > 0
        assert "round" not in step  # One Night is not round-based
    woken = [s["role"] for s in doc["steps"] if s["kind"] == "say" and s["role"]]
    assert woken[0] == "doppelganger" and woken[-1] == "doppelganger"


def test_dropping_minion_or_insomniac_drops_the_doppelganger_step(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def doppel_says(roles: str) -> list[str]:
        _, out, _ = run(
            capsys, "script", "onuw", "--players", "10", "--roles", roles, "--format", "json"
        )
        return [
            s["text"]
            for s in json.loads(out)["steps"]
            if s["role"] == "doppelganger" and s["kind"] == "say"
        ]

    full = doppel_says(FULL)
    assert any("copied the Minion" in t for t in full)
    assert any("copied the Insomniac" in t for t in full)
    no_minion = doppel_says(FULL.replace("minion", "villager"))
    assert not any("copied the Minion" in t for t in no_minion)
    no_insomniac = doppel_says(FULL.replace("insomniac", "villager"))
    assert not any("copied the Insomniac" in t for t in no_insomniac)


def test_without_roles_the_recommended_deck_is_used(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "script", "onuw", "--players", "3", "--format", "json")
    assert json.loads(out)["roles"] == {
        "werewolf": 2,
        "seer": 1,
        "robber": 1,
        "troublemaker": 1,
        "villager": 1,
    }


def test_setup_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "setup", "onuw", "--players", "4", "--format", "json")
    assert code == 0
    assert json.loads(out) == {
        "ruleset": "onuw",
        "players": 4,
        "roles": {"werewolf": 2, "seer": 1, "robber": 1, "troublemaker": 1, "villager": 2},
        "discard": 0,
        "tokens": {},
        "dealt": 4,
        "aside": 3,
    }


def test_rulesets_and_roles_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "rulesets", "--format", "json")
    listed = {r["id"]: r for r in json.loads(out)["rulesets"]}
    assert listed["onuw"]["players"] == [3, 10]
    assert listed["onuw"]["languages"] == ["en", "it", "fa"]
    _, out, _ = run(capsys, "roles", "onuw", "--format", "json")
    roles = json.loads(out)["roles"]
    assert {r["box"] for r in roles} == {"base", "daybreak", "vampire", "alien", "bonus"}
    assert [r["id"] for r in roles if r["box"] == "base"] == [
        "doppelganger",
        "werewolf",
        "minion",
        "mason",
        "seer",
        "robber",
        "troublemaker",
        "drunk",
        "insomniac",
        "villager",
        "hunter",
        "tanner",
    ]
    assert roles[0]["wakes"].startswith("-7, -7b, -6b.1, -6c.1,")
    assert roles[0]["name"]["fa"] == "همزاد"


def test_text_preview_lists_every_call(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "script", "onuw", "--players", "5", "--lang", "it")
    assert code == 0
    assert "Lupi mannari, svegliatevi" in out
    assert out.rstrip().splitlines()[-1].startswith("total ~")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["script", "onwu", "--players", "5"], "; did you mean 'onuw'?"),
        (
            ["script", "onuw", "--players", "5", "--roles", "sear"],
            "'onuw' has no role 'sear'; did you mean 'seer'?",
        ),
        (["script", "onuw", "--players", "11"], "'onuw' is for 3 to 10 players, not 11"),
        (["script", "onuw", "--players", "5", "--lang", "de"], "'onuw' has no 'de' lines"),
        (["script", "onuw", "--players", "5", "--roles", "seer:x"], "must be a whole number"),
        (["setup", "onuw", "--players", "0"], "not 0"),
        (["script", "onuw"], "the following arguments are required: --players"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    with (
        pytest.raises(SystemExit)
        if argv[0] == "frobnicate" or "--players" not in argv
        else (_no_raise()) as caught
    ):
        code = main(argv)
    if caught is not None and hasattr(caught, "value"):
        code = caught.value.code
    _, err = capsys.readouterr()
    assert code == 2
    assert message in err
    assert err.count("\n") == 1


class _no_raise:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return False


def test_the_installed_command_never_prints_a_traceback() -> None:
    run_ = subprocess.run(
        [
            sys.executable,
            "-m",
            "narrator.cli",
            "script",
            "onuw",
            "--players",
            "5",
            "--roles",
            "werewolf:2,seer,robber,troublemaker,villager:2",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run_.returncode == 2
    assert run_.stderr == "narrator: 5 players need 8 cards (players + 3); 7 chosen\n"
    assert "Traceback" not in run_.stderr
