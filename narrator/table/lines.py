"""What the voice says at the table, with the players' names, and what a card says.

Our own sentences, in English, Italian and Persian. A ruleset in a language this
table has no sentence for falls back to English for the table's own lines; the
ruleset's texts (role names, teams, its calls) are always in the game's language.
"""

from __future__ import annotations

from collections.abc import Sequence

from narrator.rules import Ruleset
from narrator.rules.model import Turn

LINES: dict[str, dict[str, str]] = {
    "dealt": {
        "en": "The cards are dealt. Press and hold your card to see it, then put the phone down.",
        "it": "Carte distribuite. Tieni premuta la tua carta per vederla, poi posa il telefono.",
        "fa": "کارت‌ها پخش شد. کارت خود را نگه دارید تا ببینید، بعد گوشی را زمین بگذارید.",
    },
    "victims": {
        "en": "Last night {names} left the game.",
        "it": "Questa notte {names} ha lasciato la partita.",
        "fa": "دیشب {names} از بازی بیرون رفت.",
    },
    "no_victims": {
        "en": "Nobody left the game last night.",
        "it": "Questa notte nessuno ha lasciato la partita.",
        "fa": "دیشب کسی از بازی بیرون نرفت.",
    },
    "vote_open": {
        "en": "Vote on your phone now. When the count ends, every vote is shown at once.",
        "it": "Votate ora sul telefono. Alla fine del conto, tutti i voti si vedono insieme.",
        "fa": "حالا با گوشی رأی بدهید. وقتی شمارش تمام شود، همه‌ی رأی‌ها با هم نشان داده می‌شود.",
    },
    "dead": {
        "en": "The votes are in. {names} dies.",
        "it": "I voti sono arrivati. Muore {names}.",
        "fa": "رأی‌ها آمد. {names} می‌میرد.",
    },
    "dead_many": {
        "en": "The votes are in. {names} die.",
        "it": "I voti sono arrivati. Muoiono {names}.",
        "fa": "رأی‌ها آمد. {names} می‌میرند.",
    },
    "nobody_dies": {
        "en": "The votes are in. Nobody has more than one vote: nobody dies.",
        "it": "I voti sono arrivati. Nessuno ha più di un voto: non muore nessuno.",
        "fa": "رأی‌ها آمد. هیچ‌کس بیش از یک رأی ندارد؛ کسی نمی‌میرد.",
    },
    "shot": {
        "en": "The Hunter takes {names} with him.",
        "it": "Il Cacciatore porta con sé {names}.",
        "fa": "شکارچی {names} را هم با خود می‌برد.",
    },
    "card_was": {
        "en": "{name} had the {role}.",
        "it": "{name} aveva: {role}.",
        "fa": "کارت {name}: {role}.",
    },
    "centre": {
        "en": "In the centre: {roles}.",
        "it": "Al centro: {roles}.",
        "fa": "کارت‌های وسط: {roles}.",
    },
    "winners": {
        "en": "The winners: {teams}.",
        "it": "Vincono: {teams}.",
        "fa": "برندگان: {teams}.",
    },
    "no_winners": {
        "en": "Nobody wins this time.",
        "it": "Questa volta non vince nessuno.",
        "fa": "این بار هیچ‌کس نمی‌برد.",
    },
    "accuse": {
        "en": "Accuse on your phone: choose the player you suspect.",
        "it": "Accusate sul telefono: scegliete il giocatore che sospettate.",
        "fa": "با گوشی متهم کنید: کسی را که به او مشکوکید انتخاب کنید.",
    },
    "suspects": {
        "en": "The suspects are {names}. Each may now speak in their defence.",
        "it": "Gli indiziati sono {names}. Ora ognuno può difendersi.",
        "fa": "مظنونان: {names}. حالا هر کدام می‌توانند از خود دفاع کنند.",
    },
    "ballot": {
        "en": "Secret ballot on your phone, between {names}.",
        "it": "Voto segreto sul telefono, tra {names}.",
        "fa": "رأی مخفی با گوشی، میان {names}.",
    },
    "condemned": {
        "en": "By the votes of the village, {names} leaves the game.",
        "it": "Con i voti del villaggio, {names} lascia la partita.",
        "fa": "با رأی جمع، {names} از بازی بیرون می‌رود.",
    },
    "spared": {
        "en": "The votes are tied: nobody leaves the game today.",
        "it": "I voti sono pari: oggi nessuno lascia la partita.",
        "fa": "رأی‌ها برابر است؛ امروز کسی بیرون نمی‌رود.",
    },
    "and": {"en": " and ", "it": " e ", "fa": " و "},
    "at_night": {"en": "At night: ", "it": "Di notte: ", "fa": "در شب: "},
    "sleeps": {
        "en": "You do not wake at night.",
        "it": "Di notte non ti svegli.",
        "fa": "شب بیدار نمی‌شوی.",
    },
    "wakes_with": {
        "en": "You wake with: {role}.",
        "it": "Ti svegli con: {role}.",
        "fa": "با این نقش بیدار می‌شوی: {role}.",
    },
}


def line(key: str, lang: str, **values: str) -> str:
    texts = LINES[key]
    return texts.get(lang, texts["en"]).format(**values)


def join_names(names: Sequence[str], lang: str) -> str:
    """ "Ann, Bo and Cy" in the game's language."""
    if len(names) <= 1:
        return "".join(names)
    sep = "، " if lang == "fa" else ", "
    return sep.join(names[:-1]) + line("and", lang) + names[-1]


def describe(ruleset: Ruleset, role_id: str, lang: str, chosen: frozenset[str]) -> str:
    """What the card's role does, for the back of the card on the phone."""
    role = ruleset.role(role_id)
    parts = []  # the side is shown apart, above this text
    if role.note is not None:
        parts.append(role.note.get(lang))
    if role.wakes_with:
        parts.append(line("wakes_with", lang, role=ruleset.role(role.wakes_with).name.get(lang)))
    elif not role.turns:
        parts.append(line("sleeps", lang))
    else:
        turn = next((t for t in role.turns if t.main), role.turns[0])
        night = turn_night(turn)
        acts = [x.text.get(lang) for x in turn.act if x.when.holds(chosen, night)]
        # A turn with nothing to do but wake (the Masons) is told by its wake call.
        acts = acts or [x.text.get(lang) for x in turn.wake if x.when.holds(chosen, night)]
        if acts:
            parts.append(line("at_night", lang) + " ".join(acts))
    return " ".join(parts)


def turn_night(turn: Turn) -> int:
    """The first night the turn is called on (its act lines are read for that night)."""
    if turn.when.nights:
        return turn.when.nights[0]
    return turn.when.from_night or 1
