"""The `narrator` command line: the one place that wires rules, script, audio and app.

The output formats are a contract (other tools drive them): see README.md. Exit 0 on
success, 2 on bad input (one line on stderr: what, where, how to fix), 3 when a
sound part is missing or the sound output fails during `play`. Never a traceback.
Audio, Textual, and the rules and script builder under them, are imported only by the
commands that need them: `narrator script` starts in milliseconds, and the app's first
frame (`narrator` alone) waits for no ruleset (issue 18).
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import random
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from narrator import __version__, logfile
from narrator.base.errors import (
    EXIT_AUDIO,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    MissingPart,
    NarratorError,
    one_line,
)
from narrator.rules.errors import RulesetError
from narrator.script.defaults import PACE, PACE_RANGE, WAKE_GAP

if TYPE_CHECKING:
    from narrator.audio import AudioSettings
    from narrator.rules import Ruleset
    from narrator.rules.catalog import Catalog
    from narrator.script import Script

RATES = (80, 400)  # words a minute: slower drags, faster cannot be followed eyes closed
_PACES = "{:g} to {:g}".format(*PACE_RANGE)


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line and exit 2, like every other mistake."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_INPUT, one_line(f"{self.prog}: {message} (see {self.prog} --help)") + "\n")


def _between(kind: type[float] | type[int], low: float, high: float) -> Any:
    """An argparse type: a finite `kind` from `low` to `high` (NaN and inf refused)."""

    def shown(bound: float) -> str:
        return f"{bound:g}" if kind is float else str(int(bound))

    def parse(text: str) -> float | int:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
        if not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{text} is out of range; choose {shown(low)} to {shown(high)}"
            )
        return value

    return parse


def _fmt(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("text", "json"), default="text")


def _game_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset", help="ruleset id (see: narrator rulesets)")
    parser.add_argument("--players", type=int, required=True, metavar="N")
    parser.add_argument(
        "--roles", metavar="ID[:COUNT],...", help="the chosen roles; default: the recommended deck"
    )
    parser.add_argument("--night", type=int, default=1, metavar="K")
    parser.add_argument("--phase", choices=("night", "day"), default="night")
    parser.add_argument(
        "--lang", help="en, it, fa (per ruleset); default: this machine's (LANG), else en"
    )
    parser.add_argument(
        "--pace",
        type=_between(float, *PACE_RANGE),
        default=PACE,
        help=f"scale every silence of the night (1 = as written; {_PACES})",
    )
    parser.add_argument(
        "--box", help="with no --roles: the recommended deck of this box (see: narrator roles)"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME[=VALUE]",
        help="a ruleset option, as in terse or lone_wolf=off or role_timer=20 (repeatable)",
    )
    parser.add_argument(
        "--seed",
        type=_between(int, 0, 2**63 - 1),
        metavar="N",
        help="what random choices are drawn from (same seed, same night); default: a fresh one",
    )
    parser.add_argument(
        "--wake-gap",
        type=float,
        default=WAKE_GAP,
        metavar="S",
        help="silence after a wake call before its instruction (scaled by pace)",
    )


def _audio_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--voice", help="voice id or name (see: narrator voices)")
    parser.add_argument(
        "--rate",
        type=_between(int, *RATES),
        metavar="WPM",
        help=f"speaking rate, words a minute ({RATES[0]} to {RATES[1]})",
    )
    parser.add_argument("--no-bed", action="store_true", help="no bed under the night")
    parser.add_argument("--bed", metavar="NAME", help="the bed's ambience (see: narrator beds)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="narrator",
        description="A voice that calls the night for social "
        "deduction games. With no command, starts the app.",
    )
    parser.add_argument("--version", action="version", version=f"narrator {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("rulesets", help="list the game systems")
    _fmt(p)
    p = sub.add_parser("roles", help="list a ruleset's roles")
    p.add_argument("ruleset")
    _fmt(p)
    p = sub.add_parser("setup", help="the recommended deck for a number of players")
    p.add_argument("ruleset")
    p.add_argument("--players", type=int, required=True, metavar="N")
    p.add_argument("--box", help="the recommended deck of this box")
    p.add_argument(
        "--random",
        metavar="BOX,...",
        help="a random deck drawn only from these boxes ('all' for every box)",
    )
    p.add_argument("--seed", type=_between(int, 0, 2**63 - 1), metavar="N")
    _fmt(p)
    p = sub.add_parser("script", help="show the script of a night or a day")
    _game_options(p)
    _fmt(p)
    p = sub.add_parser("check", help="validate ruleset files")
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    p = sub.add_parser("render", help="render a night to a sound file")
    _game_options(p)
    _audio_options(p)
    p.add_argument(
        "--out", type=Path, required=True, metavar="FILE", help=".wav, .flac, .ogg or .mp3"
    )
    p.add_argument("--timeline", type=Path, metavar="FILE.json")
    p = sub.add_parser(
        "prepare",
        help="make a night's calls (and its day's) ahead, so that none is ever late",
    )
    _game_options(p)
    _audio_options(p)
    p.set_defaults(phase=None)  # without --phase: the night and its day
    p = sub.add_parser("play", help="play a night on the speaker")
    _game_options(p)
    _audio_options(p)
    p.add_argument("--device", help="output device name or index (see: narrator devices)")
    p = sub.add_parser("voices", help="list the speech voices")
    p.add_argument("--lang")
    _fmt(p)
    p = sub.add_parser("devices", help="list the sound output devices (or the microphones)")
    p.add_argument(
        "--microphones", action="store_true", help="the devices that record (for voice packs)"
    )
    _fmt(p)
    p = sub.add_parser("beds", help="list the ambiences the bed can play")
    _fmt(p)
    _table_options(sub.add_parser("table", help="deal and vote on the players' phones"))
    _voicepack_options(sub.add_parser("voicepack", help="voice packs: export, import, delete"))
    p = sub.add_parser("replay", help="resolve a written or saved game again: story and winners")
    p.add_argument("file", type=Path, metavar="FILE", help="a scenario (.yaml; see docs/ENGINE.md)")
    _fmt(p)
    return parser


def _voicepack_options(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(
        dest="action", metavar="ACTION", parser_class=_Parser, required=True
    )
    p = actions.add_parser("export", help="write an installed voice pack to a zip file")
    p.add_argument("name", help="the pack's id, as `narrator voices` lists it (pack:ID or ID)")
    p.add_argument("file", type=Path, metavar="FILE.zip")
    p = actions.add_parser("import", help="install a voice pack from a zip file")
    p.add_argument("file", type=Path, metavar="FILE.zip")
    p.add_argument("--replace", action="store_true", help="replace a pack of the same id")
    p = actions.add_parser("delete", help="remove an installed voice pack")
    p.add_argument("name", help="the pack's id, as `narrator voices` lists it (pack:ID or ID)")


def cmd_voicepack(args: argparse.Namespace) -> int:
    """`narrator voicepack export NAME FILE.zip` / `import FILE.zip` / `delete NAME`: a
    bad pack is one line and exit 2 (a PackError), and nothing is written."""
    from narrator.audio.packzip import export_pack, import_pack
    from narrator.audio.voicepack import delete_pack, pack_of

    if args.action == "delete":
        manifest = delete_pack(pack_of(args.name) or args.name)
        print(f"deleted {manifest.voice} ('{manifest.name}', {len(manifest.lines)} lines)")
        return EXIT_OK
    if args.action == "export":
        manifest = export_pack(pack_of(args.name) or args.name, args.file)
        print(f"exported {manifest.voice} ({len(manifest.lines)} lines) to {args.file}")
        return EXIT_OK
    manifest = import_pack(args.file, replace=args.replace)
    print(
        f"installed '{manifest.name}' as {manifest.voice}: {len(manifest.lines)} lines of "
        f"{manifest.game} in {manifest.language}; choose it with --voice {manifest.voice} "
        "or in the app's settings"
    )
    return EXIT_OK


def _table_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset", help="ruleset id (see: narrator rulesets)")
    parser.add_argument(
        "--lang", help="en, it, fa (per ruleset); default: this machine's (LANG), else en"
    )
    parser.add_argument(
        "--host", metavar="ADDRESS", help="interface to serve on (default: the local network's)"
    )
    parser.add_argument(
        "--port", type=_between(int, 0, 65535), default=8765, help="0 = any free port"
    )
    parser.add_argument("--no-audio", action="store_true", help="no voice (a silent table)")
    parser.add_argument(
        "--pace",
        type=_between(float, *PACE_RANGE),
        default=None,
        help=f"scale every silence of the night ({_PACES}; default: your settings')",
    )
    parser.add_argument("--game", type=Path, metavar="FILE", help="the saved game file")
    parser.add_argument("--resume", action="store_true", help="resume the game saved in --game")
    parser.add_argument(
        "--rate-limit",
        type=_rate,
        default=(20.0, 60.0),
        metavar="RATE/BURST",
        help="requests per second and at once, per address (default 20/60)",
    )


def _rate(text: str) -> tuple[float, float]:
    rate, _, burst = text.partition("/")
    try:
        pair = float(rate), float(burst or rate)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not RATE/BURST, as in 20/60") from None
    if not all(0 < x < RATE_LIMIT_MOST for x in pair):  # NaN too: no comparison holds
        raise argparse.ArgumentTypeError(
            f"'{text}': both numbers must be above 0 and below {RATE_LIMIT_MOST:,.0f}"
        )
    return pair


RATE_LIMIT_MOST = 1e6  # requests a second or at once: more is no limit at all


# -- commands -------------------------------------------------------------------


def _print_json(value: Any) -> None:
    print(json.dumps(value, ensure_ascii=False, indent=2))


def cmd_rulesets(args: argparse.Namespace, catalog: Catalog) -> int:
    rows: list[dict[str, Any]] = [
        {
            "id": r.id,
            "name": r.name.get("en"),
            "players": [r.setup.min_players, r.setup.max_players],
            "languages": list(r.languages),
            "nights": r.nights if r.nights is not None else "many",
            "source": "user" if r.id in catalog.user_ids else "shipped",
        }
        for r in sorted(catalog.rulesets.values(), key=lambda r: r.id)
    ]
    broken = [{"path": str(e.path), "error": str(e)} for e in catalog.broken]
    if args.format == "json":
        _print_json({"rulesets": rows, "broken": broken})
        return EXIT_OK
    for row in rows:
        players = "{}-{}".format(*row["players"])
        langs = ",".join(row["languages"])
        mark = " (yours)" if row["source"] == "user" else ""
        print(f"{row['id']:<20} {row['name']}{mark}  [{players} players; {langs}]")
    for item in broken:
        print(f"broken: {item['error']}")
    return EXIT_OK


def cmd_roles(args: argparse.Namespace, catalog: Catalog) -> int:
    from narrator.rules.listing import nights_text, role_rows

    ruleset = catalog.get(args.ruleset)
    rows = role_rows(ruleset)
    if args.format == "json":
        _print_json({"ruleset": ruleset.id, "roles": rows})
        return EXIT_OK
    for team_id, team_name in ruleset.teams:
        members = [row for row in rows if row["team"] == team_id]
        if not members:
            continue
        print(f"{team_name.get('en')}:")
        for row in members:
            nights = nights_text((row["from_night"], row["until_night"]))
            print(
                f"  {row['id']:<16} {row['name']['en']:<22} max {row['max']}  "
                f"wakes: {nights} ({row['wakes']})"
            )
    return EXIT_OK


def cmd_setup(args: argparse.Namespace, catalog: Catalog) -> int:
    from narrator.rules.decks import dealing, describe_dealing
    from narrator.rules.draw import random_deck, tokens_needed
    from narrator.rules.selection import recommended

    ruleset = catalog.get(args.ruleset)
    if args.random is not None:
        boxes = tuple(b.strip() for b in args.random.split(",") if b.strip() not in ("", "all"))
        seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
        roles, discard = random_deck(ruleset, args.players, boxes, random.Random(seed)), 0
    else:
        roles, discard = recommended(ruleset, args.players, args.box)
    tokens = tokens_needed(ruleset, roles)
    deal = dealing(ruleset, args.players, roles)
    if args.format == "json":
        out: dict[str, Any] = {
            "ruleset": ruleset.id,
            "players": args.players,
            "roles": dict(roles),
            "discard": discard,
            "dealt": deal.dealt,
            "aside": deal.aside,
            "tokens": dict(tokens),
        }
        if deal.discard_from:
            out["discard_from"] = list(deal.discard_from)
        _print_json(out)
        return EXIT_OK
    print(f"{ruleset.name.get('en')}, {args.players} players: {sum(n for _, n in roles)} cards")
    for role_id, count in roles:
        print(f"  {count} x {ruleset.role(role_id).name.get('en')} ({role_id})")
    print(describe_dealing(ruleset, deal, roles))
    names = {t.id: t.name.get("en") for t in ruleset.tokens}
    if tokens:
        print("tokens: " + ", ".join(f"{n} x {names[t]}" for t, n in tokens))
    return EXIT_OK


def script_from_args(args: argparse.Namespace, catalog: Catalog) -> tuple[Ruleset, Script]:
    from narrator import compose

    ruleset = catalog.get(args.ruleset)
    script = compose.night_script(
        ruleset,
        players=args.players,
        roles=args.roles,
        box=args.box,
        night=args.night,
        lang=args.lang,
        phase=args.phase,
        pace=args.pace,
        wake_gap=args.wake_gap,
        options=args.option,
        seed=args.seed,
    )
    return ruleset, script


def cmd_script(args: argparse.Namespace, catalog: Catalog) -> int:
    from narrator.script import script_to_dict
    from narrator.script.render_text import render_text

    ruleset, script = script_from_args(args, catalog)
    if args.format == "json":
        _print_json(script_to_dict(script))
    else:
        print(render_text(script, ruleset.name.get(script.lang)))
    return EXIT_OK


def cmd_replay(args: argparse.Namespace) -> int:
    """A game resolved again by the engine: the story, the deaths, the winners."""
    from narrator.moderator import ScenarioError, load, run
    from narrator.moderator.render import replay_text
    from narrator.rules.catalog import load_catalog
    from narrator.rules.loader import read_small_file

    try:
        text = read_small_file(args.file, "a scenario file").decode("utf-8")
    except UnicodeDecodeError:
        raise ScenarioError(f"{args.file}: not UTF-8 text; save it as UTF-8") from None
    except OSError as exc:
        raise ScenarioError(f"{args.file}: cannot read the file ({exc.strerror})") from None
    except RulesetError as exc:  # a folder, a FIFO, a huge file
        raise ScenarioError(f"{args.file}: {exc.message}") from None
    try:
        replay = run(load(text), lambda ruleset_id: load_catalog(only=ruleset_id).get(ruleset_id))
    except ScenarioError as exc:
        raise ScenarioError(f"{args.file}: {exc}") from None
    if args.format == "json":
        _print_json(replay.to_dict())
    else:
        print(replay_text(replay))
    return EXIT_OK


def cmd_check(args: argparse.Namespace) -> int:
    from narrator.rules.loader import load_ruleset

    failed = 0
    for path in args.paths:
        try:
            ruleset = load_ruleset(path)
        except RulesetError as exc:
            print(f"narrator: {exc}", file=sys.stderr)
            failed += 1
            continue
        decks = len(ruleset.setup.decks)
        print(
            f"ok {path}: '{ruleset.id}', {len(ruleset.roles)} roles, "
            f"{len(ruleset.languages)} languages, {decks} recommended deck(s)"
        )
    return EXIT_INPUT if failed else EXIT_OK


def cmd_prepare(args: argparse.Namespace, catalog: Catalog) -> int:
    """The calls of night K and of its day, as `render` selects them (`--phase` chooses
    one of the two), made into the speech cache."""
    from narrator.audio import commands

    phases = [args.phase] if args.phase else ["night", "day"]
    scripts = [
        script_from_args(argparse.Namespace(**{**vars(args), "phase": phase}), catalog)[1]
        for phase in phases
    ]
    return commands.prepare_command(scripts, settings=_audio_settings(args))


def _audio_settings(args: argparse.Namespace) -> AudioSettings:
    from narrator import compose

    return compose.audio_settings(
        voice=args.voice,
        rate=args.rate,
        bed=not args.no_bed,
        ambience=args.bed,
        device=getattr(args, "device", None),
    )


def cmd_table(args: argparse.Namespace, catalog: Catalog) -> int:
    from narrator import compose
    from narrator.table import run

    ruleset = catalog.get(args.ruleset)
    table, path, voice = compose.command_table(
        ruleset,
        args.lang or compose.machine_language(ruleset),
        args.game,
        resume=args.resume,
        pace=args.pace,
        silent=args.no_audio,
        warn=lambda line: print(line, file=sys.stderr),
    )
    return run.run_table(
        table, voice, host=args.host, port=args.port, save_path=path, rate=args.rate_limit
    )


# The commands that load PortAudio, whose own messages (and ALSA's) must not reach the
# terminal as raw lines: they go to a log, and our one-line errors stay on stderr.
NATIVE_AUDIO = ("play", "devices", "table", None)


def run_command(args: argparse.Namespace) -> int:
    if args.command == "check":
        return cmd_check(args)
    if args.command in ("voices", "devices", "beds"):
        from narrator.audio import commands

        if args.command == "beds":
            return commands.beds_command(args.format)
        if args.command == "voices":
            return commands.voices_command(args.lang, args.format)
        return commands.devices_command(args.format, "input" if args.microphones else "output")
    if args.command == "replay":
        return cmd_replay(args)
    if args.command == "voicepack":
        return cmd_voicepack(args)
    from narrator.rules.catalog import load_catalog

    # A command about one game parses only that game's ruleset (and the user's copy).
    catalog = load_catalog(only=getattr(args, "ruleset", None))
    if args.command == "rulesets":
        return cmd_rulesets(args, catalog)
    if args.command == "roles":
        return cmd_roles(args, catalog)
    if args.command == "setup":
        return cmd_setup(args, catalog)
    if args.command == "script":
        return cmd_script(args, catalog)
    if args.command == "table":
        return cmd_table(args, catalog)
    if args.command == "prepare":
        return cmd_prepare(args, catalog)
    _, script = script_from_args(args, catalog)
    from narrator.audio import commands

    if args.command == "render":
        return commands.render_command(
            script, out=args.out, timeline=args.timeline, settings=_audio_settings(args)
        )
    return commands.play_command(script, settings=_audio_settings(args))


def run_app() -> int:
    try:
        import textual  # noqa: F401  (a broken install: Textual missing)
    except ImportError as exc:
        raise MissingPart(f"the app cannot start ({exc}); reinstall it with: scripts/run") from exc
    from narrator import compose

    return compose.run_app()


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logfile.setup()
    try:
        if args.command in NATIVE_AUDIO:
            from narrator.audio.devices import route_native_messages

            route_native_messages()
        if args.command is None:
            return run_app()
        return run_command(args)
    except NarratorError as exc:
        print(one_line(f"narrator: {exc}"), file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("narrator: stopped", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        sys.stderr.close()  # `narrator script ... | head` is not an error
        return EXIT_OK
    except MissingPart as exc:
        print(one_line(f"narrator: {exc}"), file=sys.stderr)
        return EXIT_AUDIO
    except Exception as exc:
        logging.getLogger("narrator.cli").exception("internal error in %s", args.command)
        if os.environ.get("NARRATOR_DEBUG"):
            raise
        print(
            one_line(
                f"narrator: internal error ({type(exc).__name__}: {exc}); please report it, "
                "with NARRATOR_DEBUG=1 for the details"
            ),
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
