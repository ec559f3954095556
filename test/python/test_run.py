"""Program.run: outputs against numpy references, stats against accel-run."""
import json
import re
import subprocess
import sys

import numpy as np
import pytest

from conftest import tool


def test_outputs_match_reference(program, image, expected):
    outputs, stats = program.run({"image": image})
    assert list(outputs) == ["logits"]
    assert outputs["logits"].dtype == np.float32
    assert outputs["logits"].shape == expected.shape
    np.testing.assert_allclose(outputs["logits"], expected, rtol=1e-3, atol=1e-5)


def test_stats_equal_accel_run(program, image, tmp_path):
    _, stats = program.run({"image": image})
    program.save(tmp_path / "m.bin")
    np.save(tmp_path / "image.npy", image)
    subprocess.run([tool("accel-run"), str(tmp_path / "m.bin"), "--input",
                    f"image={tmp_path / 'image.npy'}", "--output-dir", str(tmp_path / "out"),
                    "--quiet"], check=True)
    cli = json.loads((tmp_path / "out" / "stats.json").read_text())
    for key in ("cycles", "macs", "dram_bytes_read", "dram_bytes_written", "ideal_bound_cycles"):
        assert stats[key] == cli[key], key
    assert stats["energy_pj"]["total"] == pytest.approx(cli["energy_pj"]["total"])
    assert [l["cycles"] for l in stats.layers] == [l["cycles"] for l in cli["layers"]]


def test_data_lanes_change_nothing_but_the_host_threads(accel, program, image):
    one, stats_one = program.run({"image": image}, data_lanes=1)
    four, stats_four = program.run({"image": image}, data_lanes=4)
    assert np.array_equal(one["logits"], four["logits"])
    assert stats_one["cycles"] == stats_four["cycles"]
    assert [l["cycles"] for l in stats_one.layers] == [l["cycles"] for l in stats_four.layers]
    with pytest.raises(accel.OptionError, match="data_lanes must be a whole number from 1 to 64, got 0"):
        program.run({"image": image}, data_lanes=0)
    # Not truncated to 2, not taken as 1 (until 2026-12-07 both ran).
    for lanes in (2.5, True, "4"):
        with pytest.raises(accel.OptionError, match="data_lanes must be a whole number"):
            program.run({"image": image}, data_lanes=lanes)


def test_layers_table_and_frame(program, image, monkeypatch):
    _, stats = program.run({"image": image})
    assert stats.layers and all("cycles" in l and "name" in l for l in stats.layers)
    frame = stats.layers_frame()
    try:
        import pandas
        assert isinstance(frame, pandas.DataFrame) and len(frame) == len(stats.layers)
    except ImportError:
        assert frame == stats.layers
    monkeypatch.setitem(sys.modules, "pandas", None)  # as if not installed
    assert stats.layers_frame() == stats.layers


def test_trace_and_report(program, image, tmp_path):
    program.run({"image": image}, trace=tmp_path / "t.json")
    assert "traceEvents" in json.loads((tmp_path / "t.json").read_text())
    _, stats = program.run({"image": image}, report=tmp_path / "report")
    html = (tmp_path / "report" / "index.html").read_text()
    assert "<html" in html.lower() and str(stats["cycles"]) in html.replace(",", "")
    assert json.loads((tmp_path / "report" / "stats.json").read_text())["cycles"] == stats["cycles"]
    assert (tmp_path / "report" / "trace.json").exists()


def test_run_by_path_and_on_other_machine(accel, program, image, tmp_path):
    program.save(tmp_path / "m.bin")
    outputs, _ = accel.run(str(tmp_path / "m.bin"), {"image": image})
    assert outputs["logits"].shape[0] == 1
    with pytest.raises(accel.HardwareError, match="invalid program for hardware"):
        program.run({"image": image}, hw="large")


