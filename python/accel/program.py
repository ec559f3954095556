"""accel.Program (a compiled program) and accel.Stats (a run's statistics)."""
import collections
import json
import numbers
import os

import numpy as np

from . import _accel, hardware
from .errors import InputError, OptionError
from .options import flag_arg, named_arg, path_arg

TensorSpec = collections.namedtuple("TensorSpec", "name shape dtype")

_NUMPY = {"f32": np.float32, "f16": np.float16, "bf16": np.float32, "i8": np.int8,
          "i32": np.int32, "i64": np.int64, "i1": np.bool_}


class Stats(dict):
    """stats.json of the run as a dict (field names in docs/simulator.md):
    the totals (cycles, macs, mac_utilisation, energy_pj, dram bytes,
    ideal_bound_cycles, ...) and "layers", the per-layer table."""

    @property
    def layers(self):
        """The per-layer table: one dict per layer, in table order."""
        return self.get("layers", [])

    def layers_frame(self):
        """The per-layer table as a pandas DataFrame when pandas is
        installed; without pandas, the list of dicts (Stats.layers)."""
        try:
            import pandas
        except ImportError:
            return self.layers
        return pandas.DataFrame(self.layers)


def _specs(symbols):
    return [TensorSpec(n, tuple(s), np.dtype(_NUMPY.get(d, np.float32))) for n, s, d in symbols]


class Program:
    """A compiled program (accel.compile, accel.load).

    inputs / outputs: lists of TensorSpec(name, shape, dtype);
    run(inputs) -> (outputs, stats); disassemble(); save(path); to_bytes();
    hardware: the machine it was compiled for (run's default)."""

    def __init__(self, native):
        self._native = native

    @property
    def inputs(self):
        return _specs(self._native.inputs)

    @property
    def outputs(self):
        return _specs(self._native.outputs)

    @property
    def hardware(self):
        return json.loads(self._native.hardware_json)

    def disassemble(self):
        """The program as ISA dialect text (accel-translate --binary-to-isa)."""
        return self._native.disassemble()

    def save(self, path):
        """Writes the binary (what accel-compile -o writes) to `path`."""
        self._native.save(path_arg(path, "save: path"))

    def to_bytes(self):
        return self._native.to_bytes()

    def run(self, inputs, hw=None, trace=None, report=None, strict_hazards=False,
            power_gating=False, data_lanes=None):
        """Simulates the program with `inputs` {name: numpy array}.

        Returns (outputs {name: numpy array}, Stats); each output in its
        declared dtype (float32, bool for BOOL, int64 for INT64, int32; as
        Program.outputs says). hw: another machine
        (any form accel.compile takes; default: the compiler's). trace: a
        path for the Chrome trace. report: a directory for the HTML report
        (index.html, stats.json, trace.json; accel-run --report).
        data_lanes: host threads moving the simulated bytes (accel-run
        --data-lanes; None: chosen from the program and the host; the
        results never depend on it). Raises InputError for a missing or
        unknown input, or one of the wrong shape or dtype (float32 for f32
        inputs); OptionError for a trace or report that is neither None
        nor a path, or a strict_hazards / power_gating not True or False;
        SimulationError when the run fails, or when an integer output holds
        a value that is not an exact integer of its type (a compiler or
        simulator defect, named with the output and element; never
        truncated)."""
        # A whole number: 2.5 was truncated to 2, True taken as 1.
        if data_lanes is not None and (
                isinstance(data_lanes, bool) or not isinstance(data_lanes, numbers.Integral)
                or not 1 <= data_lanes <= 64):
            raise OptionError(f"data_lanes must be a whole number from 1 to 64, got {data_lanes!r}")
        inputs = named_arg(inputs, "inputs", "a dict {input name: numpy array}", InputError)
        # Only None means "none": trace=0 or "" was dropped without a word.
        outputs, stats = _accel.run(
            self._native, inputs, None if hw is None else hardware.to_json(hw),
            "" if trace is None else path_arg(trace, "trace"),
            "" if report is None else path_arg(report, "report"),
            "<python>", flag_arg(strict_hazards, "strict_hazards"),
            flag_arg(power_gating, "power_gating"), True,
            0 if data_lanes is None else int(data_lanes))
        return outputs, Stats(json.loads(stats))

    def __repr__(self):
        ins = ", ".join(f"{s.name}{list(s.shape)}" for s in self.inputs)
        outs = ", ".join(f"{s.name}{list(s.shape)}" for s in self.outputs)
        return f"<accel.Program ({ins}) -> ({outs}) on '{self.hardware['name']}'>"


def load(source, hw=None):
    """A Program from a binary file (path) or its bytes; `hw` is the
    machine its runs default to (default preset when None)."""
    if isinstance(source, (bytes, bytearray)):
        source = bytes(source)
    elif isinstance(source, (str, os.PathLike)):
        source = path_arg(source, "load: source")
    else:
        raise OptionError(f"load: source must be a path (str or os.PathLike) or the binary's "
                          f"bytes, got {source!r}")
    return Program(_accel.load(source, hardware.to_json(hw)))
