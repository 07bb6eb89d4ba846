"""A restart loses nothing and replays nothing (issue 28, review N7/N7b): the night
being played is saved before anything is asked, and a table resumed from any moment
of it goes on with the same night -- the same calls, the same choices, the same
journals -- as if it had never stopped.

For One Night, Lupus and Wherewolf, one night is played once uncut on the table's
service (the session's silent voice on a fast clock, held at each call while the
phones answer), keeping the saved game at every step: the night begun, each call
opened and closed, each phone's answer. The table is then resumed from each of those
files -- what a killed server leaves behind: the file is written atomically and
synced before any answer goes out -- in this process, and plays the rest of the
night; the engine's log and every journal must come out as the uncut run's. A real
`narrator table` process is also killed (SIGKILL) in the middle of a call and
resumed with --resume, once per game, over HTTP.
"""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from narrator.moderator import Game as Engine
from narrator.moderator.support import flags
from narrator.script.render_text import estimate_seconds
from narrator.session import PhaseEvent, Settings, SettingsStore
from narrator.session.config import RATES
from narrator.table import Table, load_saved, save
from narrator.table.sealed import open_with
from narrator.table.service import TableService
from narrator.table.voice import SessionVoice, silent_voice
from tests.support.clock import TurnClock
from tests.unit.helpers import ruleset

NAMES = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
QUANTUM = 3.0  # seconds of the voice's clock at each look (a call lasts 7 or more)
PACE = 0.1


@dataclass(frozen=True)
class Deal:
    """A game dealt as the test wants it: the deck, each seat's card, the centre."""

    game: str
    deck: dict[str, int]
    cards: list[str]
    centre: list[str] = field(default_factory=list)
    name: str = ""  # the test's id, when the game's is not enough
    # Resumed from every `stride`-th saved step: each resume plays the rest of the
    # night, so the cost grows with the square of the steps. The base game, Lupus and
    # Wherewolf are cut at every step (issue 28); the boxes' long nights at every
    # third, which still cuts each of their calls while open, answered and closed.
    stride: int = 1


DEALS = [
    # the lone werewolf (the other is in the centre) peeks at a centre card; the Robber,
    # the Troublemaker and the Drunk move cards; the Insomniac looks at hers
    Deal(
        "onuw",
        {"werewolf": 2, "seer": 1, "robber": 1, "troublemaker": 1, "drunk": 1}
        | {"insomniac": 1, "villager": 1},
        ["robber", "werewolf", "seer", "troublemaker", "insomniac"],
        ["werewolf", "drunk", "villager"],
    ),
    # the boxes' roles (issue 27): the Alpha Wolf meets the pack at its call and swaps
    # the spare card at his own (a werewolf he knows refused, on his phone only); an
    # artifact goes on a card (the Curator), a shield (the Sentinel), a side taken from
    # a card looked at (Nostradamus), a tap on a shoulder (the Thing); the Doppelganger
    # copies at once. (No answer is left to chance: a draw after a restart is drawn
    # afresh -- the table's dice are the system's -- so no run could match it.)
    Deal(
        "onuw",
        {"alpha_wolf": 1, "mystic_wolf": 1, "werewolf": 1, "seer": 1, "curator": 1}
        | {"sentinel": 1, "nostradamus": 1, "thing": 1, "doppelganger": 1}
        | {"villager": 1, "insomniac": 1},
        ["doppelganger", "alpha_wolf", "seer", "curator", "sentinel", "mystic_wolf", "thing"]
        + ["nostradamus"],
        ["werewolf", "villager", "insomniac"],
        "onuw_boxes",
        stride=3,
    ),
    # the Vampire box (issue 27): the vampires give the Mark of the Vampire together,
    # the Count the Mark of Fear, Cupid two Marks of Love, the Instigator a traitor's,
    # the Priest a clarity, the Marksman looks at a card and a mark, the Gremlin swaps
    # two marks (after a word: cards or marks), Renfield sees whom they bit; then the
    # whole table's call: everyone looks at their own mark (one who finds fear sleeps)
    Deal(
        "onuw",
        {"vampire": 2, "the_count": 1, "renfield": 1, "cupid": 1, "instigator": 1}
        | {"priest": 1, "marksman": 1, "gremlin": 1, "villager": 2},
        ["vampire", "cupid", "the_count", "instigator", "renfield", "priest", "marksman"]
        + ["gremlin"],
        ["vampire", "villager", "villager"],
        "onuw_vampire",
        stride=3,
    ),
    # the Alien box: the Oracle's question answered on her phone, the aliens' drawn
    # instruction (the same draw the voice speaks) done by the pair, Groob and Zerb,
    # the Cow's fist, the Psychic's look among the seats by number, the Rascal's swap,
    # the Blob's body reached from the centre
    Deal(
        "onuw",
        {"alien": 2, "cow": 1, "groob": 1, "zerb": 1, "oracle": 1, "psychic": 1}
        | {"rascal": 1, "villager": 1, "exposer": 1, "blob": 1},
        ["oracle", "alien", "cow", "alien", "groob", "zerb", "psychic", "rascal"],
        ["villager", "exposer", "blob"],
        "onuw_alien",
        stride=3,
    ),
    # the pack picks its victim together; the Seer asks about one player
    Deal(
        "lupus",
        {"werewolf": 2, "seer": 1, "villager": 4},
        ["villager", "werewolf", "seer", "villager", "werewolf", "villager", "villager"],
    ),
    # night 1: the pack only meets (the seed: no kill), the Seer looks at an aura
    Deal(
        "wherewolf",
        {"werewolf": 1, "pack_leader": 1, "seer": 1, "healer": 1, "villager": 3},
        ["pack_leader", "seer", "healer", "villager", "werewolf", "villager", "villager"],
    ),
]


