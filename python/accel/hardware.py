"""Hardware descriptions from the forms accel.compile accepts.

`hw` is one of
  - None: the built-in default preset (hw/default.json);
  - a preset name ("default", "large", ...): hw/<name>.json of the source tree;
  - a path to a JSON description (str or os.PathLike ending in .json, or an
    existing file);
  - a dict: a description (fields absent keep the default preset's values,
    as in a JSON file), or overrides of a preset: a dict with a "preset"
    key and/or dotted keys, e.g. {"preset": "large", "grid.rows": 4,
    "pe.mac_lanes": 128} or {"preset": "default", "overrides": {...}}.
    A dotted key walks nested objects; an integer part indexes a list
    ("memory.channels.0.bytes_per_cycle").
Keys are strings; numpy scalars (np.int64, np.float32, np.bool_) are
taken as Python's int, float and bool.
The result is JSON text for the C++ reader, which validates it: an unknown
field or a bad value raises HardwareError with the validator's message.
"""
import json
import os
from collections.abc import Mapping

import numpy as np

from . import _accel
from .errors import HardwareError


def presets():
    """The names of the presets in hw/."""
    return sorted(f[:-5] for f in os.listdir(_accel.HW_DIR) if f.endswith(".json"))


def _preset_dict(name):
    # A name presets() lists, not any file: "../hw/default" read one
    # outside hw/.
    if not isinstance(name, str) or name not in presets():
        raise HardwareError(f"no hardware preset {name!r} (presets: {', '.join(presets())})")
    with open(os.path.join(_accel.HW_DIR, f"{name}.json")) as f:
        return json.load(f)


def _list_index(node, part):
    """The element index `part` names in list `node`: digits only, so that
    "channels.-1" is not Python's last element."""
    if not part.isdigit() or int(part) >= len(node):
        raise IndexError(part)
    return int(part)


def _set_path(desc, key, value):
    node = desc
    parts = key.split(".")
    try:
        for part in parts[:-1]:
            node = (node[_list_index(node, part)] if isinstance(node, list)
                    else node.setdefault(part, {}))
        last = parts[-1]
        if isinstance(node, list):
            node[_list_index(node, last)] = value
        else:
            node[last] = value
    except (IndexError, ValueError, TypeError, AttributeError):
        raise HardwareError(f"override '{key}': no such field in the description") from None


def _merge(base, extra, prefix=""):
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge(base[key], value, prefix + key + ".")
        else:
            base[key] = value


def _check_keys(mapping, what):
    for key in mapping:
        if not isinstance(key, str):
            raise HardwareError(f"{what}: the key {key!r} is not a string; fields are named "
                                f"by strings (\"grid.rows\")")


def _plain(value, key):
    """A copy of `value` that json can write: numpy scalars as Python's
    (json refuses np.int64 and np.float32); HardwareError naming the field
    `key` for a value JSON cannot hold."""
    if isinstance(value, dict):
        _check_keys(value, f"hw field '{key}'" if key else "hw")
        return {k: _plain(v, f"{key}.{k}" if key else k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, f"{key}.{i}") for i, v in enumerate(value)]
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    raise HardwareError(f"hw field '{key}': {value!r} ({type(value).__name__}) is not a JSON "
                        f"value; expected a number, string, bool, list or dict")


def _overrides(hw):
    """{field: value} of an override dict: its "overrides" and other keys."""
    extra = hw.get("overrides", {})
    # dict() took a list of pairs too, and None or 5 raised TypeError.
    if not isinstance(extra, Mapping):
        raise HardwareError(f"hw 'overrides' must be a dict {{field: value}}, got {extra!r}")
    _check_keys(extra, "hw 'overrides'")
    overrides = dict(extra)
    overrides.update({k: v for k, v in hw.items() if k not in ("preset", "overrides")})
    return {key: _plain(value, key) for key, value in overrides.items()}


def description(hw):
    """The description dict of `hw` (any accepted form) before validation."""
    if hw is None:
        return _preset_dict("default")
    if isinstance(hw, dict):
        _check_keys(hw, "hw")
        is_override = "preset" in hw or "overrides" in hw or any("." in k for k in hw)
        if not is_override:
            return _plain(hw, "")
        desc = _preset_dict(hw.get("preset", "default"))
        for key, value in _overrides(hw).items():
            if "." in key:
                _set_path(desc, key, value)
            elif isinstance(value, dict) and isinstance(desc.get(key), dict):
                _merge(desc[key], value)
            else:
                desc[key] = value
        return desc
    if isinstance(hw, (str, os.PathLike)):
        path = os.fspath(hw)
        if path.endswith(".json") or os.path.sep in path or os.path.isfile(path):
            try:
                with open(path) as f:
                    return json.load(f)
            except OSError as e:
                raise HardwareError(f"hardware description '{path}': {e.strerror}") from None
            except ValueError as e:
                raise HardwareError(f"hardware description '{path}': {e}") from None
        return _preset_dict(path)
    raise HardwareError(f"hw must be None, a preset name, a path or a dict, not {type(hw).__name__}")


def to_json(hw):
    """JSON text of `hw` for the extension ("" = the built-in default)."""
    return "" if hw is None else json.dumps(description(hw))


def resolve(hw):
    """The full, validated description of `hw` as a dict (every field)."""
    return json.loads(_accel.hardware_json(to_json(hw)))
