"""The registry of passes and pipelines, and the typed compile options.

accel.passes() lists what accel-opt knows (upstream passes, ours, the
named pipelines) with each option's type, allowed values and help, parsed
from the registry's help text (the extension captures it; MLIR prints it
nowhere else). accel.compile's keyword options are the options
accel-compile forwards to the default pipeline (its --NAME=VALUE
options): convert-graph-to-isa's, split-strategy's forwarded ones and the
pipeline's own split / fuse / rnn options; Python names use '_' for '-'.
"""
import copy
import functools
import os
import re
from collections.abc import Mapping

import numpy as np

from . import _accel
from .errors import OptionError


def _pipeline_options():
    """{name: spec} of the default pipeline's own options
    (accel::pipelineOptions, lib/Conversion/Pipelines.cpp: the table
    accel-compile's parser and help read too); a count is an "int"."""
    return {name: {"name": name, "type": "enum" if values else "int", "values": values,
                   "default": default, "help": help_text}
            for name, values, default, help_text in _accel.pipeline_options()}


_TYPES = {"<value>": "enum", "<number>": "float", "<string>": "str", "<int>": "int",
          "<uint>": "int", "<long>": "int", "<ulong>": "int", "<N>": "int"}
_LINE = re.compile(r"^(\s*)(--|=)([^\s=]+)(?:=(<[^>]+>))?\s*(?:-\s+(.*))?$")


def _parse_registry(text):
    """{name: {"name", "kind", "description", "options": {opt: spec}}} from
    the help text: a "Passes:" / "Pass Pipelines:" header, then per entry a
    "--name - description" line and, indented further, its "--option=<type>"
    lines, each followed by its "=value" lines."""
    entries, kind, entry, option, entry_indent = {}, None, None, None, None
    for line in text.splitlines():
        header = line.strip()
        if header in ("Passes:", "Pass Pipelines:"):
            kind = "pipeline" if "Pipeline" in header else "pass"
            entry_indent = None
            continue
        m = _LINE.match(line)
        if not m or kind is None:
            continue
        indent, dash, name, vtype, help_text = m.groups()
        help_text = (help_text or "").strip()
        if entry_indent is None and dash == "--":
            entry_indent = len(indent)
        if dash == "=":
            if option is not None:
                option["values"].append(name)
        elif len(indent) <= entry_indent:
            entry = {"name": name, "kind": kind, "description": help_text.lstrip("- ").strip(),
                     "options": {}}
            entries[name] = entry
            option = None
        elif entry is not None:
            option = {"name": name, "type": _TYPES.get(vtype, "str") if vtype else "bool",
                      "values": [], "help": help_text}
            entry["options"][name] = option
    return entries


def _add_defaults(entry):
    """Each option's default, from the pass's printed option set (our
    passes; the registry help does not print defaults)."""
    if entry["kind"] != "pass" or not entry["options"] or entry.get("_defaults"):
        return
    entry["_defaults"] = True
    for item in _accel.pass_defaults(entry["name"]).split():
        key, _, value = item.partition("=")
        if key in entry["options"]:
            entry["options"][key]["default"] = value


@functools.lru_cache(maxsize=None)
def registry():
    return _parse_registry(_accel.registry_help())


def entries():
    """The registry's entries (options without defaults: printing them means
    instantiating every upstream pass, not all of which survive that)."""
    return [copy.deepcopy({k: v for k, v in e.items() if not k.startswith("_")})
            for e in registry().values()]


@functools.lru_cache(maxsize=None)
def compile_options():
    """{option name: {"name", "type", "values", "default", "help"}} of the
    options accel.compile accepts (names with '-'; '_' in Python)."""
    reg = registry()
    for name in ("convert-graph-to-isa", "split-strategy"):
        _add_defaults(reg[name])
    sources = {**reg["convert-graph-to-isa"]["options"], **reg["split-strategy"]["options"]}
    specs = {}
    own = _pipeline_options()
    # Defaults the default pipeline gives split-strategy's forwarded options.
    strategy_defaults = _accel.pipeline_strategy_defaults()
    for name in _accel.compile_option_names():
        if name in own:
            spec = own[name]
        else:
            spec = dict(sources[name])
            if name in strategy_defaults:
                spec["default"] = strategy_defaults[name]
        specs[name] = spec
    return specs


def _describe(spec):
    if spec["type"] == "enum":
        return "one of " + ", ".join(spec["values"])
    return {"bool": "True or False", "int": "an integer", "float": "a number",
            "str": "a string"}[spec["type"]]


def _format(spec, value):
    """The pipeline's text of `value`, checked against the option's type."""
    name, kind = spec["name"], spec["type"]
    ok = {"bool": isinstance(value, bool),
          "int": isinstance(value, int) and not isinstance(value, bool),
          "float": isinstance(value, (int, float)) and not isinstance(value, bool),
          "str": isinstance(value, str),
          "enum": isinstance(value, str) and value in spec["values"]}[kind]
    if not ok:
        raise OptionError(f"option '{name.replace('-', '_')}': {value!r} is not valid; "
                          f"expected {_describe(spec)}")
    if kind == "bool":
        return "true" if value else "false"
    if kind != "float":
        return str(value)
    try:
        return repr(float(value))
    except OverflowError:  # an int beyond a double (10**400)
        raise OptionError(f"option '{name.replace('-', '_')}': {value!r} is not valid; "
                          f"expected a number a double can hold") from None


def to_pairs(options):
    """["name=value", ...] for the extension from Python keyword options."""
    if not options:
        return []
    specs = compile_options()
    pairs = []
    for key, value in options.items():
        name = key.replace("_", "-")
        if name not in specs:
            raise OptionError(f"unknown option '{key}'; options: "
                              + ", ".join(sorted(n.replace("-", "_") for n in specs)))
        pairs.append(f"{name}={_format(specs[name], value)}")
    return pairs


# Checks of the API's plain arguments. The extension would take a path up
# to its first NUL byte (writing another file), None as False and 2 as
# True, and answer other types with pybind11's TypeError.


def path_arg(value, what):
    """`value` (str, bytes or os.PathLike) as a str path; OptionError for
    another type (an int is not a path: open() takes it as a descriptor),
    an empty path or one with a NUL byte."""
    if isinstance(value, (str, bytes, os.PathLike)):
        try:
            text = os.fsdecode(value)
        except TypeError:  # __fspath__ returned neither str nor bytes
            text = ""
        if text and "\0" not in text:
            return text
    raise OptionError(f"{what} must be a file path (str or os.PathLike) without NUL bytes, "
                      f"got {value!r}")


def flag_arg(value, what):
    """`value` as a bool: True, False or a numpy.bool_ only."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise OptionError(f"{what} must be True or False, got {value!r}")


def _shown(value):
    """The type of `value`, and its repr when short (not an array's)."""
    text = repr(value)
    short = len(text) <= 60 and "\n" not in text
    return f"{type(value).__name__} {text}" if short else type(value).__name__


def named_arg(value, what, expected, error=OptionError):
    """`value` as a dict when it is a Mapping with str keys, else `error`:
    names went through str(), so {5: x} named "5" and two keys with one
    str() collapsed into one."""
    if not isinstance(value, Mapping):
        raise error(f"{what} must be {expected}, got {_shown(value)}")
    for key in value:
        if not isinstance(key, str):
            raise error(f"{what}: the name {key!r} is not a string; expected {expected}")
    return dict(value)
