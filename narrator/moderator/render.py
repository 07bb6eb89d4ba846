"""`narrator replay`'s text: the story of the game, then the winners."""

from __future__ import annotations

from narrator.i18n import gettext
from narrator.moderator.scenario import Replay
from narrator.moderator.words import Words


def replay_text(replay: Replay) -> str:
    data = replay.to_dict()
    game, lang = replay.game, replay.lang
    words = Words(game, lang)

    def t(message: str, **values: object) -> str:
        return gettext(lang, message).format(**values)

    def role(role_id: str) -> str:
        return game.ruleset.role(role_id).name.get(lang)

    out = [f"{game.ruleset.name.get(lang)} · {t('{n} players', n=len(game.seats))}"]
    out.append(t("Dealt:"))
    for name, card in data["dealt"].items():
        out.append(f"  {name}: {role(card)}")
    if data["centre"]["dealt"]:
        centre = words.names([role(c) for c in data["centre"]["dealt"]])
        label = t("centre")  # outside the f-string, where the catalogue's extractor sees it
        out.append(f"  {label}: {centre}")
    out.append(t("What each player did and learned:"))
    for name, lines in data["journal"].items():
        for line in lines:
            out.append(f"  {name} · {line}")
    out.append(t("What the table hears:"))
    out.extend(f"  {line}" for line in data["said"])
    winners = words.names(data["winners"]["players"]) or "-"
    out.append(t("Winners: {names}", names=winners))
    return "\n".join(out)
