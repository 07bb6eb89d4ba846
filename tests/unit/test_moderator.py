"""The engine that needs nobody to know the cards: scenarios, rules, and its purity.

The scenarios in tests/scenarios/ are games written by hand with the result the
seeds give (`expect:`); each is played through the engine exactly as `narrator
replay` plays it. A property test plays random decks with random choices.
"""

from __future__ import annotations

import ast
import dataclasses
import io
import json
import random
import re
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from narrator.cli import main
from narrator.moderator import (
    Game,
    MoveError,
    ScenarioError,
    load,
    run,
    runnable_roles,
    unsupported_roles,
)
from narrator.moderator.scenario import to_scenario
from narrator.rules import RulesetError, load_catalog, parse_ruleset
from tests.support.examples import examples
from tests.unit.helpers import places

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "tests" / "scenarios").rglob("*.yaml"))
CATALOG = load_catalog()
ONUW = CATALOG.get("onuw")


def replay(data: dict[str, Any]) -> dict[str, Any]:
    return run(data, CATALOG.get).to_dict()


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_scenario_gives_the_seeds_result(path: Path) -> None:
    data = load(path.read_text(encoding="utf-8"))
    expect = data.pop("expect")
    if "error" in expect:  # a game the rules forbid: refused with its one line
        with pytest.raises(ScenarioError) as info:
            replay(data)
        assert str(info.value) == expect["error"]
        return
    got = replay(data)
    keys = ("dead", "prisoners", "winners", "final", "centre", "artifacts", "marks", "choices")
    for key in keys:
        if key in expect:
            assert got[key] == expect[key], key
    for name, lines in expect.get("journal", {}).items():
        assert got["journal"][name] == lines, name
    if "said" in expect:  # the announcements, from the first
        assert got["said"][: len(expect["said"])] == expect["said"]


def test_the_scenario_folder_covers_base_one_night() -> None:
    """Every base role of One Night that does something acts in some scenario."""
    dealt: set[str] = set()
    for path in SCENARIOS:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if data["ruleset"] == "onuw":
            dealt |= set(data["deal"].values())
    base = {r.id for r in ONUW.roles if r.box == "base"}
    assert base <= dealt, sorted(base - dealt)


def _replay_cli(tmp_path: Path, text: str, *args: str) -> tuple[int, str, str]:
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["replay", *args, str(path)])
    return code, out.getvalue(), err.getvalue()


GAME = """\
ruleset: onuw
players: [Ann, Bo, Cy, Dee, Eve]
deal: {Ann: robber, Bo: werewolf, Cy: seer, Dee: drunk, Eve: villager}
centre: [werewolf, insomniac, villager]
"""


@pytest.mark.parametrize(
    ("nights", "days", "error"),
    [
        ("[{Zed: [Bo]}]", "[]", "night 1: 'Zed' is not one of the players"),
        ("[{Ann: [Ann]}]", "[]", "the Robber's call: Ann cannot choose Ann at this call"),
        (
            "[{Cy: [centre 1]}]",
            "[]",
            "the Seer's call: Cy must choose 1 other player(s) or 2 centre card(s)",
        ),
        (
            "[{Dee: [centre 1], Eve: [Bo]}]",
            "[]",
            "night 1: Eve (Villager) has a choice but no call",
        ),
        ("[{Dee: []}]", "[]", "the Drunk's call: Dee must choose at this call"),
        ("[{Dee: [centre 4]}]", "[]", "there is no centre 4; the centre has 3"),
        ("[{Dee: [centre 1]}]", "[{vote: {Ann: Ann}}]", "day 1: Ann cannot vote for themselves"),
        ("[{Dee: [centre 1]}, {}]", "[]", "onuw has 1 night(s); the scenario gives more"),
    ],
)
def test_a_forbidden_scenario_is_one_line_naming_the_player_and_the_step(
    tmp_path: Path, nights: str, days: str, error: str
) -> None:
    code, out, err = _replay_cli(tmp_path, GAME + f"nights: {nights}\ndays: {days}\n")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and error in err, err
    assert "Traceback" not in err


