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
The result is JSON text for the C++ reader, which validates it: an unknown
field or a bad value raises HardwareError with the validator's message.
"""
import json
import os

from . import _accel
from .errors import HardwareError


def presets():
    """The names of the presets in hw/."""
    return sorted(f[:-5] for f in os.listdir(_accel.HW_DIR) if f.endswith(".json"))


def _preset_dict(name):
    path = os.path.join(_accel.HW_DIR, f"{name}.json")
    if not os.path.isfile(path):
        raise HardwareError(f"no hardware preset '{name}' (presets: {', '.join(presets())})")
    with open(path) as f:
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


def description(hw):
    """The description dict of `hw` (any accepted form) before validation."""
    if hw is None:
        return _preset_dict("default")
    if isinstance(hw, dict):
        is_override = "preset" in hw or "overrides" in hw or any("." in k for k in hw)
        if not is_override:
            return json.loads(json.dumps(hw))
        desc = _preset_dict(hw.get("preset", "default"))
        overrides = dict(hw.get("overrides", {}))
        overrides.update({k: v for k, v in hw.items() if k not in ("preset", "overrides")})
        for key, value in overrides.items():
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
