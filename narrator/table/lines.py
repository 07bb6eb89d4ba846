"""What the voice says at the table, with the players' names, and what a card says.

Our own sentences, with the phone page's words, in the app's gettext catalogues
(`narrator.i18n`; English, Italian and Persian): one set of words for the app, the
voice at the table and the phones. A language without a catalogue falls back to
English; the ruleset's texts (role names, teams, its calls) are always in the
game's language.
"""

from __future__ import annotations

from collections.abc import Sequence

from narrator.i18n import N_, gettext
from narrator.rules import Ruleset
from narrator.rules.model import Turn

LINES: dict[str, str] = {
    "dealt": N_(
        "The cards are dealt. Press and hold your card to see it, then put the phone down."
    ),
    "victims": N_("Last night {names} left the game."),
    "no_victims": N_("Nobody left the game last night."),
    "out": N_("{names} leaves the game."),
    "left_table": N_("{names} has left the table, and is out of the game."),
    "vote_open": N_("Vote on your phone now. When the count ends, every vote is shown at once."),
    "dead": N_("The votes are in. {names} dies."),
    "dead_many": N_("The votes are in. {names} die."),
    "nobody_dies": N_("The votes are in. Nobody has more than one vote: nobody dies."),
    "card_was": N_("{name} had the {role}."),
    "centre": N_("In the centre: {roles}."),
    "winners": N_("The winners: {teams}."),
    "no_winners": N_("Nobody wins this time."),
    "accuse": N_("Accuse on your phone: choose the player you suspect."),
    "suspects": N_("The suspects are {names}. Each may now speak in their defence."),
    "suspect": N_("The suspect is {names}, who may now speak in their defence."),
    "ballot": N_("Secret ballot on your phone, between {names}."),
    "condemned": N_("By the vote, {names} leaves the game."),
    "turn_over": N_(
        "Turn over the cards of the dead. A card that acts when it dies acts now: every vote is on your phones."  # noqa: E501
    ),
    "ballot_open": N_("Ballot on your phone, between {names}. Every vote will be told."),
    "accuses": N_("{name} accuses {who}."),
    "votes_for": N_("{name} votes against {who}."),
    "spared": N_("The votes are tied: nobody leaves the game today."),
    "and": N_(" and "),
    "at_night": N_("At night: "),
    "sleeps": N_("You do not wake at night."),
    "wakes_with": N_("You wake with: {role}."),
}

# The phone page's own words (`GET /api/words`): the same catalogues as the app.
PAGE: dict[str, str] = {
    "room": N_("Room code"),
    "name": N_("Your name"),
    "nameLong": N_("This name is {n} characters long as the table writes it; use at most {max}."),
    "join": N_("Join"),
    "hold": N_("Press and hold to see your card"),
    "seat": N_("Seat"),
    "lobby": N_("Waiting for the host to deal"),
    "cards": N_("Look at your card"),
    "cardsHint": N_("Hold it hidden from your neighbours, then put the phone down."),
    "night": N_("Night"),
    "nightHint": N_(
        "At every call everyone answers the prompt on their phone, called or not: "
        "nobody can tell who was called."
    ),
    "day": N_("Day"),
    "dayHint": N_("Talk it over."),
    "vote": N_("Vote"),
    "voteHint": N_("Choose a player. Every vote shows at once when the count ends."),
    "accusation": N_("Accusation"),
    "accusationHint": N_("Choose the player you accuse."),
    "accusationHintTold": N_(
        "Choose the player you accuse. When the count ends, the voice reads every accusation aloud."
    ),
    "defence": N_("Defence"),
    "defenceHint": N_("The suspects speak: "),
    "ballot": N_("Secret ballot"),
    "ballotHint": N_("Choose one suspect. Nobody sees your vote."),
    "ballotTold": N_("Ballot"),
    "ballotHintTold": N_(
        "Choose one suspect. When the count ends, the voice reads every vote aloud."
    ),
    "verdict": N_("The verdict"),
    "end": N_("The end"),
    "noVote": N_("You have no vote in this round."),
    "yourVote": N_("Your vote: "),
    "canChange": N_(" (you may change it until the count ends)"),
    "ghost": N_("You are out of the game. Do not speak, and keep your card secret."),
    "out": N_("out"),
    "winners": N_("Winners: "),
    "nobodyWins": N_("Nobody wins."),
    "centre": N_("Centre: "),
    "aside": N_("Set aside, unseen: "),
    "offline": N_("Connection lost; trying again…"),
    "voted": N_("voted"),
    "done": N_("Done"),
    "nothing": N_("Nothing"),
    # what every phone shows once it has answered, until the call ends: what it
    # learned, or what it chose (a decoy's answer shows as an answer too)
    "chose": N_("You chose: "),
    "choseNothing": N_("You chose nothing."),
    "sealed": N_("The table restarted. The game goes on when one more player opens this page."),
    "picksOf": N_("Your group: "),
    "journal": N_("Press and hold: your journal"),
    "dealt": N_("Dealt: "),
    "deck": N_("In the game: "),
    "turn": N_("Your turn card called? Choose your action:"),
    "centreCard": N_("Centre card "),
    "send": N_("Play it"),
    "round": N_("Round "),
    # a phone that lost its token asks the host for its seat (issue 16)
    "claimOpen": N_("Lost your seat? Ask the host for it"),
    "claimPick": N_("Which seat is yours? The host will confirm."),
    "claimWait": N_("Show the host this code: "),
    "claimWaiting": N_("Waiting for the host to give you the seat…"),
    "claimRefused": N_("The host did not give you that seat."),
    # the end and the last vote on each phone (review P11, P5)
    "youWon": N_("You won."),
    "youLost": N_("You lost."),
    "removedCards": N_("Removed unseen: "),
    "votesFor": N_("Votes: "),
    "counts": N_("Counts: "),
    # lists as the language writes them: its comma, and an arrow that points the
    # way the line reads (right to left in Persian)
    "list": N_("{a}, {b}"),
    "votedFor": N_("{voter} → {target}"),
}


