"""What a role *does*, how the day's vote kills and who wins: rules as data.

The voice needs only a role's calls (`model.Turn`); a table where nobody knows the
cards needs what each call lets the player do, so that a pure engine
(`narrator.moderator`) can resolve the night, the vote and the winners. These are
the frozen records the loader (`read_powers.py`) makes of a ruleset's `does:`,
`tags:`, `on_death:` and top-level `outcome:` keys. Nothing here names a ruleset or
a role: the ids come from the YAML.

The vocabulary (each effect is one word, applied in the order listed):

- `see`: the actor learns the cards picked (a player's, or centre cards);
- `see_own`: the actor learns the card now in front of them;
- `swap`: the two picked cards change places;
- `swap_own`: the actor's card and the picked one change places;
- `copy`: the actor learns the picked player's card and becomes that role (a
  Doppelganger); the role's own powers follow at once, or at its call when it is in
  `later`;
- `know`: the actor learns who else acts as a role matching `know` (werewolves see
  each other; the Minion sees them), as they were at the start of the night;
- `swap_last`: the picked card changes places with the card the call's previous
  power picked (the Witch's centre card), offered only when that power picked one;
- `rotate`: every other player's card moves one seat in the named direction
  (`pick: [{named: [left, right]}]`; the Village Idiot);
- `shield`: nobody may move or look at the picked player's card from now on (the
  Sentinel's shield);
- `reveal`: the picked card is turned face up for the whole table, unless it
  matches one of `hidden` (the Revealer turns a werewolf or the Tanner back down);
- `learn`: the actor learns whether the picked player's card (or the `target`:
  `executed`, the player the village put to death that day) matches `learn`, told in
  the ruleset's own `answer` words (Lupus's Seer: "a werewolf" / "not a werewolf");
- `swap_spare`: the picked card changes places with the spare card a role brings
  (`spare:`, one more card apart from the centre: the Alpha Wolf's werewolf);
- `become`: the actor becomes the role of the card the power just looked at, when
  that card matches `stop` (the Paranormal Investigator who sees a werewolf);
- `ally`: the actor's card sides with the team of the card the power just looked at
  (Nostradamus): its holder wins only beside that team (a seat rule, `ally_won`);
- `artifact`: the top artifact of the stack (the ruleset's `tokens` of kind
  artifact, shuffled at the deal) goes face down on the picked player's card; its
  holder learns it, and the table sees where one lies (the Curator);
- `mark`: the picked players (or `target: self`) get the mark `mark:` (a token of
  kind mark); the mark each had goes back, unseen;
- `aura`: the actor learns who, earlier tonight, did one of the acts `thumbs:`
  (looked at or moved a card: the Aura Seer);
- `tap`: the player beside the actor on the named side feels a tap and learns who
  tapped them (the Thing);
- `convert`: the card now in front of the actor is the role `into:` from now on,
  wherever it goes (the Body Snatcher's stolen card, an Oracle's answer);
- `recruit`: the picked player is the role `into:` from now on, whatever card they
  hold (a player's conversion, which stays with the player: the aliens' new alien);
- `see_known`: the actor looks at the cards of those they met at this call (the
  aliens show each other their cards);
- `rotate_group`: when the call ends, each player who answered it hands their card
  to the next of them in the `direction` (the aliens pass their cards left);
- `reach`: when the call ends, every card of the role reaches `left` players to its
  left and `right` to its right, wherever it lies (the Blob's body, the Mortician's
  neighbours); a seat rule asks whether one of them died (`reach_dead`);
- `fist`: the actor holds out a fist: the players beside them who answer a call as
  `learn` tap it; the actor learns whether one did, the tappers whom they tapped
  (the Cow);
- `choose`: the actor picks one of the words offered; what follows depends on it
  (the powers offered `if_picked` that word: the Gremlin's cards or marks);
- `reply`: the word the actor picked is the table's to hear (`replies:`, its line
  for each word, told at dawn); when nobody answered the call, one is drawn and told
  the same way (the Oracle, whose card may lie in the centre);
- `protect`, `kill` and `arrest` (timing `dawn`): collected through the night and
  applied at dawn by `priority`, lowest first: a protected player is not killed or
  arrested that night; an arrested player (Mafia's Prisoner) is alive but out of play:
  no powers, no ballot, but still counted among the living.

`of: mark` makes `see`, `see_own`, `swap` and `swap_own` about the marks in front of
the players instead of their cards (the Marksman, the Pickpocket, the Gremlin, the
whole table's look at its own mark). `who:` gives a power to the players matching
(their role tonight, or a mark they hold) instead of the role's holders (the Lovers
who wake and see each other); a call of the whole table (`night: calls:`) is
everyone's. `if_picked: WORD` offers a power only after the call's previous power
picked that word (the Gremlin's cards or marks; the Oracle's yes), and applies a
power that picks nothing right after it. `apart: true` leaves out the player the
call's previous power picked (the Marksman's card and a different player's mark).
`mutual: true` on a `know`: the players seen learn the actor too (the Assassin sees
his Apprentice). A turn's `choices` (one is drawn per game from the plan's seed, the
same draw the voice speaks: `rules.chance`) may each say what it does (`does:`):
those powers are the role's only in a game where that choice is drawn (`choice`).

A power with `agree` is a group's (the werewolves'): every member picks, a pick may
change until the call ends, and then the rule decides -- `unanimous` (all who picked
chose the same player), `most` (the most picks; a tie is nobody) or `strongest` (the
pick of the member whose card has the highest `strength`; between equals, the first
of them round the table from seat 1).

Secret Moon's turns (`actions:` at the top of a ruleset, open to every player on
their turn, not to one role) add: `answer` (the picked player answers aloud by
their card, in the ruleset's `answers`; an answer may `reveal` the card), `accuse`
(the actor names a card's role too: right, that card is shown to everyone; wrong,
the actor's own card is), `hide` (the picked card cannot be picked again this round),
`disturb` (the picked player loses their turn this round), `capture` (a player whose
card was shown is taken out of the game), `self_capture` (the actor is: the price of
disturbing) and `pass` (nothing the engine holds: the turn cards are on the table).
`not_by` keeps an action from some cards (Guards cannot capture); `only` keeps a
target to some cards (`only: [{target: {role: princess}, by: {role: minister}}]`:
only the Minister may capture the Princess).

A role may act `as` another (`does_as:`): it answers that role's call with that
role's powers (Wherewolf's Pack Leader hunts with the pack, as the strongest wolf).

`turn` says which of the role's calls a power belongs to: 0 its own (or the call of
the role it wakes with), 1 its first extra turn (the Mystic Wolf's look at 2c).

`timing` is `at_once` (applied when the player acts, in call order: One Night) or
`dawn` (collected and applied at dawn by `priority`: the many-night games). A deck
holding a role whose powers the ruleset does not give is refused for a game that
needs the engine (`moderator.unsupported_roles`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

from narrator.rules.model import ALWAYS, Condition, Text

Effect = Literal[
    "see", "see_own", "swap", "swap_own", "copy", "know", "swap_last", "rotate", "shield",
    "reveal", "learn", "kill", "protect", "arrest", "swap_spare", "become", "ally",
    "artifact", "mark", "aura", "tap", "convert", "recruit", "see_known", "rotate_group",
    "reach", "fist", "reply", "choose",
    "answer", "accuse", "hide", "disturb", "capture", "self_capture", "pass",
]  # fmt: skip
EFFECTS: tuple[str, ...] = get_args(Effect)
# Effects that need something picked (`learn` may instead name its `target`).
NEEDS_PICK = frozenset(
    {
        "see",
        "swap",
        "swap_own",
        "copy",
        "swap_last",
        "rotate",
        "shield",
        "reveal",
        "kill",
        "protect",
        "arrest",
        "answer",
        "accuse",
        "hide",
        "disturb",
        "capture",
        "swap_spare",
        "become",
        "ally",
        "artifact",
        "tap",
        "recruit",
        "reply",
        "choose",
    }
)
# Effects a group (`agree`) may apply to its one agreed target when the call ends,
# besides the dawn's (`kill`, `protect`, `arrest`): the vampires' mark, the aliens'
# look together and their new alien.
GROUP_NOW = frozenset({"mark", "see", "recruit"})
# The words of `of:` (what a look or a swap is about), of `among:` (which players a
# pick may name, from the actor's own seat: seat numbers are public) and of a
# `rotate_group`'s `direction`.
OF = ("card", "mark")
AMONG = ("odd", "even", "higher", "lower", "left", "right", "neighbours", "left_two", "right_two")
DIRECTIONS = ("left", "right")
# Effects that move or look at a picked card: a shielded card cannot be picked for them.
TOUCHES = frozenset(
    {"see", "swap", "swap_own", "copy", "swap_last", "reveal", "swap_spare", "artifact"}
)
# The acts of the night an `aura` may count (`thumbs:`): the kinds of the log that
# look at or move a card (a mark's: `mark`).
ACTS = (
    "see", "swap", "swap_own", "copy", "rotate", "reveal", "shield", "artifact", "mark",
    "see_mark", "swap_mark",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Match:
    """Which cards a rule is about: one role, every role of a team, or a tag -- read
    on a player's side at the end (`moderator.sides`) -- or the players holding a
    mark or an artifact (the ruleset's `tokens` of that kind)."""

    role: str = ""
    team: str = ""
    tag: str = ""
    mark: str = ""
    artifact: str = ""


@dataclass(frozen=True, slots=True)
class Pick:
    """One way to answer a power: so many players, or so many centre cards."""

    players: int = 0
    centre: int = 0
    other: bool = True  # players other than the actor
    named: tuple[str, ...] = ()  # or one of these words (left, right)
    role: bool = False  # and name a role too (Secret Moon's accusation)
    # only players the night has struck so far (a kill waiting for dawn): the actor
    # learns who they are (Wherewolf's Healer)
    struck: bool = False
    # False: not one of those who answer the call with the actor (Mafia's agents
    # know each other and arrest a mafioso, never one of their own)
    mates: bool = True
    # True: only players the actor met tonight (a `know`: the Squire looks among the
    # werewolves); False: none of them, nor the one whose card they copied (the
    # Alpha Wolf's spare goes to someone who is not a werewolf he knows)
    known: bool | None = None
    # only the players in this relation to the actor's seat, by the public seat
    # numbers (`AMONG`: odd, the neighbour on the left, the two on the right...)
    among: str = ""
    # not the players holding this mark (the Count's Mark of Fear never goes to the
    # player who just got the Mark of the Vampire): only a mark the actor saw given
    not_: Match | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """How a card answers an `answer` power aloud: the first that matches speaks."""

    match: Match
    say: Text  # with {name}
    reveal: bool = False  # the answer shows the card (Secret Moon's Minister)


@dataclass(frozen=True, slots=True)
class Only:
    """A target matching `target` may be picked only by a card matching `by`."""

    target: Match
    by: Match


@dataclass(frozen=True, slots=True)
class Ability:
    """One thing a role may do when it is called."""

    id: str
    effects: tuple[Effect, ...]
    picks: tuple[Pick, ...] = ()  # alternatives (the Seer: a player, or two centre cards)
    optional: bool = True
    when: Condition = ALWAYS  # options and nights, as for a line
    alone: bool = False  # only when nobody else acts in this call (the lone wolf)
    know: Match | None = None
    later: tuple[str, ...] = ()  # copy: roles acted at their own call, not at once
    timing: Literal["at_once", "dawn"] = "at_once"
    priority: int = 0  # dawn: lower first (block, protect, kill, learn)
    turn: int = 0  # which of the role's calls: 0 its own, 1.. its extra turns
    hidden: tuple[Match, ...] = ()  # reveal: cards turned face down again
    learn: Match | None = None  # learn: the question
    answer: tuple[Text, Text] | None = None  # learn: the words for is and is_not
    # learn: about this player instead of a pick; mark: `self`, the actor
    target: Literal["", "executed", "self"] = ""
    agree: Literal["", "unanimous", "most", "strongest"] = ""  # a group's power
    once: bool = False  # once per game (Wherewolf's Healer saves one player, once)
    answers: tuple[Answer, ...] = ()  # answer: what each card says
    say: Text | None = None  # an action: what the table hears, with {name} {who} {role}
    label: Text | None = None  # an action: its name on the phone's button
    not_by: Match | None = None  # an action these cards may not take
    only: tuple[Only, ...] = ()  # targets reserved to some cards (the Minister's capture)
    # a look that matches one of these ends the actor's night as that role: its other
    # powers that pick are spent (the Paranormal Investigator stops on a werewolf)
    stop: tuple[Match, ...] = ()
    mark: str = ""  # mark: the mark given (a token of kind mark)
    thumbs: tuple[str, ...] = ()  # aura: the acts that raise a thumb (`ACTS`)
    into: str = ""  # convert, recruit: the role the card (the player) is from now on
    of: Literal["card", "mark"] = "card"  # see, swap...: the cards, or the marks
    # the players who answer this power's call, instead of the role's holders: a
    # role (tonight's) or a mark they hold (the Lovers: `{mark: mark_of_love}`)
    who: Match | None = None
    mutual: bool = False  # know: those seen learn the actor too
    if_picked: str = ""  # only after the call's previous power picked this word
    apart: bool = False  # not the player the call's previous power picked
    # a power of one of the turn's `choices` (from 0): the role's only in a game where
    # that choice is drawn; -1 in every game
    choice: int = -1
    reach: tuple[int, int] = (0, 0)  # reach: how many players to the left, to the right
    direction: str = ""  # rotate_group: left (clockwise) or right
    replies: tuple[tuple[str, Text], ...] = ()  # reply: each word's line for the table
    line: int = 0


@dataclass(frozen=True, slots=True)
class Powers:
    """A role's powers: what it does when called, its tags, what its death does."""

    abilities: tuple[Ability, ...] = ()
    tags: tuple[str, ...] = ()
    on_death: Literal["", "shoot_vote"] = ""  # the Hunter: his vote's target dies too
    # what the table hears of it, with {names}: the players the death took along
    on_death_line: Text | None = None
    strength: int = 0  # agree: strongest -- the strongest member's pick decides
    does_as: str = ""  # answers this role's call with its powers (the Pack Leader)
    # what the role does is given (`does:`, even empty, `does_as:` or `on_death:`);
    # False when only `tags:` are, for rules about the card (a Vampire's Shadow)
    given: bool = True
    # one more card of this role lies apart from the centre, as its last card, when
    # this role is in the game (the Alpha Wolf's werewolf); `swap_spare` moves it
    spare: str = ""
    # at the call of the role it wakes with, it uses that role's powers, not its own
    # (the Master bites with the vampires; Groob does what the aliens were told)
    group_powers: bool = False


NONE = Powers()


@dataclass(frozen=True, slots=True)
class Predicate:
    """A condition on the end of a game, over the cards as they are at the end.

    Exactly one of the fields is set: `dead` (a dead player's card matches), `held`
    (any player's card matches, dead or alive), `dead_other` (someone whose card does
    not match died), `nobody_dead`, or the combinators `all`, `any`, `not_`.
    """

    dead: Match | None = None
    held: Match | None = None
    dead_other: Match | None = None
    alive: Match | None = None  # a living player's card matches
    parity: tuple[Match, Match] | None = None  # as many living first as living second
    # someone is alive and every living player matches one of these (the only faction
    # left, the factionless aside: Wherewolf's Shadow victory)
    only_alive: tuple[Match, ...] = ()
    nobody_dead: bool = False
    nobody_alive: bool = False  # everyone is out (Wherewolf's Extermination)
    # a seat rule's own player (`outcome.seats`): dead, or alive, at the end
    self_dead: bool = False
    self_alive: bool = False
    # another player is on the seat rule's player's side (their side's team) -- and
    # one of them died (the Dagger of the Traitor)
    self_mates: bool = False
    mate_dead: bool = False
    won: str = ""  # this team won by the team rules (`outcome.wins`)
    # the team the player's card sides with (`ally`: Nostradamus) won by the team rules
    ally_won: bool = False
    # the vote's epic battle is on: players of `outcome: vote: epic`'s groups hold
    # cards of three or more of them at the end
    epic: bool = False
    # a seat rule's own player voted for a player matching (the Diseased's voters)
    voted: Match | None = None
    # every player matching the first voted for a player matching the second, and
    # there was one (the aliens who all vote for the Leader)
    all_voted: tuple[Match, Match] | None = None
    # a player within the reach of the seat rule's player's card died (`reach`: the
    # Blob's body, the Mortician's neighbours)
    reach_dead: bool = False
    captured: Match | None = None  # a captured player's card matches (Secret Moon)
    # a player in play -- alive, neither arrested nor captured -- has a matching card
    # (Mafia: the infiltrators' aim is every mafioso arrested)
    free: Match | None = None
    revealed: Match | None = None  # a card shown to everyone matches, a centre card too
    all: tuple[Predicate, ...] = ()
    any: tuple[Predicate, ...] = ()
    not_: Predicate | None = None


@dataclass(frozen=True, slots=True)
class WinRule:
    """`team` wins when `when` holds; its players are those whose card is of it."""

    team: str
    when: Predicate
    # True: the win is each player's own -- a player of `team` wins when `when`
    # holds of their own card (the Tanner wins only if he himself dies, not when a
    # Doppelganger who copied him does)
    each: bool = False
    line: int = 0


@dataclass(frozen=True, slots=True)
class SeatRule:
    """A win of one player's own, judged after the team rules, for every player
    whose side (or mark, or artifact) matches `who`: `only` -- they win exactly when
    `when` holds, whatever their team did (Nostradamus, the Apprentice Tanner);
    `also` -- they win when it holds, besides their team (the Assassin); `never` --
    they lose when it holds, even if their team won (the Diseased's voters). A win
    adds `team` to the winning teams (none: only the player is named)."""

    who: Match | None  # None: every player
    kind: Literal["only", "also", "never"]
    when: Predicate
    team: str = ""
    line: int = 0


@dataclass(frozen=True, slots=True)
class Spared:
    """A player matching `who` whom a voter matching `by` (not himself) votes for
    cannot be put to death by the vote (the Master, whom a vampire votes for)."""

    who: Match
    by: Match


@dataclass(frozen=True, slots=True)
class Conversion:
    """A player matching `who` whom a voter matching `by` votes for becomes `to`
    (the Cursed, whom a werewolf votes for, is a werewolf)."""

    who: Match
    by: Match
    to: str


@dataclass(frozen=True, slots=True)
class VoteRule:
    """How a simultaneous vote kills: the most-voted die (all of them on a tie), and
    nobody unless someone has at least `min_votes`."""

    kind: Literal["simultaneous", "accusation_ballot", "none"] = "simultaneous"
    dies: Literal["most"] = "most"
    min_votes: int = 1
    self_vote: bool = False
    # accusation_ballot: who accuses (everyone: the dead too), how many suspects, who
    # votes in the ballot (the living who are not suspects), ties to the player
    # closer to the Tombstone (the last one out) going clockwise; open rounds are
    # told to the table voter by voter
    accusers: Literal["alive", "everyone"] = "alive"
    # count: the `suspects` most accused, ties broken by `tie` (Lupus, Mafia); ranks:
    # the most accused -- all of them when tied, else with every runner-up (Wherewolf)
    suspects: int = 2
    suspects_by: Literal["count", "ranks"] = "count"
    sole_accused_dies: bool = False  # every accusation on one player: no ballot
    # tombstone_clockwise: closer to the last player out, going clockwise (Lupus);
    # last_arrested_nearest: nearer to the last player arrested, either way (Mafia);
    # nobody: a tie in the ballot puts nobody to death (Wherewolf)
    tie: Literal["tombstone_clockwise", "last_arrested_nearest", "nobody"] = "tombstone_clockwise"
    # two players left: the accusation is the only vote, more votes dies (Wherewolf)
    final_two_one_vote: bool = False
    open_accusation: bool = False
    open_ballot: bool = False
    # How long the players' phones keep a vote open before a missing vote abstains
    # (a table pointing with fingers has no window): the simultaneous vote's
    # `seconds`; the accusation's and the ballot's
    seconds: float = 30.0
    accusation_seconds: float = 60.0
    ballot_seconds: float = 30.0
    # The vote's modifiers (a simultaneous vote), each read on a player's card and
    # tokens at the end of the night (`moderator.votes.Modifiers`): votes on a
    # player matching `uncounted` do not count (the Prince); the point of a voter
    # matching `shields` is no vote but a shield -- the player pointed at cannot be
    # put to death by the vote (the Bodyguard); `spared`, likewise when a voter
    # matching `by` votes for them (the Master); when the most voted cannot die, the
    # most voted of the others do (at least `min_votes`). `turns`: who becomes what
    # when voted for (the Cursed).
    uncounted: tuple[Match, ...] = ()
    shields: tuple[Match, ...] = ()
    spared: tuple[Spared, ...] = ()
    turns: tuple[Conversion, ...] = ()
    # when one player matching dies, every other player matching the same dies too,
    # a vote's protection notwithstanding (the Lovers: `{mark: mark_of_love}`)
    together: tuple[Match, ...] = ()
    # the groups of an epic battle: when players of three or more of them are at the
    # table at the end, the most voted and the second most voted die (the Vampire
    # and Alien rulebooks: village, werewolves, vampires, aliens)
    epic: tuple[Match, ...] = ()
    line: int = field(default=0, compare=False)  # of its `kind` (or of `vote:`)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of the game as data: the vote and the ordered win rules."""

    vote: VoteRule
    wins: tuple[WinRule, ...]
    # each player's own win, judged after the team rules, in order
    seats: tuple[SeatRule, ...] = ()
    # at_end: judged once, after the vote (One Night); any_time: after every death,
    # and the first time a rule holds the game ends; day_start: at dawn only, once
    # the night's dead are known (Wherewolf)
    judged: Literal["at_end", "any_time", "day_start"] = "at_end"
    # the game also ends when one of these holds, whoever wins (nobody, perhaps)
    ends: tuple[Predicate, ...] = ()
    # the team that wins when the game's rounds run out with no other end (Secret Moon)
    rounds_out: str = ""
    # two players left and nobody killed in the night: the one lower in this list
    # (highest first; a card matching none is lowest) leaves at dawn (Wherewolf)
    last_two: tuple[Match, ...] = ()
    # the game's own words for a death, with {name}: by night, by the vote
    night_death: Text | None = None
    vote_death: Text | None = None
    line: int = 0
