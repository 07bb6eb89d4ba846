"""One table, served: the commands any front end sends, and what follows each change.

`TableService` is the table as a service, with no web framework: the web server
(`server.py`, HTTP and WebSockets only) and the app's Table mode (`host.py`) drive
the same one. It owns what a front end must not write twice:

- **who is asking**: a phone's token to its player (`player`; a phone back after a
  restart opens the sealed game, as a command: `sealed.open_with`), the host's token;
- **the input checks**: each command's values are checked once, here (a deck is an
  object, `"deal"` a boolean, a seat a display number from the wire -> `SeatIndex`,
  a host command names the phase it was pressed in);
- **after every change** (`changed`): the table's announcements to the voice (and
  the last one to every page), the night started or stopped by the phase, the voice's
  "night heard to the end" as the table's next phase, the saved game (one that
  cannot be saved stops the table: `unsaved`, `on_unsaved`), and one push to every
  listener -- at most every PUSH_GAP seconds, the first at once;
- **the clock**: every TICK seconds a deadline that has passed moves the table on,
  and a voice that failed is shown to the host at once.

Everything runs on one event loop (`Loop`: an asyncio loop fits); the voice calls
back from its own thread through `call_soon_threadsafe`. Nothing here blocks but the
save: a synced write after every change, ~10 ms on a busy machine (`scripts/bench_save`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from narrator.i18n import LANGUAGES
from narrator.i18n.phrase import Phrase, Value
from narrator.session.game import GameSetup
from narrator.table import views
from narrator.table.announce import announce, foreseen
from narrator.table.errors import TableError
from narrator.table.lines import HOST, host_words, page_words
from narrator.table.saved import save
from narrator.table.sealed import open_with
from narrator.table.seats import ClaimStatus, Player, SeatIndex, index_of
from narrator.table.state import Table

Done = Callable[[str | None], None]  # a night heard to the end (None) or failed (why)
OnStep = Callable[[int], None]  # the night's script step being heard now


class TableVoice(Protocol):
    """The voice the service speaks through (`voice.SessionVoice`). `say()` and
    `night()` never block the caller (the service's loop); lines are spoken in
    order, one at a time, on a worker thread; `night()` calls `done` once the night
    has been heard to the end. A night that fails is not passed as heard: `done` is
    not called, the error goes to `errors` (the host page shows it) and the host
    decides to go on. `first`: the script step to begin at (a night resumed after a
    restart); `on_step` is told the script's own step numbers."""

    said: list[str]  # every line asked for, in order
    errors: list[str]  # why a line or a night could not be heard (shown to the host)

    def say(self, text: str, lang: str) -> None: ...
    def night(
        self, game: GameSetup, done: Done, on_step: OnStep | None = None, first: int = 0
    ) -> None: ...
    def prepare(self, games: Sequence[GameSetup], lines: Sequence[str]) -> None: ...
    def stop_night(self) -> None: ...
    def close(self) -> None: ...


# A phone's answer when the game cannot be saved (the host is told why and where).
UNSAVED = "the game could not be saved, so the table stops; the host can resume it"
PUSH_GAP = 0.05  # seconds between two pushes of the views to every listener
TICK = 0.2  # seconds between two looks at the table's deadlines


class Handle(Protocol):
    def cancel(self) -> None: ...


class Loop(Protocol):
    """What the service needs of an event loop (`asyncio.AbstractEventLoop` fits)."""

    def time(self) -> float: ...
    def call_later(self, delay: float, callback: Callable[[], object]) -> Handle: ...
    def call_soon_threadsafe(self, callback: Callable[..., object], *args: Any) -> Handle: ...


# The host's commands by name, as the app's keys and the host page's buttons send them.
HOST_COMMANDS: dict[str, Callable[[Table], None]] = {
    "deal": lambda table: table.start({}),
    "next": lambda table: table.advance(),
    "end": lambda table: table.end(),
}


class TableService:
    def __init__(self, table: Table, voice: TableVoice, *, save_path: Path | None = None) -> None:
        self.table = table
        self.voice = voice
        self.save_path = save_path
        self.listeners: list[Callable[[], None]] = []  # told at every push, on the loop
        self.announced: list[str] = []  # the last lines said (the newest last)
        self._said_in: tuple[str, int] = ("", 0)  # the phase and night of the last one
        self._night_for = 0  # the night the voice is playing (0: none)
        self._loop: Loop | None = None
        self._ticker: Handle | None = None
        self._push_pending = False
        self._pushed = 0.0
        self._errors_told = 0  # the voice's errors the last push carried
        self.unsaved: str | None = None  # why the game could not be saved (it stops)
        self.on_unsaved: Callable[[str], None] | None = None  # the front end stops serving

    # -- the loop ---------------------------------------------------------------------

    def attach(self, loop: Loop) -> None:
        """Serve on `loop`: the deadlines are watched, and a resumed table goes on (a
        night plays on, a vote keeps its deadline)."""
        self._loop = loop
        self._ticker = loop.call_later(TICK, self._tick)
        self.changed()

    def detach(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
        self._ticker = self._loop = None

    def _tick(self) -> None:
        loop = self._loop
        if loop is None:
            return
        # rescheduled first: a tick that raises is logged by the loop, and the next
        # one still comes (a deadline that cannot close must not stop the others)
        self._ticker = loop.call_later(TICK, self._tick)
        if self.table.tick():
            self.changed()
        elif len(self.voice.errors) != self._errors_told and not self._push_pending:
            self._push()  # the voice failed: the host is told at once

    # -- who is asking ------------------------------------------------------------------

    def player(self, token: str) -> Player:
        """The player whose phone holds `token`. A phone back after a restart brings
        its seat's key: the second one opens the sealed game, and the game goes on."""
        player = self.table.seats.holding(token)
        if player is None:
            raise TableError(Phrase("unknown token; join the table again"), "unknown")
        if open_with(self.table, player, token):
            self.changed()
        return player

    def is_host(self, token: str) -> bool:
        return self.table.seats.is_host(token)

    def host(self, token: str) -> None:
        """The host's token, or: an unknown one (401), a player's (403)."""
        if self.is_host(token):
            return
        self.player(token)  # unknown: refused as such
        raise TableError("only the host can do this", "forbidden")

    def holder(self, digest: str) -> SeatIndex | None:
        """The seat a token's hash holds now (None: removed, or moved to a new phone)."""
        player = self.table.seats.held_by(digest)
        return None if player is None else player.seat

    # -- the phones' commands -------------------------------------------------------------

    def join(self, name: object, room: object) -> tuple[Player, str]:
        joined = self.table.join(name, room)
        self.changed()
        return joined

    def vote(self, player: Player, target: object) -> str:
        """A vote; taken or refused, one push follows (as for a turn)."""
        try:
            self.table.vote(player, index_of(target))
        finally:
            self.changed()
        return self.table.phase

    def act(self, player: Player, prompt: object, choose: object) -> dict[str, Any]:
        """A night's answer: the same shape for a real prompt and a decoy, saved before
        it is answered (a restart keeps it), and no push (nothing public changes; a
        group's picks reach its members' next look). Every phone's answer is saved
        alike, a decoy's too."""
        answer = self.table.act(player, prompt, choose)
        self._save()
        return answer

    def turn(self, player: Player, action: object, choose: object) -> dict[str, Any]:
        """A turn of the day's round: taken or refused (by the rules: the same shape
        as one taken, what it says this phone's alone; or a malformed turn), one push
        to every phone follows: a refusal is not told by the pushes that follow it any
        more than by its answer (review 2, L2)."""
        try:
            return self.table.turn(player, action, choose)
        finally:
            self.changed()

    def claim(self, room: object, seat: object, source: str) -> tuple[str, str]:
        """A phone without its token asks to take a seat over; the host confirms."""
        asked = self.table.claim(room, index_of(seat), source)
        self.changed()
        return asked

    def claim_status(self, token: str) -> ClaimStatus:
        """What became of a phone's request: waiting, or given (its token is the seat's
        now). Refused or unknown: a TableError of kind "unknown"."""
        waiting = self.table.waiting(token)
        if waiting is not None:
            return waiting
        try:
            return ClaimStatus(False, self.player(token).seat)
        except TableError as exc:
            if exc.kind != "unknown":
                raise
            raise TableError(
                Phrase("the host did not confirm this request; ask for your seat again"), "unknown"
            ) from None

    # -- the host's commands -----------------------------------------------------------

    def start(self, roles: object, deal: object) -> None:
        self.table.start(_deck(roles), deal=_deal(deal))
        self.changed()

    def press(self, name: str, pressed_in: object) -> None:
        """A host command by name ("deal", "next", "end"), with the phase it was
        pressed in: a second tap that arrives after the first moved the table on is
        refused and changes nothing, so a double tap on "Go on" never skips the night."""
        if not isinstance(pressed_in, str):
            raise TableError('say which phase this was pressed in: {"from": "<phase>"}')
        phase = self.table.phase
        if pressed_in != phase:
            raise TableError(
                Phrase(
                    "the table has already moved on from “{pressed}” (now: “{now}”); "
                    "nothing was changed",
                    pressed=_phase_named(pressed_in, self.table.night - (phase == "night")),
                    now=_phase_named(phase, self.table.night),
                ),
                "refused",
            )
        HOST_COMMANDS[name](self.table)
        self.changed()

    def eliminate(self, seat: object) -> None:
        """The host marks a player out. With the cards on the phones the engine knows
        who dies in the night: the host marks out by day only a player who leaves the
        table, and the voice says so (review 2, N11: a misread label killed a player
        in the night)."""
        table = self.table
        if table.dealt and table.trial and table.phase != "day":
            raise TableError(
                Phrase(
                    "the cards are on the phones: the night's deaths are the game's own; "
                    "mark out a player who left the table by day"
                ),
                "refused",
            )
        table.eliminate(index_of(seat))
        self.changed()

    def remove(self, seat: object, name: object) -> None:
        self.table.remove(index_of(seat), name)
        self.changed()

    def lock(self, locked: object) -> None:
        self.table.lock(locked)
        self.changed()

    def reorder(self, order: object) -> None:
        self.table.reorder(order)
        self.changed()

    def settle_claim(self, code: object, confirm: object) -> None:
        self.table.settle_claim(code, confirm)
        self.changed()

    def again(self) -> None:
        self.table.play_again()
        self.announced.clear()  # the last game's winners are not this game's news
        self.changed()

    def deck(self, roles: object, deal: object = True) -> dict[str, Any]:
        """The running count of a deck the host is choosing (`{}`: the recommended),
        dealt by the phones or (`deal` false) with physical cards."""
        return views.deck_count(self.table, _roles(roles), _deal(deal))

    # -- what each one sees -------------------------------------------------------------

    def public(self) -> dict[str, Any]:
        return views.public(self.table)

    def private(self, player: Player) -> dict[str, Any]:
        return views.private(self.table, player)

    def night_room(self) -> int:
        """The bytes tonight's prompt and picks may take on a phone (`views.night_room`)."""
        return views.night_room(self.table)

    def host_view(self) -> dict[str, Any]:
        """The host's view, and the voice's last errors (the host decides to go on)."""
        return {**views.host(self.table), "voice_errors": self.voice.errors[-3:]}

    def said(self) -> str | None:
        """The last announcement, while the table is still in the phase it was made
        in: "the cards are dealt" is not the news of the day (review P7)."""
        fresh = bool(self.announced) and self._said_in == (self.table.phase, self.table.night)
        return self.announced[-1] if fresh else None

    def app_view(self) -> dict[str, Any]:
        """What the app's Table screen draws: the public state, the host's view, the
        last line said, the voice's errors and why the game could not be saved."""
        return {
            "state": self.public(),
            "host": self.host_view(),
            "said": self.announced[-1] if self.announced else None,
            "voice_errors": list(self.voice.errors[-3:]),
            "unsaved": self.unsaved,
        }

    @staticmethod
    def words(lang: str, page: str | None) -> dict[str, str]:
        """A page's words in a language (the phone page's, or the host page's)."""
        if lang not in LANGUAGES:
            raise TableError(f"no words in {lang!r}; try one of: {', '.join(LANGUAGES)}")
        return host_words(lang) if page == "host" else page_words(lang)

    # -- after every change --------------------------------------------------------------

    def changed(self) -> None:
        """After every change: announce it, play a night that begins (or stop one that
        ended), save, and push the new state to every listener."""
        table = self.table
        events, table.events = table.events, []
        for event in events:
            for text in announce(table, event):
                self.announced.append(text)
                self.voice.say(text, table.lang)
                self._said_in = (table.phase, table.night)
        if table.phase != "night":
            if self._night_for:
                self.voice.stop_night()
            self._night_for = 0
        elif self._night_for != table.night and not table.vault.waiting and self._loop:
            self._night_for = table.night
            self._play_night(table.night)
        del self.announced[:-20]
        self._prepare_ahead()
        self._save()  # before the answer: an acknowledged vote is saved
        # Thirty votes in a burst make a few pushes, not thirty: at most one push every
        # PUSH_GAP seconds, the first at once; each carries the latest state.
        loop = self._loop
        if loop is not None and not self._push_pending:
            self._push_pending = True
            loop.call_later(max(0.0, self._pushed + PUSH_GAP - loop.time()), self._push)

    def _prepare_ahead(self) -> None:
        """The voice makes ahead what it will say (audio/prepare.py): this night's and
        day's calls, the next night's, and the announcements one can foresee."""
        table = self.table
        games, night = [table.game()], max(table.night, 1)  # night 0: before the first
        if table.ruleset.nights is None or night < table.ruleset.nights:
            games.append(table.game(night + 1))
        self.voice.prepare(games, foreseen(table))

    def _save(self) -> None:
        """Save the game, or stop the table: a game that cannot be saved is not played
        on (a phone's answer is only sent once its step is saved). The first failure
        is kept (`unsaved`, the host's one line), pushed, and told to the front end
        (`on_unsaved`: it stops serving); the phones are refused with a line that
        names no file of the host's."""
        if self.save_path is None:
            return
        try:
            save(self.table, self.save_path)
        except TableError as exc:
            if self.unsaved is None:
                self.unsaved = (
                    f"{exc}; the table stopped, keeping the game as last saved: free some "
                    "space (or make its folder writable), then go on with --resume"
                )
                self._push()
                if self.on_unsaved is not None:
                    self.on_unsaved(self.unsaved)
            raise TableError(UNSAVED, "unsaved") from None

    def _push(self) -> None:
        self._push_pending = False
        if self._loop is not None:
            self._pushed = self._loop.time()
        self._errors_told = len(self.voice.errors)
        for listener in list(self.listeners):
            listener()

    def _play_night(self, night: int) -> None:
        """The voice plays the night the table began (its calls were matched to this
        script as it began): from its start, or -- a night resumed after a restart
        -- from the call it was at."""
        table, loop = self.table, self._loop
        assert loop is not None
        first = table.night_from()
        if first is None:
            return  # a night that cannot go on: the host ends it
        game = table.game(night)

        def done(error: str | None) -> None:
            if error is None:
                loop.call_soon_threadsafe(self._night_done, night)

        def on_step(index: int) -> None:
            loop.call_soon_threadsafe(self._night_step, night, index)

        self.voice.night(game, done, on_step, first)

    def _night_step(self, night: int, index: int) -> None:
        """The voice reached step `index`: saved when a window opened or closed, or the
        voice went on to another call (a restart goes on from there); a window's
        change is one push to every phone alike (the public state is unchanged; each
        own part is padded)."""
        table = self.table
        if table.phase != "night" or table.night != night:
            return
        call = table.heard
        told = table.night_at(index)
        if told or table.heard != call:  # a window, or the voice on to another call
            self._save()
        if told:
            self._push()

    def _night_done(self, night: int) -> None:
        if self.table.phase == "night" and self.table.night == night:
            self.table.advance()
            self.changed()


def _roles(value: object) -> dict[object, object]:
    if not isinstance(value, dict):
        raise TableError('"roles" must be an object: {"werewolf": 2, "seer": 1}')
    return value


def _deck(value: object) -> dict[object, object]:
    """The deck sent to start a game: missing or empty is the recommended one."""
    return _roles(value or {})


def _deal(value: object) -> bool:
    if not isinstance(value, bool):  # "false" as a string is not false
        raise TableError('"deal" is true (the phones get the cards) or false')
    return value


def _phase_named(phase: str, night: int) -> Value:
    """A phase as the host page names it ("Night 2", "The vote"), in the language it
    is said in; a name the page does not have (a client's own) as it came."""
    words = HOST.get(f"phase_{phase}")
    return Phrase(words, night=max(1, night)) if words else phase