# The host page's words (issue 16), served like the phone page's; the page fills in
# the {name}-style values. `phase_*` names each phase, `hint_*` says what comes next.
HOST: dict[str, str] = {
    "room": N_("Room "),
    "joinHint": N_("Phones join here (scan, or type the address):"),
    "lock": N_("Lock the table (no more joins)"),
    "unlock": N_("Locked: press to let players join again"),
    "orderHint": N_(
        "Sit round the table, then put the seats in that order, clockwise "
        "(↑ ↓): ties are broken going round."
    ),
    "deal": N_("Deal the cards to the phones (untick: physical cards, the phones only vote)"),
    "start": N_("Deal and start"),
    "next": N_("Go on"),
    "end": N_("End the game"),
    "endConfirm": N_("End the game now? Every card will be shown to everyone."),
    "again": N_("Play again (same room, phones and seats)"),
    "outLabel": N_("Left the game (by night, or left the table):"),
    "out": N_("Mark as out"),
    "outLabelTable": N_("Left the table (the voice says so; the cards on the phones):"),
    "outConfirm": N_("Mark {name} as out of the game? This cannot be undone."),
    "outConfirmTable": N_(
        "{name} has left the table? They are out of the game, and the voice says so. "
        "This cannot be undone."
    ),
    "physical": N_(" (physical cards only)"),
    "up": N_("Move up"),
    "down": N_("Move down"),
    "remove": N_("Remove"),
    "removeConfirm": N_("Remove {name} from the table?"),
    "cards": N_("{n} cards: {dealt} dealt"),
    "aside": N_(" + {n} in the centre, face down"),
    "removed": N_(" + {n} removed unseen"),
    "recommended": N_(" (the recommended deck)"),
    "players": N_("{n} players"),
    "needPlayers": N_("this game is for {min} to {max} players"),
    "sealed": N_(
        "The table restarted and its cards are sealed: the game goes on once two players "
        "open the table's page on their phones (still needed: {n}). This page does not count."
    ),
    "claim": N_("A phone asks for {name}'s seat (seat {seat}). Its screen shows the code {code}."),
    "confirm": N_("Give the seat"),
    "refuse": N_("Refuse"),
    "voted": N_("{n} / {m} voted"),
    "out_": N_("out"),
    "nobody": N_("nobody"),
    "votesFor": N_("Votes: "),
    "counts": N_("Counts: "),
    "suspects": N_("Suspects: "),
    "dies": N_("Leaves the game: "),
    "shot": N_("Also out (taken along): "),
    "lastVote": N_("The last vote"),
    "voice": N_("Voice: "),
    "offline": N_("Connection lost; trying again…"),
    "badLink": N_(
        "This host link is no longer valid (the table was restarted): "
        "open the host URL the table printed."
    ),
    "phase_lobby": N_("Waiting for players"),
    "phase_cards": N_("Everyone looks at their card"),
    "phase_night": N_("Night {night}"),
    "phase_day": N_("Day {night}"),
    "phase_vote": N_("The vote"),
    "phase_accusation": N_("The accusation"),
    "phase_defence": N_("The defence"),
    "phase_ballot": N_("The secret ballot"),
    "phase_ballotTold": N_("The ballot"),
    "phase_verdict": N_("The verdict"),
    "phase_end": N_("The end"),
    "hint_lobby": N_("When everyone has joined: the sitting order, the deck, then Deal and start."),
    "hint_cards": N_("Next: the night. Press Go on when every card has been seen."),
    "hint_night": N_(
        "The voice calls the night; the day comes by itself when it has been heard "
        "(Go on ends it early)."
    ),
    "hint_dayVote": N_("Next: the vote, when the timer ends (or Go on)."),
    "hint_dayTrial": N_("Next: the accusation, when the timer ends (or Go on)."),
    "hint_dayRounds": N_("Round {round}. Next: the next round (Go on)."),
    "hint_dayEnd": N_("Next: the end (Go on)."),
    "hint_vote": N_(
        "Every vote shows at once when all have voted or the time is up. Next: the end."
    ),
    "hint_accusation": N_("Every player chooses whom to accuse. Next: the suspects' defence."),
    "hint_defence": N_("The suspects speak. Next: the ballot (Go on when they are done)."),
    "hint_ballot": N_("Next: the verdict."),
    "hint_verdict": N_("Next: night {next} (Go on)."),
    "hint_end": N_("Play again keeps the room, the phones and the seats."),
    # the end: every card, as the phones show it
    "cardsEnd": N_("The cards"),
    "dealt": N_("Dealt: "),
    "centreCards": N_("Centre: "),
    "asideCards": N_("Set aside, unseen: "),
    "removedCards": N_("Removed unseen: "),
    "winners": N_("Winners: "),
    "nobodyWins": N_("Nobody wins."),
    "list": N_("{a}, {b}"),
    "votedFor": N_("{voter} → {target}"),
}


