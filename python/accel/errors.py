"""The exceptions of the accel package (docs/python.md "Errors").

Every failure of the compiler or simulator raises a subclass of
`accel.Error`; the message is the compiler's own diagnostic, with its
location when it has one. The classes live here, in pure Python, so that
they can be caught (and pickled back from a sweep worker) without the
extension.
"""


class Error(Exception):
    """Base class of every accel failure."""


class ModelError(Error):
    """The model cannot be read or imported (file, ONNX, MLIR syntax)."""


class OptionError(Error, ValueError):
    """A pipeline option with an unknown name or a value it does not take."""


class HardwareError(Error, ValueError):
    """An invalid hardware description, preset name or override."""


class CompileError(Error):
    """A pass failed; the message carries its diagnostics."""


class BinaryError(Error):
    """A binary cannot be read or written."""


class InputError(Error, ValueError):
    """A run input is missing, unknown, or has the wrong shape or dtype."""


class SimulationError(Error):
    """The simulator refused or failed the run."""


# The name of the former subprocess API; kept as a contract.
AccelError = Error
