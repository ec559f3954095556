"""Fixtures of the accel package's pytest suite (docs/python.md).

Run by ctest (python-pytest) with PYTHONPATH at the build's package and
ACCEL_BIN_DIR at its tools; by hand: PYTHONPATH=build/python
/usr/bin/python3 -m pytest -q test/python
"""
import os

import numpy as np
import pytest

SRC = os.environ.get("ACCEL_SOURCE_DIR",
                     os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
BIN = os.environ.get("ACCEL_BIN_DIR", os.path.join(SRC, "build", "bin"))
SMALL_CNN = os.path.join(SRC, "examples", "small_cnn.onnx")


@pytest.fixture(scope="session")
def accel():
    import accel as module
    return module


@pytest.fixture(scope="session")
def program(accel):
    return accel.compile(SMALL_CNN)


@pytest.fixture(scope="session")
def image():
    return np.load(os.path.join(SRC, "examples", "small_cnn_image.npy"))


@pytest.fixture(scope="session")
def expected():
    return np.load(os.path.join(SRC, "examples", "small_cnn_expected.npy"))


def tool(name):
    return os.path.join(BIN, name)