def test_a_shielded_card_cannot_be_taken(tmp_path: Path) -> None:
    text = (ROOT / "tests/scenarios/onuw/daybreak_sentinel.yaml").read_text("utf-8")
    code, _, err = _replay_cli(tmp_path, text.replace("Bo: [Dee]", "Bo: [Cy]"))
    assert code == 2
    assert "the Robber's call: Bo cannot choose Cy at this call" in err


LUPUS = (ROOT / "tests/scenarios/lupus/village_wins.yaml").read_text("utf-8")


@pytest.mark.parametrize(
    ("change", "error"),
    [
        (("ballot: {Dee: Bo,", "ballot: {Fay: Bo, Dee: Bo,"), "day 2: Fay is dead and cannot vote"),
        (
            ("ballot: {Dee: Bo,", "ballot: {Cy: Bo, Dee: Bo,"),
            "day 2: Cy is a suspect and cannot vote",
        ),
        (("ballot: {Dee: Bo,", "ballot: {Dee: Gus,"), "day 2: Dee votes for Gus, not a suspect"),
        (
            ("{Bo: [Eve], Cy: [Bo]", "{Bo: [Fay], Cy: [Bo]"),
            "night 2, the Werewolf's call: Bo cannot choose Fay",
        ),
        (
            ("Gus: Bo, Hal: Cy}\n    ballot: {Dee", "Gus: Ann, Hal: Cy}\n    ballot: {Dee"),
            "day 2: Gus cannot accuse Ann, who is dead",
        ),
    ],
)
def test_lupus_moves_the_rules_forbid(tmp_path: Path, change: tuple[str, str], error: str) -> None:
    old, new = change
    assert old in LUPUS
    code, _, err = _replay_cli(tmp_path, LUPUS.replace(old, new, 1))
    assert code == 2
    assert error in err, err


def test_mafia_a_prisoner_accuses_but_never_votes_in_the_ballot(tmp_path: Path) -> None:
    text = (ROOT / "tests/scenarios/mafia/seed_example_8_plus_1.yaml").read_text("utf-8")
    old = "ballot: {Lorenzo: Domizio,"
    code, _, err = _replay_cli(
        tmp_path, text.replace(old, "ballot: {Alice: Serena, Lorenzo: Domizio,")
    )
    assert code == 2
    assert "day 1: Alice is a prisoner and cannot vote in the ballot" in err
    code, out, _ = _replay_cli(tmp_path, text, "--format", "json")
    assert code == 0
    assert json.loads(out)["said"][-1] == "La partita continua."


def test_a_dead_players_vote_is_refused() -> None:
    game = Game.deal(ONUW, ["A", "B", "C"], ["villager", "werewolf", "seer"], ["villager"] * 3)
    game.begin_night()
    game.vote({0: 1, 1: 0, 2: 1})
    with pytest.raises(MoveError, match="B is dead and cannot vote"):
        game.vote({1: 0})


def test_replay_text_tells_the_story_then_the_winners(tmp_path: Path) -> None:
    text = (ROOT / "tests/scenarios/onuw/robber_takes_the_werewolf.yaml").read_text("utf-8")
    code, out, _ = _replay_cli(tmp_path, text)
    assert code == 0
    assert "Ann, the Robber, swapped cards with Bo." in out
    assert "Ann was dealt the Robber and ends as the Werewolf." in out
    assert out.rstrip().endswith("Winners: Bo, Cy, Dee, Eve")


def test_replay_speaks_the_games_language(tmp_path: Path) -> None:
    text = (ROOT / "tests/scenarios/onuw/robber_takes_the_werewolf.yaml").read_text("utf-8")
    for lang, word in (("it", "Ladro"), ("fa", "جیب‌بر")):
        code, out, _ = _replay_cli(
            tmp_path, text.replace("lang: en", f"lang: {lang}"), "--format", "json"
        )
        assert code == 0
        said = "\n".join(yaml.safe_load(out)["said"])
        assert word in said
        assert "dealt the" not in said and "winners" not in said  # no English left


# -- the engine's API, as the phones drive it -----------------------------------------