def dealt(deal: Deal) -> tuple[Table, list[str]]:
    """The table of `deal`, its cards seen (phase "cards"), and each phone's token."""
    rs = ruleset(deal.game)
    table = Table(rs, "en", rng=random.Random(3))
    table.pace = PACE
    tokens = [table.join(name, table.room)[1] for name in NAMES[: len(deal.cards)]]
    table.start(deal.deck)
    for seat, card in zip(table.seats, deal.cards, strict=True):
        seat.card = card
    table.unseen = list(deal.centre)
    table.engine = Engine.deal(
        rs, NAMES[: len(deal.cards)], deal.cards, deal.centre, options=flags(rs)
    )
    return table, tokens


# -- the phones -------------------------------------------------------------------------


def first_way(prompt: dict[str, Any], skip: int = 0) -> list[str]:
    """A phone's answer: the prompt's first way, with its first options (after the
    first `skip` players: the next answer, when the rules refused one)."""
    way, ids = prompt["ways"][0], [o["id"] for o in prompt["options"]]
    if way["named"]:
        return [way["named"][0]]
    seats = [i for i in ids if i.startswith("seat:")]
    seats = seats[skip:] + seats[:skip]
    return seats[: way["seat"]] + [i for i in ids if i.startswith("centre:")][: way["centre"]]


def answer_all(service: TableService, tokens: list[str], done: list[set[str]]) -> None:
    """Every phone answers each prompt on its screen it has had no answer to (again,
    with the next players, when the rules refuse its card that answer)."""
    for token, mine in zip(tokens, done, strict=True):
        player = service.player(token)
        while (prompt := service.private(player)["prompt"]) is not None:
            if prompt["id"] in mine:
                break
            skip = 0
            while not service.act(player, prompt["id"], first_way(prompt, skip))["ok"]:
                skip += 1
                assert skip < len(prompt["options"]), prompt
            mine.add(prompt["id"])  # the answer came back


def hold_at_every_call(service: TableService, clock: TurnClock) -> None:
    """Hold the voice's clock as it enters a call (and a copies' call after it), on
    the voice's own thread, until the table has opened the call and the phones have
    answered. The voice's steps count from where its night began: a night resumed
    after a restart begins at the call it was at (`SessionVoice.first`)."""
    table = service.table
    voice = service.voice
    assert isinstance(voice, SessionVoice)
    held: set[tuple[str, int]] = set()

    def event(event: PhaseEvent) -> None:
        desk, step = table.desk, event.state.step
        if event.state.phase != "night" or desk is None or step is None:
            return
        at = step + voice.first
        for window in desk.windows:
            parts = [(window.first, window.last), *([window.later] if window.later else [])]
            for part, (first, last) in enumerate(parts):
                if first <= at <= last and (window.step.id, part) not in held:
                    held.add((window.step.id, part))
                    clock.hold()

    voice.session.subscribe(event)


@dataclass
class Saved:
    """The saved game at one step of the night, and what each phone had been
    answered by then."""

    data: bytes
    done: list[set[str]]


@dataclass
class Night:
    engine: dict[str, Any]  # the engine's whole saved state after the night: its tokens too
    log: list[dict[str, Any]]
    journal: dict[int, list[dict[str, Any]]]
    night: int
    phase: str
    steps: list[Saved] = field(default_factory=list)
    calls: int = 0


