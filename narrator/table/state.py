"""The table: one room of players with phones, as pure state with no I/O and no web.

`Table` is the game at the table (`TableFlow`: its phases, votes and end) with the moves
that come before and around it: the lobby (`Seats`: join, lock, sitting order,
remove, a seat to a new phone), the deal, the night on the phones (`NightDesk`), the
rounds of turns, play again. Commands come in, and what the voice must say comes out
as `events` (drained by the service, `service.py`); what each phone and the host see
is `views.py`, the saved game `saved.py` and its sealed secrets `sealed.py`. A web
server, the terminal app or a test drives it the same way.

Seats are `SeatIndex`es (0-based) everywhere here; display numbers live on the wire
(`seats.py`). Cards are dealt with `secrets.SystemRandom`; the cards not dealt (One
Night's centre, Lupus's discard with 7 players, Secret Moon's set-aside card) are
known to nobody until the end.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from narrator.base.errors import NarratorError
from narrator.i18n.phrase import Phrase
from narrator.moderator import Game as Engine
from narrator.moderator import MoveError, Words, unsupported_roles
from narrator.moderator.referee import Referee
from narrator.moderator.support import flags, stand_ins
from narrator.rules import Problems, Ruleset, check_selection, decks, recommended
from narrator.table.errors import TableError
from narrator.table.flow import Announcement, TableFlow
from narrator.table.night import LATE
from narrator.table.seal import seat_key
from narrator.table.seats import ClaimStatus, Player, SeatIndex, place, token_hash

ROOM_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I or O: read aloud and typed on a phone

Chosen = tuple[tuple[str, int], ...]  # a deck: (role id, count), in the order chosen


def chosen_roles(ruleset: Ruleset, roles: Mapping[object, object]) -> Chosen:
    """A deck as the host sent it (`{"werewolf": 2}`), each role and count checked."""
    return tuple(_role_count(ruleset, r, n) for r, n in roles.items())


def _role_count(ruleset: Ruleset, role_id: object, count: object) -> tuple[str, int]:
    if not isinstance(role_id, str) or role_id not in ruleset.role_ids:
        raise TableError(f"'{ruleset.id}' has no role {role_id!r}")
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise TableError(f"{role_id}: the count must be a whole number, 1 or more")
    return role_id, count


def recommended_deck(ruleset: Ruleset, players: int, deal: bool) -> Chosen:
    """The ruleset's deck for this many players; dealt by the phones, every role the
    engine cannot run stands in as a card of its team it can (a Villager)."""
    try:
        chosen, _ = recommended(ruleset, players)
    except NarratorError as exc:
        raise TableError(str(exc)) from None
    return tuple(stand_ins(ruleset, chosen)) if deal else chosen


@dataclass
class Table(TableFlow):
    room: str = ""

    def __post_init__(self) -> None:
        if not self.room:
            self.room = "".join(self.rng.choice(ROOM_ALPHABET) for _ in range(4))

    def _same_room(self, room: object) -> None:
        if not isinstance(room, str) or room.strip().upper() != self.room:
            raise TableError(Phrase("no room with that code; check the code on the host's screen"))

    # -- the lobby (none of these sees a card) -----------------------------------------

    def join(self, name: object, room: object) -> tuple[Player, str]:
        """A new player at the next seat, and their phone's token."""
        self._same_room(room)
        if self.phase != "lobby":
            raise TableError(Phrase("the game has started; wait for the next one"), "refused")
        player, token = self.seats.join(name, self.ruleset.setup.max_players)
        self.vault.keys[player.token_hash] = seat_key(token)
        self._changed()
        return player, token

    def _lobby_only(self) -> None:
        if self.phase != "lobby":
            raise TableError(
                Phrase(
                    "the seats can be reordered only before the deal; after the game, "
                    "press Play again first"
                ),
                "refused",
            )

    def remove(self, seat: SeatIndex, name: object) -> None:
        """The host removes a player before the deal: the seat is freed, the seats
        after it move up one, their phone is told (its token no longer works). After
        the deal the cards are the game's, so a player cannot be taken away; in a game
        of many nights the host marks them out instead (`eliminate`)."""
        if self.phase != "lobby":
            if self.trial:
                said = Phrase(
                    "the cards are dealt: a player cannot be removed now (mark them as out "
                    "instead); after the game, press Play again and remove them then"
                )
            else:
                said = Phrase(
                    "the cards are dealt: a player cannot be removed now; after the game, "
                    "press Play again and remove them then"
                )
            raise TableError(said, "refused")
        self.seats.remove(seat, name)
        self._changed()

    def lock(self, locked: object) -> None:
        """Lock the table (no more joins) or open it again."""
        self.seats.lock(locked)
        self._changed()

    def reorder(self, names: object) -> None:
        """Put the seats in sitting order, given as the players' names."""
        self._lobby_only()
        self.seats.reorder(names)
        self._changed()

    def claim(self, room: object, seat: SeatIndex, source: str) -> tuple[str, str]:
        """A phone asks to take a seat over: a code for both screens, and a token that
        works once the host has confirmed."""
        self._same_room(room)
        code, token = self.seats.claim(seat, source, self.rng)
        self.vault.keys[token_hash(token)] = seat_key(token)
        self._changed()
        return code, token

    def waiting(self, token: str) -> ClaimStatus | None:
        """A phone's request still waiting for the host, by the token it was given."""
        claim = self.seats.waiting(token)
        return None if claim is None else ClaimStatus(True, claim.player.seat, claim.code)

    def settle_claim(self, code: object, confirm: object) -> None:
        """The host gives the seat to the phone showing `code`, or refuses."""
        self.seats.settle(code, confirm)
        self._changed()

    def play_again(self) -> None:
        """After the end: a new game with the same room, phones (tokens) and seats,
        back in the lobby, where the host may reorder, remove and deal again."""
        self.vault.must_be_open()
        if self.phase != "end":
            raise TableError(Phrase("play again after the end of the game"), "refused")
        self.seats.again()
        self.referee, self.deadline, self.dealt = None, None, False
        self.roles, self.unseen, self.removed, self.journal = {}, [], [], {}
        self.reveal = None
        self.engine = self.desk = None
        self._changed()

    # -- the deal ---------------------------------------------------------------------

    def start(self, roles: Mapping[object, object] | None, deal: bool = True) -> None:
        """Deal (or, with physical cards, just begin): empty roles = the recommended deck."""
        self.vault.must_be_open()
        if self.phase != "lobby":
            raise TableError(Phrase("the game has already started"), "refused")
        players = len(self.seats)
        if roles:
            chosen = chosen_roles(self.ruleset, roles)
            report = check_selection(self.ruleset, players, chosen)
            if report.errors:  # said in the table's language on the host's page
                raise TableError(Problems(self.ruleset, players, chosen))
        else:
            chosen = recommended_deck(self.ruleset, players, deal)
        if deal and self.ruleset.outcome is not None:
            # Cards nobody knows: the engine plays the night and judges the end, so it
            # must run every role of the deck. (A ruleset with no `outcome`, Secret
            # Moon, is dealt with no engine: its players act openly, the host ends it.)
            why = unsupported_roles(self.ruleset, [r for r, _ in chosen])
            if why:
                raise TableError(why, "refused")
        self.dealt = deal
        if deal:  # the rules deal (rules.decks.deal): removed, one each, the rest aside
            dealt = decks.deal(self.ruleset, players, chosen, self.rng)
            self.removed.extend(dealt.removed)
            for seat, card in zip(self.seats, dealt.cards, strict=False):
                seat.card = card
            self.unseen = list(dealt.unseen)
        if deal and self.ruleset.outcome is not None:
            # the options the voice plays with (the ruleset's own: the table sets none),
            # so a power the voice offers is the engine's too (the lone wolf's look)
            self.engine = Engine.deal(
                self.ruleset,
                [s.name for s in self.seats],
                [s.card or "" for s in self.seats],
                list(self.unseen),
                options=flags(self.ruleset),
                rng=self.rng,
                seed=self.rng.randrange(2**31),  # the voice's too (`game()`): one draw
            )
        self.roles = dict(chosen)
        self.seed = self.rng.randrange(2**31)
        self.referee = Referee(self.ruleset.flow, self.judge(), [True] * players)
        self.events.append(Announcement("dealt"))
        self._changed()

    # -- the night on the phones ----------------------------------------------------

    def act(self, player: Player, prompt: object, choose: object) -> dict[str, Any]:
        self.vault.must_be_open()
        if self.desk is None or self.phase != "night":
            raise TableError(LATE, "refused")
        return self.desk.act(player.seat, prompt, choose)

    # -- rounds of turns (Secret Moon) -------------------------------------------------

    def has_turn(self, seat: SeatIndex) -> bool:
        """Whether the player may still take a turn in this round: one action each,
        and none for a player out or disturbed (all of it public)."""
        engine = self.engine
        return (
            self.phase == "day"
            and bool(self.round)
            and engine is not None
            and (engine.has_turn(seat))
        )

    def turn(self, player: Player, action: object, choose: object) -> dict[str, Any]:
        """A player takes their turn's action (the turn cards are on the table: whoever
        holds the card called plays it; one action each a round, the engine keeps it).
        What everyone sees is announced; what the actor alone learns (a card
        inspected) comes back and goes in their journal. A turn the rules refuse --
        some refusals depend on the card (a Guard may not capture) -- is answered in
        the same shape as one taken (`refused`: why, on this phone only): its size
        tells nothing."""
        self.vault.must_be_open()
        if not (self.phase == "day" and self.round and self.engine is not None):
            raise TableError(Phrase("there are no turns now"), "refused")
        if not isinstance(action, str) or not isinstance(choose, list):
            raise TableError('a turn is {"action": "...", "choose": ["seat:2", ...]}')
        if not all(isinstance(c, str) for c in choose) or len(choose) > 4:
            raise TableError('"choose" is a list of a few option ids')
        engine = self.engine
        roles = [c.removeprefix("role:") for c in choose if c.startswith("role:")]
        places = [place(c) for c in choose if not c.startswith("role:")]
        before, said = len(engine.log), len(self.events)
        try:
            if len(roles) > 1:
                raise MoveError(f"{player.name} must name one role to {action}")
            role = roles[0] if roles else None
            entries = self._move(lambda r: r.turn(player.seat, action, places, role))
        except TableError as exc:
            if exc.kind != "refused" or self.phase != "day":
                raise
            return {"ok": False, "refused": exc.say(self.lang), "learned": []}
        except MoveError as exc:
            return {"ok": False, "refused": exc.say(self.lang), "learned": []}
        words = Words(engine, self.lang)
        learned = [
            {"night": e.night, "text": words.journal(e)}
            for e in entries
            if e.to == player.seat and e.kind == "see"
        ]
        self.journal.setdefault(player.seat, []).extend(learned)
        # what the table hears of the turn, before the end it may bring
        self.events.insert(said, Announcement("turn_said", since=before))
        self._changed()
        return {"ok": True, "refused": None, "learned": learned}
