"""A tiny Piper voice built by the tests (and by scripts/bench_sound, for the Piper
path's speed): no voice can be downloaded here.

It has a real Piper voice's interface -- inputs `input` (phoneme ids, int64 [1, N]),
`input_lengths` (int64 [1]) and `scales` (noise, length, noise_w: float32 [3]),
output `output` (float32 [1, 1, T]) -- and a config with espeak-ng phonemes, so
Piper's own loading, phonemizing and inference code runs on it. What it "says" is
a tone per phoneme id (200 Hz + 20 Hz x id, 256 samples each), stretched by the
length scale as a real voice is: it speaks as long as the text is, at the rate asked.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

RATE = 22050
HOP = 256


def build_tiny_voice(folder: Path, name: str = "tiny", espeak_voice: str = "en-us") -> Path:
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    from piper.phoneme_ids import DEFAULT_PHONEME_ID_MAP

    ramp = (2 * np.pi * np.arange(HOP) / RATE).astype(np.float32).reshape(1, 1, HOP)
    constants = {
        "twenty": np.array(20.0, np.float32),
        "base": np.array(200.0, np.float32),
        "level": np.array(0.3, np.float32),
        "axis2": np.array([2], np.int64),
        "ramp": ramp,
        "flat_shape": np.array([1, 1, -1], np.int64),
        "one": np.array([1], np.int64),
        "two": np.array([2], np.int64),
        "unit": np.array([1.0, 1.0], np.float32),
    }
    nodes = [
        helper.make_node("Cast", ["input"], ["ids"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["ids", "twenty"], ["steps"]),
        helper.make_node("Add", ["steps", "base"], ["freq"]),
        helper.make_node("Unsqueeze", ["freq", "axis2"], ["freq3"]),
        helper.make_node("Mul", ["freq3", "ramp"], ["phase"]),
        helper.make_node("Sin", ["phase"], ["tone"]),
        helper.make_node("Mul", ["tone", "level"], ["wave"]),
        helper.make_node("Reshape", ["wave", "flat_shape"], ["flat"]),
        helper.make_node("Slice", ["scales", "one", "two"], ["length_scale"]),
        helper.make_node("Concat", ["unit", "length_scale"], ["resize_scales"], axis=0),
        helper.make_node("Resize", ["flat", "", "resize_scales"], ["output"], mode="nearest"),
    ]
    graph = helper.make_graph(
        nodes,
        "tiny-piper",
        [
            helper.make_tensor_value_info("input", TensorProto.INT64, [1, None]),
            helper.make_tensor_value_info("input_lengths", TensorProto.INT64, [1]),
            helper.make_tensor_value_info("scales", TensorProto.FLOAT, [3]),
        ],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 1, None])],
        initializer=[numpy_helper.from_array(v, k) for k, v in constants.items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.onnx"
    onnx.save(model, path)
    config = {
        "audio": {"sample_rate": RATE},
        "espeak": {"voice": espeak_voice},
        "language": {"code": espeak_voice.replace("-", "_")},
        "inference": {"noise_scale": 0.667, "length_scale": 1.0, "noise_w": 0.8},
        "phoneme_type": "espeak",
        "phoneme_id_map": DEFAULT_PHONEME_ID_MAP,
        "num_symbols": 1 + max(i for ids in DEFAULT_PHONEME_ID_MAP.values() for i in ids),
        "num_speakers": 1,
        "speaker_id_map": {},
    }
    Path(f"{path}.json").write_text(json.dumps(config, ensure_ascii=False), encoding="utf-8")
    return path