def serve(service: TableService, body: Callable[[TableService], Any]) -> None:
    async def main() -> None:
        service.attach(asyncio.get_running_loop())
        try:
            await body(service)
        finally:
            service.detach()

    try:
        asyncio.run(main())
    finally:
        service.voice.close()


def play(
    table: Table,
    tokens: list[str],
    done: list[set[str]],
    path: Path,
    *,
    keep: bool = False,
    begin: bool = True,
) -> Night:
    """The night on the service, from where `table` is, to the day; `keep`: every
    saved game along the way. `begin`: the host opens the night (else it is one
    resumed, sealed until two phones are back)."""
    clock = TurnClock(QUANTUM)
    clock.hold()  # still, until the phones have seen where the night is
    service = TableService(table, silent_voice(clock=clock), save_path=path)
    hold_at_every_call(service, clock)
    steps: list[Saved] = []
    if keep:
        saved = service._save

        def keeping() -> None:
            saved()
            if table.phase == "night":
                steps.append(Saved(path.read_bytes(), [set(d) for d in done]))

        service._save = keeping  # type: ignore[method-assign]
    calls: set[str] = set()

    windows: list[str] = []

    async def night(service: TableService) -> None:
        if begin:
            service.press("next", "cards")
            assert table.desk is not None
            script = table.desk.script
            for window in table.desk.windows:  # each call lasts longer than a look
                heard = script.steps[window.first : window.last + 1]
                assert sum(map(estimate_seconds, heard)) > 2 * QUANTUM
                windows.append(window.step.id)
        else:
            for token in tokens[:2]:  # two phones back: the game opens, the night goes on
                service.player(token)
        deadline = time.monotonic() + 60
        while table.phase == "night":
            assert time.monotonic() < deadline, "the night never ended"
            if clock.held:
                await asyncio.sleep(0)  # the step held at reaches the table first
                if table.desk is not None and table.desk.open is not None:
                    calls.add(table.desk.open.step.id)
                    answer_all(service, tokens, done)
                clock.release()
            clock.nudge()
            await asyncio.sleep(0.001)

    serve(service, night)
    assert table.engine is not None
    if begin:  # every call of the night was heard, and answered, by every phone
        assert table.journal and len(calls) == len(windows), (calls, windows)
    return Night(
        table.engine.snapshot(),
        [e.to_dict() for e in table.engine.log],
        {int(k): v for k, v in table.journal.items()},
        table.engine.night,
        table.phase,
        steps,
        len(calls),
    )


@pytest.fixture
def saves(tmp_path: Path) -> Iterator[Path]:
    """The saved games' folder, in memory where there is one: the table saves after
    every change and syncs the file (`saved.save`), hundreds of times a night here,
    and on a disk the other tests keep busy each sync took ~12 ms -- most of this
    file's time. What is tested is the same: the file written, synced and renamed."""
    shm = Path("/dev/shm")
    folder = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() else tmp_path / "saves"
    folder.mkdir(exist_ok=True)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


# One Night with the boxes' roles is resumed from each of its many steps (45 rests of
# the night): ~15 s alone, but no test here may meet the default per-test limit on a
# loaded machine.
@pytest.mark.timeout(600)
@pytest.mark.parametrize("deal", DEALS, ids=[d.name or d.game for d in DEALS])
def test_a_night_resumed_from_any_step_ends_as_if_never_cut(deal: Deal, saves: Path) -> None:
    table, tokens = dealt(deal)
    path = saves / "game.json"
    whole = play(table, tokens, [set() for _ in tokens], path, keep=True)
    assert whole.phase != "night" and whole.night == 1 and whole.calls >= 2
    assert len(whole.steps) > 2 * whole.calls  # each call opened and closed, each answer
    cuts = list(enumerate(whole.steps))
    for k, step in [*cuts[: -1 : deal.stride], cuts[-1]]:
        cut = saves / f"cut{k}.json"
        cut.write_bytes(step.data)
        resumed = load_saved(cut, table.ruleset, rng=random.Random(3))
        resumed.pace = PACE
        assert resumed.phase == "night" and resumed.night == 1, k
        rest = play(resumed, tokens, [set(d) for d in step.done], cut, begin=False)
        where = f"cut at step {k} of {len(whole.steps)}"
        assert rest.night == 1 and rest.phase == whole.phase, where  # no second night
        assert rest.log == whole.log, where  # nothing played twice, nothing lost
        assert rest.journal == whole.journal, where
        assert rest.engine == whole.engine, where  # the cards, the tokens, the draws