def test_a_prompt_offers_seats_and_centre_cards_by_id() -> None:
    game = Game.deal(ONUW, ["A", "B", "C"], ["seer", "werewolf", "drunk"], ["villager"] * 3)
    steps = {s.role: s for s in game.begin_night()}
    seer = steps["seer"]
    game.open_step(seer)
    prompt = game.prompt(seer, 0)
    assert prompt is not None
    assert prompt.options == tuple(places("seat:2", "seat:3", "centre:1", "centre:2", "centre:3"))
    assert (prompt.min, prompt.max) == (0, 2)
    assert game.prompt(seer, 1) is None  # the werewolf is not called by the Seer's call
    learned = game.act(seer, 0, places("seat:2"))
    assert [(e.kind, e.cards, e.to) for e in learned if e.kind == "see"] == [
        ("see", ("werewolf",), 0)
    ]
    assert game.prompt(seer, 0) is None  # answered


def test_an_idle_phones_mandatory_power_is_drawn_at_random_and_the_night_goes_on() -> None:
    game = Game.deal(
        ONUW,
        ["A", "B", "C"],
        ["drunk", "werewolf", "seer"],
        ["villager", "tanner", "robber"],
        rng=random.Random(3),
    )
    for step in game.begin_night():
        game.open_step(step)
        game.close_step(step)  # nobody answered anything
    assert game.seats[0].card.role in {"villager", "tanner", "robber"}
    assert Counter(c.role for c in game.centre)["drunk"] == 1


# -- the property: random decks, random choices ---------------------------------------

# Every role of the base and Daybreak boxes the engine runs.
RUNNABLE = [r for r in runnable_roles(ONUW) if ONUW.role(r).box in ("base", "daybreak")]


@settings(
    max_examples=examples(150, deep=1500),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    players=st.integers(min_value=3, max_value=8),
    seed=st.integers(min_value=0, max_value=2**32),
    lone_wolf=st.booleans(),
)
def test_random_games_never_crash_keep_every_card_and_replay_to_the_same_end(
    players: int, seed: int, lone_wolf: bool
) -> None:
    rng = random.Random(seed)
    deck = [r for r in RUNNABLE for _ in range(ONUW.role(r).max_count)]
    rng.shuffle(deck)
    table = deck[: players + 3]
    if table.count("mason") == 1:  # both Mason cards or none (seed 004)
        table[table.index("mason")] = next(r for r in deck[players + 3 :] if r != "mason")
    cards, centre = table[:players], table[players:]
    names = [f"P{i}" for i in range(players)]
    options = frozenset({"lone_wolf"} if lone_wolf else ())
    game = Game.deal(ONUW, names, cards, centre, options=options, rng=random.Random(seed))
    dealt = Counter(s.card.role for s in game.seats) + Counter(c.role for c in game.centre)
    for step in game.begin_night():
        game.open_step(step)
        for seat in game.actors(step):
            while (prompt := game.prompt(step, seat)) is not None:
                answer = (
                    [] if prompt.min == 0 and rng.random() < 0.3 else game.random_choice(prompt)
                )
                game.act(step, seat, answer)
        game.close_step(step)
    votes: dict[int, int | None] = {}
    for i in range(players):
        votes[i] = rng.choice([j for j in range(players) if j != i])
    game.vote(votes)
    # every player ends with exactly one card, and no card was made or lost (a role's
    # spare card, the Alpha Wolf's, lies beside the centre from the deal on)
    spares = [c.role for c in game.centre if c.spare] + [
        s.card.role for s in game.seats if s.card.spare
    ]
    assert dealt == Counter(cards) + Counter(centre) + Counter(spares)
    assert Counter(s.card.role for s in game.seats) + Counter(c.role for c in game.centre) == dealt
    teams, winners = game.winners()
    # the log, written down as a scenario, plays back to the same end
    from narrator.moderator.scenario import Replay

    again = run(to_scenario(Replay(game, "en", [], list(centre))), CATALOG.get).to_dict()
    assert again["final"] == {s.name: s.card.identity for s in game.seats}
    assert again["winners"] == {"teams": teams, "players": [names[i] for i in winners]}
    assert again["dead"] == [names[i] for i in game.dead_order]
    assert again["log"] == [e.to_dict() for e in game.log]  # the same game, entry for entry


# -- rules as data ----------------------------------------------------------------------


