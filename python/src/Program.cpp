//===- Program.cpp - accel._accel.Program ---------------------------------===//
//
// A compiled program: its symbols (the inputs and outputs with shapes and
// element types), its binary (bytes, save) and its disassembly (the ISA
// dialect accel-translate --binary-to-isa prints). The pure-Python
// accel.Program wraps it.
//
//===----------------------------------------------------------------------===//
#include "Accel/AccelDialect.h"
#include "Bindings.h"
#include "Isa/IsaDialect.h"
#include "accel/Target/Binary.h"
#include "accel/Target/IsaProgram.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <pybind11/stl.h>

using namespace accelpy;

namespace {
/// (name, shape, dtype name) of the input or output symbols, in table order.
py::list symbols(const CompiledProgram &p, bool inputs) {
  py::list out;
  for (const accel::Symbol &s : p.program.symbols)
    if (s.isInput == inputs)
      out.append(py::make_tuple(s.name, py::tuple(py::cast(s.shape)),
                                accel::dtypeName(s.dtype)));
  return out;
}

py::bytes toBytes(const CompiledProgram &p) {
  std::vector<uint8_t> bytes;
  std::string err;
  if (!accel::writeBinary(p.program, bytes, err))
    throw Error(ErrorKind::Binary, err);
  return py::bytes(reinterpret_cast<const char *>(bytes.data()), bytes.size());
}

/// The binary's text, as accel-translate --binary-to-isa prints it: the
/// program goes through its binary form first, which drops what only the
/// compiler knows (the layers' data flow, docs/isa.md).
std::string disassemble(const CompiledProgram &p) {
  std::string text;
  runReleased([&] {
    std::vector<uint8_t> bytes;
    accel::Program binary;
    std::string err;
    if (!accel::writeBinary(p.program, bytes, err) ||
        !accel::readBinary(bytes.data(), bytes.size(), binary, err))
      throw Error(ErrorKind::Binary, err);
    mlir::DialectRegistry registry;
    registry.insert<accel::isa::IsaDialect>();
    accel::registerAccelDialect(registry);
    mlir::MLIRContext ctx(registry);
    ctx.loadAllAvailableDialects();
    mlir::OwningOpRef<mlir::ModuleOp> module =
        accel::isaFromProgram(binary, &ctx);
    if (!module)
      throw Error(ErrorKind::Binary, "the program has no ISA form");
    llvm::raw_string_ostream os(text);
    module->print(os);
  });
  return text;
}

/// accel.load: a binary file (path) or its bytes.
ProgramPtr load(const py::object &source, const std::string &hwJson) {
  auto p = std::make_shared<CompiledProgram>();
  p->hw = hardwareFromJson(hwJson);
  std::string err;
  bool ok;
  if (py::isinstance<py::bytes>(source)) {
    std::string bytes = source.cast<std::string>();
    ok = accel::readBinary(reinterpret_cast<const uint8_t *>(bytes.data()),
                           bytes.size(), p->program, err);
  } else {
    ok = accel::readBinaryFile(source.cast<std::string>(), p->program, err);
  }
  if (!ok)
    throw Error(ErrorKind::Binary, err);
  return p;
}
} // namespace

void accelpy::bindProgram(py::module_ &m) {
  py::class_<CompiledProgram, ProgramPtr>(m, "Program")
      .def_property_readonly(
          "inputs", [](const CompiledProgram &p) { return symbols(p, true); })
      .def_property_readonly(
          "outputs", [](const CompiledProgram &p) { return symbols(p, false); })
      .def_property_readonly(
          "hardware_json",
          [](const CompiledProgram &p) { return accel::hardwareToJson(p.hw); })
      .def_property_readonly(
          "layer_count",
          [](const CompiledProgram &p) { return p.program.layers.size(); })
      .def("to_bytes", &toBytes)
      .def("disassemble", &disassemble)
      .def("save", [](const CompiledProgram &p, const std::string &path) {
        std::string err;
        if (!accel::writeBinaryFile(path, p.program, err))
          throw Error(ErrorKind::Binary, err);
      });
  m.def("load", &load, py::arg("source"), py::arg("hw_json") = "");
}
