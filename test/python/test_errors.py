"""Every bad input is an accel.Error subclass with the compiler's message."""
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from conftest import SMALL_CNN


def test_error_hierarchy(accel):
    assert accel.AccelError is accel.Error
    for cls in (accel.ModelError, accel.OptionError, accel.HardwareError, accel.InputError,
                accel.CompileError, accel.SimulationError, accel.BinaryError):
        assert issubclass(cls, accel.Error)


def test_input_errors(accel, program, image):
    with pytest.raises(accel.InputError, match=r"missing input 'image' \(\[1, 3, .*float32"):
        program.run({})
    with pytest.raises(accel.InputError, match="'image' has dtype float64, expected .* float32"):
        program.run({"image": image.astype(np.float64)})
    with pytest.raises(accel.InputError, match=r"'image' has shape \[2, 2\], expected \[1, 3"):
        program.run({"image": np.zeros((2, 2), np.float32)})
    with pytest.raises(accel.InputError, match="unknown input 'x'; the program's inputs: image"):
        program.run({"image": image, "x": image})
    with pytest.raises(accel.InputError, match="expected a numpy array"):
        program.run({"image": [1.0, 2.0]})


def test_option_errors(accel):
    with pytest.raises(accel.OptionError, match="unknown option 'depthwize'; options: .*depthwise"):
        accel.compile(SMALL_CNN, depthwize="sw")
    with pytest.raises(accel.OptionError, match="'depthwise': 'fast' .* one of sw, gemm"):
        accel.compile(SMALL_CNN, depthwise="fast")
    with pytest.raises(accel.OptionError, match="'load_balance': 'yes' .* True or False"):
        accel.compile(SMALL_CNN, load_balance="yes")
    with pytest.raises(accel.OptionError, match="'rnn_contexts'.*an integer"):
        accel.compile(SMALL_CNN, rnn_contexts=1.5)
    # The pass's own parser still has the last word.
    with pytest.raises(accel.OptionError, match="rnn-contexts: '-1' is not a count"):
        accel.compile(SMALL_CNN, rnn_contexts=-1)
    # llvm::cl's reason (printed to stderr until 2026-12-07) is in the error.
    with pytest.raises(accel.OptionError,
                       match="dram-copy-factor=-1.*'-1' value invalid for uint argument"):
        accel.compile(SMALL_CNN, dram_copy_factor=-1)


def test_hardware_errors(accel):
    with pytest.raises(accel.HardwareError, match="grid.rows: must be >= 1"):
        accel.compile(SMALL_CNN, hw={"grid.rows": 0})
    with pytest.raises(accel.HardwareError, match="no hardware preset 'nope' .*default"):
        accel.compile(SMALL_CNN, hw="nope")
    with pytest.raises(accel.HardwareError, match="colz"):
        accel.compile(SMALL_CNN, hw={"grid.colz": 2})
    with pytest.raises(accel.HardwareError, match="no such field"):
        accel.compile(SMALL_CNN, hw={"memory.channels.9.bytes_per_cycle": 1.0})
    # A negative index is not Python's from-the-end (it set the last channel).
    with pytest.raises(accel.HardwareError, match="override 'memory.channels.-1.bytes_per_cycle'"):
        accel.compile(SMALL_CNN, hw={"memory.channels.-1.bytes_per_cycle": 1.0})


def test_model_errors(accel, tmp_path):
    with pytest.raises(accel.ModelError, match="no such model file"):
        accel.compile(tmp_path / "missing.onnx")
    with pytest.raises(accel.ModelError, match="<bytes>"):
        accel.compile(b"not an onnx model")
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @main() {\n  %0 = graph.nope\n}\n")
    with pytest.raises(accel.ModelError, match=r"bad.mlir:2:\d+: error"):
        accel.compile(bad)
    with pytest.raises(accel.BinaryError, match="binary"):
        accel.load(b"garbage")


def test_compile_error_has_location(accel, tmp_path):
    # The lowering refuses f16 tensors, at the function's line.
    bad = tmp_path / "f16.mlir"
    bad.write_text("func.func @main(%a: tensor<4xf16>) -> tensor<4xf16> {\n"
                   "  return %a : tensor<4xf16>\n}\n")
    with pytest.raises(accel.CompileError,
                       match=r"f16.mlir:1:\d+: error: input #0 has type 'tensor<4xf16>'"):
        accel.compile(bad)


def test_opt_attaches_hardware_to_any_module(accel):
    # A module without accel ops: the dialect was registered but not loaded
    # and building the accel.hw attribute crashed (SIGSEGV).
    out = accel.opt("module {}", "canonicalize", hw="default")
    assert "accel.hw = #accel.hw<name = \"default\"" in out