# -- a real process, killed ------------------------------------------------------------------

NARRATOR = [sys.executable, "-m", "narrator.cli"]


class Server:
    """`narrator table --resume` on a saved game, over HTTP, as the phones use it."""

    def __init__(self, game: str, path: Path) -> None:
        self.proc = subprocess.Popen(
            [*NARRATOR, "table", game, "--host", "127.0.0.1", "--port", "0", "--no-audio",
             "--pace", str(PACE), "--game", str(path), "--resume",
             "--rate-limit", "1000/1000"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, self.proc.stderr.read() if self.proc.stderr else ""
        ready = json.loads(line)
        self.base = ready["join"].split("/?")[0]
        self.host_token = ready["host_token"]

    def call(self, method: str, path: str, body: Any = None, token: str = "") -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            self.proc.wait(15)


def phones_play(
    server: Server, tokens: list[str], done: list[set[str]], stop: Callable[[], bool]
) -> str:
    """The phones over HTTP: each answers every prompt it is shown, until `stop()` or
    the night is over; the phase then."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        phase = ""
        for token, mine in zip(tokens, done, strict=True):
            me = server.call("GET", "/api/me", token=token)
            phase, prompt = me["phase"], me["prompt"]
            if prompt is not None and prompt["id"] not in mine:
                try:
                    server.call("POST", "/api/act", {"prompt": prompt["id"],
                                "choose": first_way(prompt)}, token)  # fmt: skip
                    mine.add(prompt["id"])
                except urllib.error.HTTPError as err:
                    assert err.code == 409, err.read()  # the call closed as it answered
            if stop():
                return phase
        if phase != "night":
            return phase
        time.sleep(0.1)  # a call stays open for seconds: ten looks a second see it
    raise AssertionError("the night never ended")


# A real process killed: each game, and one of the boxes (the Vampire night holds the
# most state between calls: marks, fear, who sleeps); the others' restored state is
# the in-process test's above.
KILLED = [d for d in DEALS if d.name in ("", "onuw_vampire")]


@pytest.mark.parametrize("deal", KILLED, ids=[d.name or d.game for d in KILLED])
def test_a_server_killed_mid_call_resumes_the_same_night(deal: Deal, saves: Path) -> None:
    """SIGKILL once the night's first answers are in; --resume: two phones back, the
    same night goes on from the same call (never a "night 2", never a call asked
    again), and what was answered before the kill is kept."""
    table, tokens = dealt(deal)
    path = saves / "game.json"
    save(table, path)
    # The user's quickest voice (the silent table keeps its timing): what is tested is
    # the kill and the resume, not the words, which at the default rate were two
    # thirds of the test's time.
    SettingsStore().save(Settings(rate=RATES[1]))
    server = Server(deal.game, path)
    done: list[set[str]] = [set() for _ in tokens]
    answered = lambda: sum(map(len, done))  # noqa: E731
    try:
        for token in tokens[:2]:  # two phones back: the game opens
            server.call("GET", "/api/me", token=token)
        server.call("POST", "/api/host/next", {"from": "cards"}, server.host_token)
        phones_play(server, tokens, done, stop=lambda: answered() >= 3)
        server.kill()  # there and then: no goodbye, no last save
        before = answered()
        server = Server(deal.game, path)
        for token in tokens[:2]:
            server.call("GET", "/api/me", token=token)
        assert server.call("GET", "/api/state")["night"] == 1
        shown = [server.call("GET", "/api/me", token=t)["prompt"] for t in tokens]
        assert all(p is None or p["id"].startswith("n1.") for p in shown), shown
        phones_play(server, tokens, done, stop=lambda: answered() >= before + 3)
    finally:
        server.stop()  # saved as it stops
    again = load_saved(path, table.ruleset)
    for token in tokens[:2]:
        player = again.seats.holding(token)
        assert player is not None
        open_with(again, player, token)
    assert again.engine is not None and again.engine.night == again.night == 1
    # every answer before the kill is there, once: no call asked twice (a phone's
    # choices at a call are no more than the prompts it answered there: a
    # Doppelganger's copy and her follow-up are two), none lost
    chose = Counter((e.step, e.seat) for e in again.engine.log if e.kind == "chose")
    assert chose and all(step.startswith("n1.") for step, _ in chose)
    for (step, seat), n in chose.items():
        answered_there = [p for p in done[seat or 0] if p.partition("/")[0] == step]
        assert n <= len(answered_there), (step, seat, n, answered_there)