def host_words(lang: str) -> dict[str, str]:
    """Every word of the host page in `lang` (English where a catalogue lacks one)."""
    return {key: gettext(lang, text) for key, text in HOST.items()}


def line(key: str, lang: str, **values: str) -> str:
    return gettext(lang, LINES[key]).format(**values)


def taken_along(ruleset: Ruleset, lang: str, names: str, phones: bool = False) -> str:
    """The players a death took along (One Night's Hunter), in the ruleset's words for
    it (a role's `on_death_line`, in its phones' words when the cards are on the
    phones); when the roles whose death acts say it differently, or not at all, the
    plain line that they leave the game."""
    said = {r.powers.on_death_line for r in ruleset.roles if r.powers and r.powers.on_death}
    own = said.pop() if len(said) == 1 else None
    if own is None:
        return line("out", lang, names=names)
    return own.get(lang, phones=phones).replace("{names}", names)


def page_words(lang: str) -> dict[str, str]:
    """Every word of the phone page in `lang` (English where a catalogue lacks one)."""
    return {key: gettext(lang, text) for key, text in PAGE.items()}


def join_names(names: Sequence[str], lang: str) -> str:
    """ "Ann, Bo and Cy" in the game's language."""
    if len(names) <= 1:
        return "".join(names)
    sep = "، " if lang == "fa" else ", "
    return sep.join(names[:-1]) + line("and", lang) + names[-1]


def describe(ruleset: Ruleset, role_id: str, lang: str, chosen: frozenset[str]) -> str:
    """What the card's role does, for the back of the card on the phone: the
    ruleset's words for a table whose cards are on the phones (`Text.phones`)."""
    role = ruleset.role(role_id)
    parts = []  # the side is shown apart, above this text
    if role.note is not None:
        parts.append(role.note.get(lang, phones=True))
    if role.card is not None:  # the ruleset says what the card does, in its own words
        parts.append(role.card.get(lang, phones=True))
    elif role.wakes_with:
        parts.append(line("wakes_with", lang, role=ruleset.role(role.wakes_with).name.get(lang)))
    elif not role.turns:
        parts.append(line("sleeps", lang))
    else:
        turn = next((t for t in role.turns if t.main), role.turns[0])
        night = turn_night(turn)
        said = [x.text.get(lang, phones=True) for x in turn.act if x.when.holds(chosen, night)]
        # A turn with nothing to do but wake (the Masons) is told by its wake call.
        acts = said or [
            x.text.get(lang, phones=True) for x in turn.wake if x.when.holds(chosen, night)
        ]
        if acts:
            parts.append(line("at_night", lang) + " ".join(acts))
    return " ".join(parts)


def turn_night(turn: Turn) -> int:
    """The first night the turn is called on (its act lines are read for that night)."""
    if turn.when.nights:
        return turn.when.nights[0]
    return turn.when.from_night or 1
