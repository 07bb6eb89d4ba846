"""The mixer, the bed and the feeder, with a fake synthesizer: pure and fast."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from narrator.audio import AudioEngine, AudioSettings
from narrator.audio.bed import NightBed, TapBed, load_knocks
from narrator.audio.mixer import (
    BED_LEVEL,
    DUCK,
    DUCK_ATTACK,
    FADE_IN,
    GAP,
    LEAD_IN,
    SAMPLE_RATE,
    TAIL,
    MixBuilder,
)
from narrator.audio.player import Feeder
from narrator.audio.synth import Clip, Utterance
from narrator.script.model import (
    Pause,
    Say,
    Timer,
    TimerWarning,
    Wait,
    script_from_dict,
    script_to_dict,
)
from tests.support.fake_synth import FakeSynth, night, sample_night
from tests.support.sound import render_in_chunks


@pytest.fixture
def engine(tmp_path: Path) -> AudioEngine:
    return AudioEngine(AudioSettings(), cache_dir=tmp_path, synthesizer=FakeSynth())


def test_every_pause_is_exact_to_the_sample(engine: AudioEngine) -> None:
    script = sample_night()
    timeline = engine.render(script)
    pauses = [e for e in timeline.events if e.kind == "pause"]
    assert [e.end - e.start for e in pauses] == [
        round(s.seconds * SAMPLE_RATE) for s in script.steps if isinstance(s, Pause)
    ]
    # A pause starts where the call before it ends and ends where the next begins.
    for pause in pauses:
        before = [e for e in timeline.events if e.end == pause.start and e.kind == "say"]
        after = [e for e in timeline.events if e.start == pause.end]
        assert before and after


def test_one_event_per_sounding_step_in_order(engine: AudioEngine) -> None:
    script = sample_night()
    timeline = engine.render(script)
    assert [(e.kind, e.step) for e in timeline.events] == [
        (s.kind, i) for i, s in enumerate(script.steps)
    ]
    starts = [e.start for e in timeline.events]
    assert starts == sorted(starts)
    out = timeline.to_dict()
    # the voice it was spoken in: tests/audio/test_packaged_voices.py names it
    assert set(out) == {"sample_rate", "duration", "events", "voice"}
    assert out["events"][0] == {
        "kind": "say",
        "step": 0,
        "role": None,
        "text": "Everyone, close your eyes.",
        "start": LEAD_IN,
        "end": timeline.events[0].end / SAMPLE_RATE,
    }
    json.dumps(out)


def test_calls_that_follow_each_other_get_one_breath(engine: AudioEngine) -> None:
    timeline = engine.render(night(Say("One."), Say("Two.")))
    first, second = timeline.events
    assert second.start - first.end == round(GAP * SAMPLE_RATE)


def test_a_wake_call_is_followed_by_its_own_gap_instead_of_the_breath(engine: AudioEngine) -> None:
    timeline = engine.render(night(Say("Seer, wake up.", after=1.25), Say("Look."), Say("Close.")))
    wake, act, close = timeline.events
    assert act.start - wake.end == round(1.25 * SAMPLE_RATE)
    assert close.start - act.end == round(GAP * SAMPLE_RATE)


def test_bed_runs_from_lead_in_to_tail_and_never_stops(engine: AudioEngine) -> None:
    timeline = engine.render(sample_night())
    rate = timeline.sample_rate
    first, last = timeline.events[0], timeline.events[-1]
    assert first.start == round(LEAD_IN * rate)
    assert len(timeline.samples) == last.end + round(TAIL * rate)
    # Bed alone (the voice is a fake tone): every window of the night holds a tap.
    bed = timeline.samples.copy()
    for e in timeline.events:
        if e.kind != "pause":
            bed[e.start : e.end] = 0  # ignore the voice, look between calls
    window = round(0.7 * rate)
    for e in timeline.events:
        if e.kind == "pause" and e.end - e.start >= window:
            for a in range(e.start, e.end - window, rate // 10):
                assert np.max(np.abs(bed[a : a + window])) > 0.005
    assert np.max(np.abs(timeline.samples[: rate // 2])) > 0.0  # taps in the lead-in
    assert np.max(np.abs(timeline.samples[last.end : last.end + rate])) > 0.005


def test_no_bed_means_digital_silence_in_every_pause(tmp_path: Path) -> None:
    engine = AudioEngine(AudioSettings(bed=False), cache_dir=tmp_path, synthesizer=FakeSynth())
    timeline = engine.render(sample_night())
    assert timeline.events[0].start == 0
    for e in timeline.events:
        if e.kind == "pause":
            assert not np.any(timeline.samples[e.start : e.end])


def test_the_voice_sits_above_the_bed_the_same_for_every_call(tmp_path: Path) -> None:
    class Silent(FakeSynth):
        def synthesize(self, line: Utterance) -> Clip:
            return Clip(np.zeros_like(super().synthesize(line).samples), self.sample_rate)

    script = sample_night()
    settings = AudioSettings()
    timeline = AudioEngine(settings, cache_dir=tmp_path, synthesizer=FakeSynth()).render(script)
    says = [e for e in timeline.events if e.kind == "say"]
    pauses = [e for e in timeline.events if e.kind == "pause"]
    bed_rms = np.sqrt(
        np.mean(np.concatenate([timeline.samples[p.start : p.end] for p in pauses]) ** 2)
    )
    for e in says:
        voice = timeline.samples[e.start : e.end]
        assert np.sqrt(np.mean(voice**2)) > 4 * bed_rms  # 12 dB and more
    # With a silent voice, what is left under each call is the bed ducked by DUCK.
    quiet = AudioEngine(settings, cache_dir=tmp_path / "q", synthesizer=Silent()).render(script)
    bed = NightBed(load_knocks(SAMPLE_RATE), SAMPLE_RATE).render(0, len(quiet.samples))
    gain = settings.bed_volume * BED_LEVEL
    attack = round(DUCK_ATTACK * SAMPLE_RATE)
    for e in says:
        under = quiet.samples[e.start + attack : e.end]
        expected = bed[e.start + attack : e.end] * gain * DUCK
        assert np.allclose(under, expected, atol=1e-6)


def test_bed_settings_tempo_volume_off(tmp_path: Path) -> None:
    def render(**kw: object) -> np.ndarray:
        settings = AudioSettings(**kw)  # type: ignore[arg-type]
        engine = AudioEngine(settings, cache_dir=tmp_path, synthesizer=FakeSynth())
        tl = engine.render(night(Pause(8.0)))
        return tl.samples

    loud, soft = render(bed_volume=0.8), render(bed_volume=0.2)
    assert np.max(np.abs(loud)) == pytest.approx(4 * np.max(np.abs(soft)), rel=1e-3)
    assert not np.any(render(bed=False))
    knocks = load_knocks(SAMPLE_RATE)
    slow = TapBed(knocks, SAMPLE_RATE, tempo=1.0).onsets(0, 60 * SAMPLE_RATE)
    fast = TapBed(knocks, SAMPLE_RATE, tempo=2.0).onsets(0, 60 * SAMPLE_RATE)
    assert 1.7 < len(fast) / len(slow) < 2.3


def test_bed_is_the_same_rendered_in_chunks_or_at_once() -> None:
    knocks = load_knocks(SAMPLE_RATE)
    whole = TapBed(knocks, SAMPLE_RATE).render(0, 40 * SAMPLE_RATE)
    chunked = render_in_chunks(TapBed(knocks, SAMPLE_RATE), len(whole))
    assert np.array_equal(chunked, whole)


def test_bed_has_human_timing_and_no_long_gap() -> None:
    bed = TapBed(load_knocks(SAMPLE_RATE), SAMPLE_RATE)
    onsets = np.array(bed.onsets(0, 600 * SAMPLE_RATE)) / SAMPLE_RATE
    gaps = np.diff(onsets)
    assert gaps.max() <= bed.max_gap + 1e-3
    assert 3 < len(onsets) / 600 < 9  # a few taps a second
    assert np.std(gaps) / np.mean(gaps) > 0.3  # not a metronome: no loop to hear


class PulledStream:
    """A device stream the test pulls block by block (the `Stream` contract)."""

    def __init__(self, callback: Callable[..., None], finished: Callable[[], None]) -> None:
        self.callback = callback
        self.finished = finished
        self.started = self.closed = False

    def start(self) -> None:
        self.started = True

    def abort(self, ignore_errors: bool = True) -> None:
        pass

    def close(self, ignore_errors: bool = True) -> None:
        self.closed = True

    def pull(self, frames: int) -> tuple[np.ndarray, bool]:
        """One block, and whether the stream goes on after it."""
        import sounddevice as sd

        out = np.zeros((frames, 1), np.float32)
        try:
            self.callback(out, frames, None, SimpleNamespace(output_underflow=False))
        except sd.CallbackStop:
            self.finished()
            return out[:, 0], False
        return out[:, 0], True


def test_play_renders_ahead_and_plays_exactly_the_render(tmp_path: Path) -> None:
    """Through `AudioEngine.play()`: the stream reads the night while the render-ahead
    is still making it, and hears the very samples of the one-shot render."""

    class SlowSynth(FakeSynth):
        def synthesize(self, line: Utterance) -> Clip:
            time.sleep(0.05)
            return super().synthesize(line)

    streams: list[PulledStream] = []

    def open_stream(device: object, rate: int) -> Callable[..., PulledStream]:
        def opener(callback: Callable[..., None], finished: Callable[[], None]) -> PulledStream:
            streams.append(PulledStream(callback, finished))
            return streams[-1]

        return opener

    script = sample_night()
    engine = AudioEngine(
        AudioSettings(), cache_dir=tmp_path, synthesizer=SlowSynth(), open_stream=open_stream
    )
    playback = engine.play(script)
    (stream,) = streams
    assert stream.started
    block, blocks, grew = 551, [], False
    more = True
    deadline = time.monotonic() + 30
    while more:
        mix = playback.mix
        while mix.length is None and mix.committed < playback.feeder.pos + block:
            assert time.monotonic() < deadline, "the render-ahead stalled"
            time.sleep(0.001)
        grew = grew or mix.length is None
        samples, more = stream.pull(block)
        blocks.append(samples)
    assert grew  # some blocks were read while the night was still being rendered
    assert playback.wait(1) and playback.error is None
    assert playback.feeder.starved == 0
    whole = AudioEngine(AudioSettings(), cache_dir=tmp_path, synthesizer=FakeSynth()).render(script)
    played = np.concatenate(blocks)
    assert np.array_equal(played[: len(whole.samples)], whole.samples)
    assert not played[len(whole.samples) :].any()  # then only the drain's silence
    playback.close()
    assert stream.closed


def test_feeder_waits_for_the_render_instead_of_skipping_ahead() -> None:
    mix = MixBuilder(SAMPLE_RATE, bed=None, capacity=1)
    feeder = Feeder(mix, latency_frames=100)
    block = np.ones(256, np.float32)
    assert feeder.fill(block) and not np.any(block)
    assert feeder.pos == 0 and feeder.starved == 1
    mix.add(0, Pause(1.0), [])
    mix.finish()
    feeder.fill(block)
    assert feeder.pos == 256


def test_a_call_made_late_is_waited_for_under_the_bed_which_never_stops() -> None:
    """The player reaches the end of what is rendered before the first call is made
    (a cold voice slower than the lead-in): the bed goes on, and what is heard is the
    same night with that wait written as a pause before the call, sample for sample."""
    knocks = load_knocks(SAMPLE_RATE)
    mix = MixBuilder(SAMPLE_RATE, bed=NightBed(knocks, SAMPLE_RATE), capacity=1)
    feeder = Feeder(mix, latency_frames=100)
    lead, block, blocks = mix.committed, 512, []
    for _ in range(lead // block + 3 * SAMPLE_RATE // block):  # three seconds past the lead-in
        out = np.zeros(block, np.float32)
        assert feeder.fill(out)
        blocks.append(out)
    late = feeder.pos - lead
    assert late > 2.9 * SAMPLE_RATE  # the wait was played, not stalled on
    assert feeder.starved > 0 and mix.padded == late and mix.cursor == feeder.pos
    tone = np.full(2000, 0.5, np.float32)
    mix.add(0, Say("Werewolves, wake up."), [tone])
    mix.add(1, Pause(1.0), [])
    mix.finish()
    while True:
        out = np.zeros(block, np.float32)
        more = feeder.fill(out)
        blocks.append(out)
        if not more:
            break
    (call,) = [e for e in mix.events if e.kind == "say"]
    assert call.start == lead + late  # after the wait, never over it

    same = MixBuilder(SAMPLE_RATE, bed=NightBed(knocks, SAMPLE_RATE), capacity=1)
    same.add(0, Pause(late / SAMPLE_RATE), [])
    same.add(1, Say("Werewolves, wake up."), [tone])
    same.add(2, Pause(1.0), [])
    same.finish()
    expected = same.timeline().samples
    played = np.concatenate(blocks)
    assert np.array_equal(played[: len(expected)], expected)
    # and the bed is there all along the wait: no 50 ms without it
    window = SAMPLE_RATE // 20
    quietest = min(
        float(np.sqrt(np.mean(played[a : a + window] ** 2)))
        for a in range(round(FADE_IN * SAMPLE_RATE), call.start - window, window)
    )
    assert quietest > 1e-3


class _SlowBed:
    """A bed whose render, once armed, waits for `release`: the writer placing a step
    holds the mix's cursor for as long as it takes (a busy machine)."""

    def __init__(self, bed: NightBed) -> None:
        self.bed = bed
        self.armed = False
        self.inside = threading.Event()
        self.release = threading.Event()

    def render(self, start: int, n: int) -> np.ndarray:
        if self.armed:
            self.armed = False
            self.inside.set()
            assert self.release.wait(5)
        return self.bed.render(start, n)