def test_trace_and_report_take_paths_only(accel, program, image, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # "tr\0ace.json" wrote "tr"; trace=0 or "" wrote nothing without a word.
    for key in ("trace", "report"):
        for path in ("tr\0ace.json", 5, True, 0, ""):
            with pytest.raises(accel.OptionError, match=f"{key} must be a file path"):
                program.run({"image": image}, **{key: path})
    assert list(tmp_path.iterdir()) == []


def test_run_flags_are_bools(accel, program, image):
    # None ran as False, 2 as True, "yes" raised pybind11's TypeError.
    for key in ("strict_hazards", "power_gating"):
        for value in (None, 2, "yes"):
            with pytest.raises(accel.OptionError, match=f"{key} must be True or False, got "):
                program.run({"image": image}, **{key: value})
        _, stats = program.run({"image": image}, **{key: np.bool_(True)})
        assert stats["cycles"] > 0


def test_inputs_are_a_dict_of_names(accel, program, image):
    # TypeError or ValueError before; {5: x} fed input "5".
    for inputs in (5, None, [image], "image", image):
        with pytest.raises(accel.InputError,
                           match=r"inputs must be a dict \{input name: numpy array\}, got "):
            program.run(inputs)
    with pytest.raises(accel.InputError, match="inputs: the name 5 is not a string"):
        program.run({5: image})
    with pytest.raises(accel.InputError, match="inputs must be a dict"):
        accel.run(program, [image])


@pytest.fixture(scope="module")
def typed_outputs(accel, tmp_path_factory):
    """A model with a BOOL output (Not(x > 0)) and an INT64 one (ArgMax),
    as onnxruntime returns them: bool and int64."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    graph = helper.make_graph(
        [helper.make_node("Greater", ["x", "zero"], ["g"], name="gt"),
         helper.make_node("Not", ["g"], ["mask"], name="not"),
         helper.make_node("ArgMax", ["x"], ["idx"], name="am", axis=1, keepdims=0),
         helper.make_node("Relu", ["x"], ["r"], name="relu")],
        "typed", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("mask", TensorProto.BOOL, [2, 3]),
         helper.make_tensor_value_info("idx", TensorProto.INT64, [2]),
         helper.make_tensor_value_info("r", TensorProto.FLOAT, [2, 3])],
        [numpy_helper.from_array(np.array(0, np.float32), "zero")])
    path = tmp_path_factory.mktemp("typed") / "typed.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)
    return accel.compile(path)


def test_outputs_have_the_declared_dtypes(typed_outputs):
    # Before: every output was float32, and a[mask] raised IndexError.
    x = np.array([[1, -1, 2], [-3, 4, 0]], np.float32)
    outputs, _ = typed_outputs.run({"x": x})
    assert outputs["mask"].dtype == np.bool_
    assert outputs["idx"].dtype == np.int64
    assert outputs["r"].dtype == np.float32
    np.testing.assert_array_equal(outputs["mask"], ~(x > 0))
    np.testing.assert_array_equal(outputs["idx"], np.argmax(x, axis=1))
    np.testing.assert_array_equal(outputs["r"], np.maximum(x, 0))
    np.testing.assert_array_equal(x[outputs["mask"]], [-1, -3, 0])
    # Program.outputs describes what run returns.
    specs = {s.name: s.dtype for s in typed_outputs.outputs}
    assert specs == {name: a.dtype for name, a in outputs.items()}


def test_inexact_integer_output_is_an_error(accel, typed_outputs, tmp_path):
    # The ISA text declares the Relu output i64: a whole number is returned
    # as int64, 0.5 is a defect named with its output and element, never
    # truncated to 0.
    isa = typed_outputs.disassemble()
    bad = re.sub(r'(isa\.io\s+output "r" .*)xf32>', r"\1xi64>", isa)
    assert bad != isa
    (tmp_path / "bad.isa").write_text(bad)
    subprocess.run([tool("accel-translate"), "--isa-to-binary", str(tmp_path / "bad.isa"),
                    "-o", str(tmp_path / "bad.bin")], check=True)
    program = accel.load(tmp_path / "bad.bin")
    outputs, _ = program.run({"x": np.array([[1, -1, 2], [-3, 4, 0]], np.float32)})
    assert outputs["r"].dtype == np.int64
    np.testing.assert_array_equal(outputs["r"], [[1, 0, 2], [0, 4, 0]])
    with pytest.raises(accel.SimulationError,
                       match=r"output 'r': element 3 is 6\.5, not an i64 value "
                             r"\(not a whole number\).*compiler or simulator defect"):
        program.run({"x": np.array([[1, -1, 2], [6.5, 4, 0]], np.float32)})
