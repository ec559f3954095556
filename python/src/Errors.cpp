//===- Errors.cpp - C++ failures as accel.errors exceptions ---------------===//
//
// The classes live in the pure-Python module accel.errors (so users can
// catch and subclass them without the extension); the translator looks them
// up when a failure crosses into Python, and never lets a C++ exception
// escape as anything but a Python exception.
//
//===----------------------------------------------------------------------===//
#include "Bindings.h"
#include "accel/Support/ParseGuard.h"

using namespace accelpy;

static const char *className(ErrorKind kind) {
  switch (kind) {
  case ErrorKind::Generic:
    return "Error";
  case ErrorKind::Model:
    return "ModelError";
  case ErrorKind::Option:
    return "OptionError";
  case ErrorKind::Hardware:
    return "HardwareError";
  case ErrorKind::Compile:
    return "CompileError";
  case ErrorKind::Binary:
    return "BinaryError";
  case ErrorKind::Input:
    return "InputError";
  case ErrorKind::Simulation:
    return "SimulationError";
  }
  return "Error";
}

accel::HardwareDesc accelpy::hardwareFromJson(const std::string &json) {
  accel::HardwareDesc hw = accel::defaultHardware();
  std::string err;
  if (!json.empty() && !accel::parseHardwareDesc(json, hw, err))
    throw Error(ErrorKind::Hardware, "hardware description: " + err);
  return hw;
}

void accelpy::runReleased(const std::function<void()> &body) {
  std::exception_ptr failure;
  py::gil_scoped_release release;
  accel::runOnLargeStack([&] {
    try {
      body();
    } catch (...) {
      failure = std::current_exception();
    }
    return 0;
  });
  if (failure)
    std::rethrow_exception(failure);
}

void accelpy::bindErrors(py::module_ &m) {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const Error &e) {
      py::object cls =
          py::module_::import("accel.errors").attr(className(e.kind));
      PyErr_SetString(cls.ptr(), e.what());
    }
  });
}
