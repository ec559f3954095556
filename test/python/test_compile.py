"""accel.compile: model forms, typed options, hardware forms, the program."""
import os
import subprocess
import threading
import time

import numpy as np
import onnx

from conftest import SMALL_CNN, SRC, tool


def test_model_forms_give_the_same_program(accel, program):
    from_bytes = accel.compile(open(SMALL_CNN, "rb").read())
    from_proto = accel.compile(onnx.load(SMALL_CNN))
    assert from_bytes.to_bytes() == program.to_bytes() == from_proto.to_bytes()
    (inp,) = program.inputs
    assert inp.name == "image" and inp.dtype == np.float32 and len(inp.shape) == 4
    assert [o.name for o in program.outputs] == ["logits"]


def test_same_binary_as_accel_compile(program, tmp_path):
    out = tmp_path / "cli.bin"
    subprocess.run([tool("accel-compile"), SMALL_CNN, "-o", str(out), "--depthwise=gemm",
                    "--load-balance"], check=True)
    import accel
    native = accel.compile(SMALL_CNN, depthwise="gemm", load_balance=True)
    assert native.to_bytes() == out.read_bytes()


def test_typed_options(accel):
    specs = accel.compile_options()
    assert specs["depthwise"]["type"] == "enum" and specs["depthwise"]["values"] == ["sw", "gemm"]
    assert specs["load-balance"]["type"] == "bool"
    assert specs["sparse-threshold"]["type"] == "float"
    assert specs["rnn-contexts"]["type"] == "int"
    assert specs["parallel"]["default"] == "best"
    # The defaults the default pipeline gives split-strategy (one table in
    # lib/Conversion/Pipelines.cpp; rounding was the pass's own before).
    assert specs["rounding"]["default"] == "clusters"
    assert specs["balance-clusters"]["default"] == "true"
    assert specs["split"]["values"] == ["partition", "labels", "off"]
    assert specs["split"]["default"] == "partition"
    assert specs["depth-first-halos"]["values"] == ["on", "off"]
    assert specs["depth-first-halos"]["default"] == "off"
    p = accel.compile(SMALL_CNN, sparse_weights="auto", sparse_threshold=0.25, fuse="off",
                      split="labels", rnn_contexts=1, depth_first_halos="on")
    assert p.outputs[0].name == "logits"


def test_hardware_forms(accel):
    one = accel.compile(SMALL_CNN, hw={"grid.rows": 1})
    assert one.hardware["grid"] == {"rows": 1, "cols": 2}
    lanes = accel.compile(SMALL_CNN, hw={"preset": "default", "overrides": {"pe.mac_lanes": 128}})
    assert lanes.hardware["pe"]["mac_lanes"] == 128
    large = accel.compile(SMALL_CNN, hw="large")
    assert large.hardware["name"] == accel.hardware_description(
        os.path.join(SRC, "hw", "large.json"))["name"]
    nested = accel.hardware_description({"grid": {"rows": 4}})
    assert nested["grid"]["rows"] == 4 and nested["grid"]["cols"] == 2
    assert "default" in accel.presets()


def test_save_load_disassemble(accel, program, tmp_path):
    path = tmp_path / "m.bin"
    program.save(path)
    loaded = accel.load(path)
    assert loaded.inputs == program.inputs and loaded.to_bytes() == path.read_bytes()
    assert accel.load(path.read_bytes()).outputs == program.outputs
    text = program.disassemble()
    assert "isa.program" in text
    cli = subprocess.run([tool("accel-translate"), "--binary-to-isa", str(path)], check=True,
                         capture_output=True, text=True).stdout
    assert text.strip() == cli.strip()


def test_passes_and_opt(accel):
    by_name = {p["name"]: p for p in accel.passes()}
    assert by_name["accel-default-pipeline"]["kind"] == "pipeline"
    lower = by_name["convert-graph-to-isa"]
    assert lower["kind"] == "pass" and lower["options"]["depthwise"]["values"] == ["sw", "gemm"]
    assert "canonicalize" in by_name
    text = """func.func @f(%a: i32) -> i32 {
      %c = arith.constant 0 : i32
      %r = arith.addi %a, %c : i32
      return %r : i32
    }"""
    out = accel.opt(text, "canonicalize")
    assert "arith.addi" not in out and "func.func @f" in out


def test_gil_released_during_compile(accel):
    # The main thread takes timestamps while a worker compiles; a timestamp
    # strictly inside a compile's [start, end] can only be taken when the
    # compile does not hold the GIL. Counting those instead of all ticks
    # makes the test independent of how fast the host compiles.
    windows, stamps = [], []
    stop = threading.Event()

    def work():
        while not stop.is_set():
            start = time.perf_counter()
            accel.compile(SMALL_CNN)
            windows.append((start, time.perf_counter()))

    def inside():
        return sum(any(s < t < e for s, e in windows) for t in stamps)

    t = threading.Thread(target=work)
    t.start()
    deadline = time.perf_counter() + 30
    try:
        while time.perf_counter() < deadline and (len(windows) < 3 or inside() < 3):
            stamps.append(time.perf_counter())
            time.sleep(0.0002)
    finally:
        stop.set()
        t.join()
    assert inside() >= 3, (len(windows), len(stamps), inside())
