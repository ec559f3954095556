"""Python API of the accel compiler and simulator (docs/python.md).

    import numpy as np, accel
    program = accel.compile("model.onnx", hw="default", depthwise="gemm")
    outputs, stats = program.run({"x": np.ones((1, 3), np.float32)})
    print(stats["cycles"], stats.layers_frame())

Everything runs in this process (the extension accel._accel links the
compiler and the simulator); the GIL is released while compiling and
simulating. Failures raise accel.Error subclasses (accel.errors).
"""
import numbers
import os
from collections.abc import Sequence

from . import _accel, hardware, options
from .errors import (AccelError, BinaryError, CompileError, Error, HardwareError, InputError,
                     ModelError, OptionError, SimulationError)
from .program import Program, Stats, TensorSpec, load
from .sweeps import sweep, variants

__all__ = ["AccelError", "BinaryError", "CompileError", "Error", "HardwareError",
           "InputError", "ModelError", "OptionError", "Program", "SimulationError", "Stats",
           "TensorSpec", "compile", "compile_options", "hardware_description", "load",
           "opt", "passes", "presets", "run", "sweep", "variants"]


def compile(model, hw=None, input_shapes=None, bind=None, **opts):
    """Compiles a model for a machine; returns a Program.

    model: a path (.onnx or .mlir), ONNX ModelProto bytes, or an
    onnx.ModelProto. hw: None (default preset), a preset name, a JSON path
    or a dict (accel.hardware). input_shapes: {input: shape} for dynamic
    dimensions; bind: {input: TensorProto .pb path} (accel-compile --bind).
    opts: the pipeline options (accel.compile_options(); e.g.
    depthwise="gemm", load_balance=True, sparse_threshold=0.5, fuse="off")."""
    path, data, mlir = None, b"", False
    if hasattr(model, "SerializeToString"):
        data = model.SerializeToString()
    elif isinstance(model, (bytes, bytearray)):
        data = bytes(model)
    elif isinstance(model, (str, os.PathLike)):
        path = os.fspath(model)
        if not os.path.isfile(path):
            raise ModelError(f"{path}: no such model file")
        mlir = path.endswith(".mlir")
    else:
        raise ModelError(f"model must be a path, bytes or an onnx.ModelProto, "
                         f"not {type(model).__name__}")
    native = _accel.compile(path, data, mlir, hardware.to_json(hw), options.to_pairs(opts),
                            _shapes(input_shapes), _binds(bind))
    return Program(native)


# Dimensions stay well inside int64 (10**20 raised pybind11's OverflowError).
_MAX_DIM = 2**62


def _is_dim(d):
    return (isinstance(d, numbers.Integral) and not isinstance(d, bool)
            and 1 <= d < _MAX_DIM)


def _shapes(input_shapes):
    """{input: [dims]} of compile's input_shapes (--input-shape): whole
    numbers only, since int() truncated 2.9 to 2 and took True as 1."""
    if input_shapes is None:
        return {}
    shapes = options.named_arg(input_shapes, "input_shapes", "a dict {input name: shape}")
    for name, shape in shapes.items():
        if (isinstance(shape, (str, bytes)) or not isinstance(shape, Sequence)
                or not all(_is_dim(d) for d in shape)):
            raise OptionError(f"input_shapes['{name}']: {shape!r} is not a shape; expected a "
                              f"list of whole numbers from 1 to 2**62 - 1")
        shapes[name] = [int(d) for d in shape]
    return shapes


def _binds(bind):
    """{input: TensorProto path} of compile's bind (--bind)."""
    if bind is None:
        return {}
    binds = options.named_arg(bind, "bind", "a dict {input name: TensorProto .pb path}")
    return {name: options.path_arg(p, f"bind['{name}']") for name, p in binds.items()}


def run(program, inputs, hw=None, **kwargs):
    """program.run(inputs, ...) for a Program or a binary path / bytes."""
    if not isinstance(program, Program):
        program = load(program, hw)
        hw = None
    return program.run(inputs, hw=hw, **kwargs)


def compile_options():
    """The options accel.compile takes: {name: {type, values, default, help}}
    (names with '-'; pass them with '_')."""
    return {k: dict(v) for k, v in options.compile_options().items()}


_KINDS = ("pass", "pipeline")


def passes(kind=None):
    """Registered passes and pipelines (what accel-opt accepts): a list of
    {"name", "kind" ("pass" | "pipeline"), "description", "options"};
    kind: None (all), "pass" or "pipeline"."""
    # Any other kind matched no entry and gave [] without a word.
    if kind is not None and (not isinstance(kind, str) or kind not in _KINDS):
        raise OptionError(f"passes: kind must be None, 'pass' or 'pipeline', got {kind!r}")
    return [e for e in options.entries() if kind in (None, e["kind"])]


def opt(text, pipeline, hw=None):
    """Runs an accel-opt pipeline ("canonicalize,cse", or anchored
    "builtin.module(...)") on MLIR text; returns the resulting text. `hw`
    is attached as accel.hw first (accel-opt --accel-hw)."""
    # pybind11's "incompatible function arguments" said neither which nor why.
    if not isinstance(text, str):
        raise ModelError(f"opt: text must be MLIR text (str), got {type(text).__name__}")
    if not isinstance(pipeline, str):
        raise OptionError(f"opt: pipeline must be a str, got {type(pipeline).__name__}")
    return _accel.opt(text, pipeline, "" if hw is None else hardware.to_json(hw))


def presets():
    """The hardware preset names (hw/*.json)."""
    return hardware.presets()


def hardware_description(hw=None):
    """The full, validated description (every field) of any hw form."""
    return hardware.resolve(hw)