def test_opt_errors(accel):
    with pytest.raises(accel.OptionError, match="no-such-pass"):
        accel.opt("module {}", "no-such-pass")
    with pytest.raises(accel.ModelError, match="opt: text must be MLIR text"):
        accel.opt(5, "canonicalize")
    with pytest.raises(accel.OptionError, match="opt: pipeline must be a str, got NoneType"):
        accel.opt("module {}", None)
    # A value the option parser refuses: its reason is in the error.
    with pytest.raises(accel.OptionError, match="for the --ep option: 'x' value invalid"):
        accel.opt("module {}", "select-rnn-parallelism{ep=x}")
    # A value out of the option's range (lib/Transforms/OptionChecks.h).
    with pytest.raises(accel.OptionError,
                       match="depth-first-rows: slice-fraction = nan must be a finite number > 0"):
        accel.opt("module {}", "depth-first-rows{slice-fraction=nan}")
    with pytest.raises(accel.OptionError,
                       match="select-tiling: partition-n = -2 must be at least 0"):
        accel.opt("module {}", "select-tiling{partition-n=-2}")
    with pytest.raises(accel.ModelError, match=r"<text>:1:\d+: error"):
        accel.opt("module { bogus }", "canonicalize")


@pytest.fixture(scope="module")
def dynamic_model(tmp_path_factory):
    """x [N, 8] @ w [8, 4]: N is set by input_shapes."""
    w = numpy_helper.from_array(np.ones((8, 4), np.float32), "w")
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])], "dyn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])], [w])
    path = tmp_path_factory.mktemp("dyn") / "dyn.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)
    return path


def test_input_shapes_are_whole_numbers(accel, dynamic_model):
    for shape in ([2, 8], (np.int64(2), 8)):
        p = accel.compile(dynamic_model, input_shapes={"x": shape})
        assert p.inputs[0].shape == (2, 8)
    # int() made (2, 8) of 2.9, (1, 8) of True and (3, 8) of "3"; the others
    # raised ValueError, OverflowError, TypeError or AttributeError.
    for shape in ([2.9, 8], [True, 8], ["3", 8], "1x3", [float("nan"), 8], [float("inf"), 8],
                  [10**20], [0, 8], 5):
        with pytest.raises(accel.OptionError, match=r"input_shapes\['x'\]: .* is not a shape; "
                           "expected a list of whole numbers from 1"):
            accel.compile(dynamic_model, input_shapes={"x": shape})
    with pytest.raises(accel.OptionError, match="input_shapes must be a dict .*, got str 'x'"):
        accel.compile(dynamic_model, input_shapes="x")
    with pytest.raises(accel.OptionError, match="input_shapes: the name 5 is not a string"):
        accel.compile(dynamic_model, input_shapes={5: [2, 8]})


def test_bind_maps_names_to_paths(accel):
    for bind in (5, "image", ["image.pb"]):
        with pytest.raises(accel.OptionError, match="bind must be a dict {input name: "):
            accel.compile(SMALL_CNN, bind=bind)
    with pytest.raises(accel.OptionError, match=r"bind\['image'\] must be a file path .*got 5"):
        accel.compile(SMALL_CNN, bind={"image": 5})
    with pytest.raises(accel.OptionError, match="bind: the name 5 is not a string"):
        accel.compile(SMALL_CNN, bind={5: "image.pb"})


def test_save_and_load_take_paths_only(accel, program, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # The path was cut at the NUL: "a\0b" wrote and read "a".
    with pytest.raises(accel.OptionError, match=r"save: path must be a file path .*'a\\x00b'"):
        program.save("a\0b")
    for path in (5, None, True, ""):
        with pytest.raises(accel.OptionError, match="save: path must be a file path"):
            program.save(path)
    assert list(tmp_path.iterdir()) == []
    program.save("a")
    with pytest.raises(accel.OptionError, match="load: source must be a file path"):
        accel.load("a\0b")
    for source in (5, None):
        with pytest.raises(accel.OptionError, match="load: source must be a path .* or the "
                           "binary's bytes"):
            accel.load(source)
    assert accel.load("a").to_bytes() == program.to_bytes()


def test_passes_kind_is_checked(accel):
    assert {p["kind"] for p in accel.passes("pipeline")} == {"pipeline"}
    # Any other kind gave [].
    for kind in ("Pass", 5):
        with pytest.raises(accel.OptionError,
                           match="kind must be None, 'pass' or 'pipeline', got "):
            accel.passes(kind)


def test_hardware_dicts_are_checked(accel):
    # A preset is a name presets() lists, not a path out of hw/.
    with pytest.raises(accel.HardwareError,
                       match=r"no hardware preset '../hw/default' \(presets: .*default"):
        accel.hardware_description({"preset": "../hw/default"})
    # dict() took a list of pairs; None and 5 raised TypeError.
    for overrides in ([("grid.rows", 2)], 5, None):
        with pytest.raises(accel.HardwareError, match="hw 'overrides' must be a dict"):
            accel.hardware_description({"overrides": overrides})
    for hw in ({1: 2}, {(1, 2): 2}, {"overrides": {1: 2}}):
        with pytest.raises(accel.HardwareError, match="is not a string; fields are named"):
            accel.hardware_description(hw)
    # numpy scalars are numbers (json refused them with TypeError).
    desc = accel.hardware_description({"grid.rows": np.int64(3), "grid": {"cols": np.int32(1)},
                                       "memory.channels.0.bytes_per_cycle": np.float32(4)})
    assert desc["grid"] == {"rows": 3, "cols": 1}
    assert desc["memory"]["channels"][0]["bytes_per_cycle"] == 4
    with pytest.raises(accel.HardwareError,
                       match=r"hw field 'grid.rows': array\(\[1, 2\]\) \(ndarray\) is not "
                       "a JSON value"):
        accel.hardware_description({"grid.rows": np.array([1, 2])})