def _ids() -> set[str]:
    ids = set()
    for ruleset in CATALOG.rulesets.values():
        ids.add(ruleset.id)
        ids.update(ruleset.role_ids)
    return ids


def _string_literals(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    }


def _js_literals(path: Path) -> set[str]:
    """Every quoted word in a script: "onuw", 'hunter', `seer`."""
    return set(re.findall(r"""["'`]([A-Za-z_][A-Za-z0-9_]*)["'`]""", path.read_text("utf-8")))


def test_no_ruleset_or_role_id_is_written_in_the_engine_or_the_table() -> None:
    """What a role does, how a day is counted and who wins come from the ruleset: the
    engine and the table (its Python and the phones' and host's scripts) name no game
    and no role."""
    ids = _ids()
    found = {}
    for folder in ("moderator", "table"):
        for path in sorted((ROOT / "narrator" / folder).rglob("*.py")):
            if hits := _string_literals(path) & ids:
                found[f"{folder}/{path.name}"] = sorted(hits)
    scripts = sorted((ROOT / "narrator" / "table" / "static").rglob("*.js"))
    assert scripts, "the table's scripts moved; point this test at them"
    for path in scripts:
        if hits := _js_literals(path) & ids:
            found[f"table/static/{path.name}"] = sorted(hits)
    assert found == {}


def _names_in(literals: set[str]) -> set[str]:
    """The roles' display names, in any language of the shipped rulesets, that the
    texts name as words ("The Hunter takes {names} with him." names the Hunter)."""
    names = {n for r in CATALOG.rulesets.values() for role in r.roles for _, n in role.name.values}
    # a text that names none of them (nearly all) is passed over in one search
    any_name = re.compile(rf"(?<!\w)(?:{'|'.join(map(re.escape, names))})(?!\w)")
    found = set()
    for text in literals:
        if any_name.search(text):
            found.update(n for n in names if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text))
    return found


def test_no_role_name_is_written_in_the_engine_or_the_table() -> None:
    """Not even as a display name: the game's words come from the ruleset (the Hunter's
    line on the phones is his role's `on_death_line`). Docstrings may name roles."""
    found = {}
    for folder in ("moderator", "table"):
        for path in sorted((ROOT / "narrator" / folder).rglob("*.py")):
            if hits := _names_in(_string_literals(path)):
                found[f"{folder}/{path.name}"] = sorted(hits)
    assert found == {}


def test_the_name_check_would_catch_the_hunters_old_line(tmp_path: Path) -> None:
    planted = tmp_path / "lines.py"
    planted.write_text('LINES = {"shot": N_("The Hunter takes {names} with him.")}\n', "utf-8")
    assert _names_in(_string_literals(planted)) == {"Hunter"}