def _at_the_end_of_what_is_final(hold: float) -> tuple[list[np.ndarray], Feeder, np.ndarray]:
    """The player reaches the end of what is final while the writer is placing the
    first call and holds the cursor for `hold` s. What was handed over, the feeder,
    and the same night as rendered (sample for sample what should be heard)."""
    knocks = load_knocks(SAMPLE_RATE)
    bed = _SlowBed(NightBed(knocks, SAMPLE_RATE))
    mix = MixBuilder(SAMPLE_RATE, bed=bed, capacity=1)  # type: ignore[arg-type]
    feeder = Feeder(mix, latency_frames=SAMPLE_RATE // 10)  # a 100 ms buffer: 50 ms of patience
    blocks = []
    while feeder.pos < mix.committed:  # the lead-in, to its last sample
        out = np.zeros(min(551, mix.committed - feeder.pos), np.float32)
        assert feeder.fill(out)
        blocks.append(out)
    tone = np.full(2000, 0.5, np.float32)
    bed.armed = True
    writer = threading.Thread(target=mix.add, args=(0, Say("Everyone, close your eyes."), [tone]))
    writer.start()
    assert bed.inside.wait(5)
    threading.Timer(hold, bed.release.set).start()
    while True:
        out = np.zeros(551, np.float32)
        blocks.append(out)
        feeder.fill(out)
        if feeder.pos >= mix.committed:
            break
    writer.join()
    same = MixBuilder(SAMPLE_RATE, bed=NightBed(knocks, SAMPLE_RATE), capacity=1)
    same.add(0, Say("Everyone, close your eyes."), [tone])
    same.finish()
    return blocks, feeder, same.timeline().samples


def test_a_block_asked_for_while_the_writer_places_a_call_waits_for_it_and_hands_no_hole() -> None:
    """The player reaches the end of what is final at the moment the writer is placing
    the next call. The block waits for it (up to half the device's buffer) instead of
    handing the device a block of silence the night does not have -- heard as a hole in
    the bed, and every later call 25 ms late (tests/audio/test_kokoro_night.py, on a
    busy machine, where a block is 551 samples)."""
    blocks, feeder, expected = _at_the_end_of_what_is_final(hold=0.01)
    played = np.concatenate(blocks)
    assert np.array_equal(played, expected[: len(played)])
    assert feeder.underruns == 0


def test_a_writer_that_holds_the_cursor_past_the_blocks_patience_is_a_hole_counted_as_an_underrun() -> (
    None
):
    """Never a hole that passes as success: past its patience the block goes out with
    what is final, the rest silence, and the playback counts an underrun (the tests
    and the bench see it; the next stream gets a bigger buffer)."""
    blocks, feeder, expected = _at_the_end_of_what_is_final(hold=0.3)
    played = np.concatenate(blocks)
    assert not np.array_equal(played, expected[: len(played)])
    assert feeder.underruns >= 1


def test_without_a_bed_a_late_call_is_waited_for_in_silence() -> None:
    mix = MixBuilder(SAMPLE_RATE, bed=None, capacity=1)
    assert not mix.pad(SAMPLE_RATE) and mix.cursor == 0 and mix.padded == 0


def test_feeder_pause_skip_and_end() -> None:
    mix = MixBuilder(SAMPLE_RATE, bed=None, capacity=1)
    tone = np.full(1000, 0.5, np.float32)
    mix.add(0, Say("a"), [tone])
    mix.add(1, Pause(1.0), [])
    mix.add(2, Say("b"), [tone])
    mix.finish()
    feeder = Feeder(mix, latency_frames=0)
    block = np.zeros(100, np.float32)
    feeder.fill(block)
    feeder.paused = True
    feeder.fill(block)
    assert feeder.pos == 100 and not np.any(block)
    feeder.paused = False
    feeder.skip()
    feeder.fill(block)
    assert feeder.pos == mix.events[2].start + 100
    while feeder.fill(block):
        pass
    assert feeder.pos == mix.length


def test_timer_is_silence_with_warnings_before_the_end(engine: AudioEngine) -> None:
    timer = Timer(10.0, "Discussion", (TimerWarning(3.0, "Three seconds left."),), end="Vote!")
    timeline = engine.render(night(timer, Wait("Vote now."), phase="day"))
    rate = timeline.sample_rate
    kinds = [(e.kind, e.text) for e in timeline.events]
    assert kinds == [("timer", "Discussion"), ("say", "Three seconds left."), ("say", "Vote!")]
    t, warn, end = timeline.events
    assert t.end - t.start == 10 * rate
    assert warn.start == t.end - 3 * rate
    assert end.start == t.end


def test_cost_is_linear_in_the_number_of_lines(tmp_path: Path) -> None:
    def work(blocks: int) -> int:
        steps = []
        for i in range(blocks):
            steps += [Say(f"Role {i % 7}, wake up."), Pause(2.0), Say("Close your eyes.")]
        engine = AudioEngine(AudioSettings(), cache_dir=tmp_path, synthesizer=FakeSynth())
        mix = MixBuilder(SAMPLE_RATE, bed=engine._bed(night(), engine.settings), capacity=1)
        for index, step in enumerate(steps):
            mix.add(index, step, engine._clips(step, "en", engine.settings))
        mix.finish()
        return mix.samples_written

    w10, w20, w40 = work(10), work(20), work(40)
    per_block = (w40 - w20) / 20
    assert (w20 - w10) / 10 == pytest.approx(per_block, rel=0.01)


def test_warm_cache_synthesises_nothing(tmp_path: Path) -> None:
    fake = FakeSynth()
    AudioEngine(AudioSettings(), cache_dir=tmp_path, synthesizer=fake).render(sample_night())
    first = len(fake.calls)
    again = AudioEngine(AudioSettings(), cache_dir=tmp_path, synthesizer=fake)
    again.render(sample_night())
    assert len(fake.calls) == first == 6
    # Anything that changes the sound is a new key.
    AudioEngine(AudioSettings(rate=200), cache_dir=tmp_path, synthesizer=fake).render(
        sample_night()
    )
    assert len(fake.calls) == 12


def test_script_json_round_trip() -> None:
    timer = Timer(10.0, "Discussion", (TimerWarning(3.0, "Soon."),), end="Vote!")
    script = night(*sample_night().steps, timer, Wait("Go on."))
    assert script_from_dict(json.loads(json.dumps(script_to_dict(script)))) == script
