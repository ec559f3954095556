//===- Bindings.h - Pieces of the accel._accel extension --------*- C++ -*-===//
//
// The extension is split by job: errors (Errors.cpp), the compiled program
// (Program.cpp), compilation (Compile.cpp), simulation (Run.cpp) and the
// pass registry / accel-opt pipelines (Opt.cpp). Each registers its part of
// the module here; Module.cpp calls them in order.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_PYTHON_BINDINGS_H
#define ACCEL_PYTHON_BINDINGS_H

#include "accel/Hardware/HardwareDesc.h"
#include "accel/Target/Program.h"

#include <pybind11/pybind11.h>

#include <exception>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

namespace accelpy {
namespace py = pybind11;

/// Which accel.errors class a failure raises (python/accel/errors.py).
enum class ErrorKind {
  Generic,    ///< accel.Error
  Model,      ///< accel.ModelError: the model cannot be read or imported
  Option,     ///< accel.OptionError: a bad pipeline option name or value
  Hardware,   ///< accel.HardwareError: the description is invalid
  Compile,    ///< accel.CompileError: a pass failed (diagnostics attached)
  Binary,     ///< accel.BinaryError: a binary cannot be read or written
  Input,      ///< accel.InputError: wrong, missing or unknown run inputs
  Simulation, ///< accel.SimulationError: the simulator refused or failed
};

/// Thrown by the C++ side, turned into the accel.errors class of `kind`
/// (with the GIL held) by the translator Errors.cpp registers.
struct Error : std::runtime_error {
  ErrorKind kind;
  Error(ErrorKind kind, const std::string &message)
      : std::runtime_error(message), kind(kind) {}
};

/// A compiled program and the machine it was compiled for (the default
/// machine of Program.run).
struct CompiledProgram {
  accel::Program program;
  accel::HardwareDesc hw;
};
using ProgramPtr = std::shared_ptr<CompiledProgram>;

/// The description `json` gives (empty: the built-in default preset);
/// throws HardwareError with the validator's message.
accel::HardwareDesc hardwareFromJson(const std::string &json);

/// Runs `body` without the GIL on a thread with the tools' large stack
/// (parsing and passes recurse per level of IR nesting); an exception it
/// throws is rethrown here.
void runReleased(const std::function<void()> &body);

/// What `print` writes to file descriptor `fd` (STDOUT_FILENO: also
/// llvm::outs(), STDERR_FILENO: llvm::errs()), read from a pipe by a second
/// thread so that any amount fits. One capture at a time in the process;
/// an exception of `print` is rethrown after the descriptor is restored.
std::string captureFd(int fd, const std::function<void()> &print);

/// Runs `parse` (an option or pipeline parser; true on success) with
/// stderr captured, since llvm::cl reports a value it cannot parse ("ep=x")
/// there. On failure throws OptionError: `message()` (read after the
/// parse), then llvm::cl's reason; on success what was written (a
/// warning) goes back to stderr.
void parseOptionsOrThrow(const std::function<bool()> &parse,
                         const std::function<std::string()> &message);

void bindErrors(py::module_ &m);
void bindProgram(py::module_ &m);
void bindCompile(py::module_ &m);
void bindRun(py::module_ &m);
void bindOpt(py::module_ &m);

} // namespace accelpy

#endif
