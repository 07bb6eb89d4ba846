"""The settings file, however broken: the defaults are used, the bad file is kept
beside as `settings.json.corrupt-<time>`, and one sentence says so. Never a crash."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from narrator.session.config import Settings, SettingsStore

GOOD = b'{"language": "it", "pace": 1.5}'
CASES = {
    "binary": bytes(range(256)) * 4,
    "invalid UTF-8": b'{"language": "it\xff"}',
    "a BOM": b"\xef\xbb\xbf" + GOOD,
    "deep nesting": b"[" * 100_000 + b"]" * 100_000,
    "deep objects": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    "NaN": b'{"pace": NaN}',
    "infinity": b'{"volume": Infinity}',
    "NaN action time": b'{"action_times": {"onuw": {"seer": NaN}}}',
    "out of range": b'{"bed_volume": 7}',
    "rate out of range": b'{"rate": 5000}',
    "a microphone by number": b'{"microphone": 4}',
    "huge": b'{"voice": "' + b"a" * 2_000_000 + b'"}',
    "not an object": b"[1, 2]",
    "empty": b"",
}
WHY = {
    "binary": "it is not UTF-8 text (byte 128)",
    "invalid UTF-8": "it is not UTF-8 text (byte 16)",
    "a BOM": "it starts with a byte-order mark",
    "deep nesting": "it is nested too deeply",
    "deep objects": "it is nested too deeply",
    "NaN": "'pace' must be a number from 0.1 to 10, not nan",
    "infinity": "'volume' must be a number from 0 to 1, not inf",
    "NaN action time": "'action_times' must map ruleset ids to {role: 0 to 600 seconds}",
    "out of range": "'bed_volume' must be a number from 0 to 1, not 7",
    "rate out of range": "'rate' must be a whole number of words a minute from 80 to 400, not 5000",
    "a microphone by number": "'microphone' must be text, not 4",
    "huge": "it is over 1000 kB",
    "not an object": "the file does not hold a JSON object",
    "empty": "Expecting value: line 1 column 1 (char 0)",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_corrupt_file_gives_the_defaults_and_is_kept_aside(tmp_path: Path, case: str) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(CASES[case])
    settings, notice = SettingsStore(path).load()
    assert settings == Settings()
    kept = list(tmp_path.glob("settings.json.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == CASES[case]  # nothing the user saved is lost
    assert not path.exists()
    assert notice == (
        f"Your settings file could not be read ({WHY[case]}). It was kept as {kept[0].name} "
        "and the defaults are used."
    )


def test_a_read_only_config_folder_is_reported_not_a_crash(read_only_folder: Path) -> None:
    store = SettingsStore(read_only_folder / "settings.json")
    settings, notice = store.load()
    assert settings == Settings()
    assert notice is not None and "nor moved aside" in notice and "left as it is" in notice
    assert (read_only_folder / "settings.json").read_bytes() == b"{oops"
    with pytest.raises(OSError) as refused:  # the app shows it (tests/tui/test_app.py)
        store.save(Settings(language="it"))
    assert str(refused.value).startswith(f"cannot write {read_only_folder / 'settings.json'} (")
    assert (read_only_folder / "settings.json").read_bytes() == b"{oops"  # as it was
    assert sorted(p.name for p in read_only_folder.iterdir()) == ["settings.json"]


def test_settings_are_saved_whole_private_and_never_through_a_planted_link(
    tmp_path: Path,
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    path = tmp_path / "config" / "settings.json"
    path.parent.mkdir()
    (path.parent / "settings.json.tmp").symlink_to(victim)  # the old, guessable temp name
    store = SettingsStore(path)
    store.save(Settings(language="it", microphone="USB headset"))
    assert victim.read_text(encoding="utf-8") == "precious"
    assert store.load() == (Settings(language="it", microphone="USB headset"), None)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json", "settings.json.tmp"]


def test_the_sounds_defaults_are_the_audio_layers() -> None:
    """One default per setting: the session (which imports no narrator.audio) keeps
    the same defaults as AudioSettings, and audio_settings() of fresh settings gives
    exactly the audio layer's defaults."""
    from narrator.audio.settings import AudioSettings
    from narrator.session import Settings
    from narrator.session.config import audio_settings

    assert audio_settings(Settings()) == AudioSettings()
