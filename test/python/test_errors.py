"""Every bad input is an accel.Error subclass with the compiler's message."""
import numpy as np
import pytest

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