def test_the_id_check_would_catch_a_role_written_in_the_code(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text('if card == "hunter":\n    pass\n', encoding="utf-8")
    assert _string_literals(planted) & _ids() == {"hunter"}
    script = tmp_path / "planted.js"
    script.write_text('const many = !["onuw", `secret_moon`].includes(id);\n', encoding="utf-8")
    assert _js_literals(script) & _ids() == {"onuw", "secret_moon"}


# -- the loader's new sections ------------------------------------------------------------


@pytest.mark.parametrize(
    ("does", "error"),
    [
        ("[{effect: sea}]", "unknown effect 'sea' in power 1 of role 'seer'; did you mean 'see'?"),
        ("[{effect: see}]", "does 'see', which needs a 'pick'; add one"),
        (
            "[{effect: see, pick: [{players: 1, centre: 1}]}]",
            "must pick some 'players', some 'centre' cards, or one of 'named'",
        ),
        ("[{effect: know}]", "does 'know'; say whom with 'know: {tag: ...}'"),
        ("[{effect: know, know: {tag: wulf}}]", "names the tag 'wulf', which no role has"),
        ("[{effect: copy, pick: [{players: 1}], later: [sear]}]", "names the role 'sear'"),
        ("[{effect: see, pick: [{players: 1}], timming: dawn}]", "unknown key 'timming'"),
    ],
)
def test_a_mistake_in_what_a_role_does_is_one_line_with_file_and_line(
    does: str, error: str
) -> None:
    text = ONUW_TEXT.replace(SEER_DOES, f"    does: {does}\n", 1)
    with pytest.raises(RulesetError) as info:
        parse_ruleset(text, "onuw.yaml")
    message = str(info.value)
    assert error in message, message
    assert re.match(r"onuw\.yaml:\d+: ", message), message


ONUW_TEXT = (ROOT / "rulesets" / "onuw.yaml").read_text(encoding="utf-8")
SEER_DOES = """    does:
      - id: look
        pick: [{players: 1}, {centre: 2}]
        effect: see
"""


def test_a_win_rule_naming_an_unknown_team_says_which() -> None:
    shipped = "    - team: tanner\n      each: true\n"
    assert ONUW_TEXT.count(shipped) == 1
    text = ONUW_TEXT.replace(shipped, shipped.replace("tanner", "tannr"))
    with pytest.raises(RulesetError, match=r"names the team 'tannr'.*did you mean 'tanner'"):
        parse_ruleset(text, "onuw.yaml")


ONUW_VOTE = "    seconds: 30\n"


@pytest.mark.parametrize(
    ("vote", "error"),
    [
        ("seconds: 2", "'seconds' in 'vote' of outcome must be at least 5, not 2"),
        ("seconds: .nan", "'seconds'"),
        (
            "ballot_seconds: 20",
            "'ballot_seconds' is not a time of a simultaneous vote: a simultaneous vote "
            "has 'seconds'",
        ),
    ],
)
def test_a_vote_window_that_cannot_be_is_one_line_with_file_and_line(vote: str, error: str) -> None:
    assert ONUW_TEXT.count(ONUW_VOTE) == 1
    text = ONUW_TEXT.replace(ONUW_VOTE, ONUW_VOTE.replace("seconds: 30", vote))
    # (the line of the vote's windows, in One Night's `outcome: vote:` mapping)
    with pytest.raises(RulesetError) as info:
        parse_ruleset(text, "onuw.yaml")
    message = str(info.value)
    assert error in message, message
    line = ONUW_TEXT[: ONUW_TEXT.index(ONUW_VOTE)].count("\n") + 1
    assert message.startswith(f"onuw.yaml:{line}: "), message


def test_every_shipped_vote_states_its_phones_windows() -> None:
    """Rules are data: each shipped game says how long its phones' votes stay open
    (the defaults are for a user's ruleset that says nothing)."""
    for ruleset_id in CATALOG.rulesets:
        end = CATALOG.get(ruleset_id).outcome
        if end is None or end.vote.kind == "none":
            continue
        text = (ROOT / "rulesets" / f"{ruleset_id}.yaml").read_text(encoding="utf-8")
        written = yaml.safe_load(text)["outcome"]["vote"]
        if end.vote.kind == "simultaneous":
            assert written["seconds"] == end.vote.seconds, ruleset_id
        else:
            assert written["accusation_seconds"] == end.vote.accusation_seconds, ruleset_id
            assert written["ballot_seconds"] == end.vote.ballot_seconds, ruleset_id


def test_a_deck_the_engine_cannot_run_is_refused_with_one_line() -> None:
    assert unsupported_roles(ONUW, ["seer", "robber", "werewolf"]) == ""
    assert unsupported_roles(ONUW, ONUW.role_ids) == ""  # every One Night role runs
    moon = dataclasses.replace(CATALOG.get("secret_moon"), outcome=None)
    assert "has no 'outcome'" in unsupported_roles(moon, ["princess"])
    mafia = CATALOG.get("mafia_infiltrators")
    assert "cannot run Boss" in unsupported_roles(mafia, ["boss", "agent"])
    lupus = CATALOG.get("lupus")
    assert unsupported_roles(lupus, ["werewolf", "seer", "medium", "bodyguard"]) == ""
    assert "cannot run Were-hamster" in unsupported_roles(lupus, ["werewolf", "were_hamster"])
    with pytest.raises(ScenarioError, match="cannot run Boss"):
        run(
            {
                "ruleset": "mafia_infiltrators",
                "players": ["A", "B", "C"],
                "deal": {"A": "boss", "B": "gangster", "C": "agent"},
            },
            CATALOG.get,
        )


def test_a_group_pick_may_change_until_the_call_ends_and_only_members_see_it() -> None:
    lupus = CATALOG.get("lupus")
    game = Game.deal(
        lupus,
        ["A", "B", "C", "D", "E"],
        ["werewolf", "werewolf", "seer", "villager", "villager"],
        [],
    )
    wolves = next(s for s in game.begin_night() if s.role == "werewolf")
    game.open_step(wolves)
    game.act(wolves, 0, places("seat:3"))
    game.act(wolves, 1, places("seat:4"))
    assert game.group_picks(wolves) == {0: 2, 1: 3}
    assert game.group_prompt(wolves, 0) is not None and game.group_prompt(wolves, 2) is None
    game.act(wolves, 1, places("seat:3"))  # B changes their mind: now they agree
    assert game.group_picks(wolves) == {0: 2, 1: 2}
    game.close_step(wolves)
    assert game.dawn() == [2]


def test_every_effect_word_is_one_function_of_the_registry() -> None:
    """Adding an effect is adding its word, one function in `effects.py` and its words:
    the registry and the rules' vocabulary are the same set, and every kind an
    effect writes to a journal has its line (a missing one would read "you did
    nothing.")."""
    from narrator.moderator.effects import REGISTRY
    from narrator.moderator.log import KINDS
    from narrator.moderator.words import PRIVATE, STORY
    from narrator.rules.powers import EFFECTS

    assert set(REGISTRY) == set(EFFECTS)
    assert set(PRIVATE) <= set(KINDS) and set(STORY) <= set(PRIVATE)
    night_effects = set(EFFECTS) - {"answer", "accuse", "hide", "disturb", "capture"}
    night_effects -= {"self_capture", "pass", "see_own", "swap_last", "reveal", "swap_spare"}
    night_effects -= {"convert"}  # logs `become`
    night_effects -= {"see_known", "rotate_group", "choose"}  # log `see`, `passed`, `chose`
    assert night_effects <= set(PRIVATE)  # each logs a kind of its own name


@pytest.mark.parametrize(
    ("effect", "learned"),
    [
        # the shipped order: he swaps, then looks at his new card (the Werewolf)
        (
            "[swap_own, see_own]",
            ["you swapped your card with Bo's.", "your card is now the Werewolf."],
        ),
        # a user's copy that lists the look first: he sees his old card, then swaps
        (
            "[see_own, swap_own]",
            ["your card is now the Robber.", "you swapped your card with Bo's."],
        ),
    ],
)
def test_a_powers_effects_apply_in_the_order_the_ruleset_lists_them(
    effect: str, learned: list[str]
) -> None:
    shipped = "        effect: [swap_own, see_own]\n"
    assert ONUW_TEXT.count(shipped) == 1
    robber = parse_ruleset(ONUW_TEXT.replace(shipped, f"        effect: {effect}\n"), "onuw.yaml")
    text = (ROOT / "tests/scenarios/onuw/robber_takes_the_werewolf.yaml").read_text("utf-8")
    data = load(text)
    data.pop("expect")
    got = run(data, lambda _id: robber).to_dict()
    assert got["journal"]["Ann"][:2] == [f"Night 1: {line}" for line in learned]
    assert got["final"]["Ann"] == "werewolf"  # the card moved either way


def test_engine_md_lists_every_effect_kind_and_cause_the_code_has() -> None:
    """docs/ENGINE.md's tables of effects, log kinds and causes are the code's sets."""
    from narrator.moderator.log import KINDS, Cause
    from narrator.rules.powers import EFFECTS

    doc = (ROOT / "docs" / "ENGINE.md").read_text(encoding="utf-8")

    def table(heading: str) -> set[str]:
        rows = doc[doc.index(heading) :].split("\n\n")[0]
        return set(re.findall(r"`([a-z_]+)`", rows))

    effects = table("| effect | what it does | log |")
    assert set(EFFECTS) <= effects
    kinds = table("| when | kinds |") - {"why", "targets", "cards"}  # the fields it names
    assert set(KINDS) == kinds
    causes = doc[doc.index("is its cause") :].split("\n\n")[0]
    assert {c.value for c in Cause} <= set(re.findall(r"`([a-z_]+)`", causes))
