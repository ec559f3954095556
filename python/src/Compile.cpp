//===- Compile.cpp - accel._accel.compile ---------------------------------===//
//
// What accel-compile does for one model, in memory: import (ONNX file or
// bytes, MLIR file or text), attach the machine, run the default pipeline
// with the forwarded options (accel/Conversion/CompileOptions.h), validate
// the program. No file is written; every failure is an accel.errors
// exception carrying the compiler's diagnostics with their locations.
//
//===----------------------------------------------------------------------===//
#include "Accel/AccelDialect.h"
#include "Bindings.h"
#include "Graph/GraphDialect.h"
#include "Isa/IsaDialect.h"
#include "ParseText.h"
#include "accel/Conversion/CompileOptions.h"
#include "accel/Import/OnnxImporter.h"
#include "accel/Support/FileRead.h"
#include "accel/Support/ParseGuard.h"
#include "accel/Target/Validate.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <pybind11/stl.h>

using namespace accelpy;
using namespace mlir;

namespace {
/// One model and how to compile it (filled from Python's arguments).
struct Request {
  std::string path;                 ///< a file, or empty for `bytes`
  std::string bytes;                ///< ONNX ModelProto bytes or MLIR text
  bool mlir = false;                ///< the model is MLIR (file suffix or text)
  std::string hwJson;               ///< empty: the default preset
  std::vector<std::string> options; ///< "name=value"
  std::map<std::string, std::vector<int64_t>> inputShapes;
  std::map<std::string, std::string> binds; ///< name -> TensorProto file
};

/// The MLIR model of `r`, parsed with its diagnostics (and the offending
/// source line) in the error.
OwningOpRef<ModuleOp> parseMlir(const Request &r, MLIRContext &ctx) {
  std::string err;
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  if (!r.path.empty()) {
    uint64_t size;
    if (!accel::checkRegularFile(r.path, "model", accel::kMaxDataFileBytes,
                                 size, err))
      throw Error(ErrorKind::Model, err);
    auto file = llvm::MemoryBuffer::getFile(r.path);
    if (!file)
      throw Error(ErrorKind::Model, r.path + ": " + file.getError().message());
    buffer = std::move(*file);
  } else {
    buffer = llvm::MemoryBuffer::getMemBufferCopy(r.bytes, "<text>");
  }
  return parseModuleText(std::move(buffer), ctx);
}

OwningOpRef<ModuleOp> importModel(const Request &r, MLIRContext &ctx) {
  if (r.mlir) {
    if (!r.inputShapes.empty() || !r.binds.empty())
      throw Error(ErrorKind::Option,
                  "input_shapes and bind apply to ONNX models only");
    return parseMlir(r, ctx);
  }
  accel::OnnxImportOptions opts;
  opts.inputShapes = r.inputShapes;
  opts.boundInputs = r.binds;
  std::string err;
  OwningOpRef<ModuleOp> module =
      r.path.empty() ? accel::importOnnxBytes(r.bytes.data(), r.bytes.size(),
                                              ctx, opts, err, "<bytes>")
                     : accel::importOnnxFile(r.path, ctx, opts, err);
  if (!module)
    throw Error(ErrorKind::Model,
                (r.path.empty() ? "<bytes>" : r.path) + ": " + err);
  return module;
}

ProgramPtr compileRequest(const Request &r) {
  accel::CompileOptions options;
  std::string err;
  parseOptionsOrThrow(
      [&] { return accel::parseCompileOptions(r.options, options, err); },
      [&] { return err; });
  auto out = std::make_shared<CompiledProgram>();
  out->hw = hardwareFromJson(r.hwJson);

  DialectRegistry registry;
  accel::registerCompilerDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module = importModel(r, ctx);
  {
    llvm::SourceMgr sm;
    llvm::raw_string_ostream os(err);
    SourceMgrDiagnosticHandler handler(sm, &ctx, os);
    if (failed(accel::attachHardware(*module,
                                     accel::hardwareAttrFor(&ctx, out->hw))))
      throw Error(ErrorKind::Hardware, err); // names both machines
  }
  if (!accel::compileToProgram(*module, /*hwPath=*/"", options.split,
                               out->program, err, std::move(options.lowering)))
    throw Error(ErrorKind::Compile, err);
  if (!accel::validateProgram(out->program, out->hw, err))
    throw Error(ErrorKind::Compile,
                "internal error: emitted program is invalid: " + err);
  return out;
}

/// The default pipeline's own options as Python tuples (name, values,
/// default, help); values is empty for a count.
std::vector<py::tuple> pipelineOptionTuples() {
  std::vector<py::tuple> out;
  for (const accel::PipelineOption &o : accel::pipelineOptions()) {
    std::vector<std::string> values;
    for (const accel::PipelineOptionValue &v : o.values)
      values.push_back(v.value.str());
    out.push_back(py::make_tuple(o.name.str(), values, o.defaultValue.str(),
                                 o.help.str()));
  }
  return out;
}

/// split-strategy option -> the default the default pipeline gives it.
std::map<std::string, std::string> strategyDefaults() {
  std::map<std::string, std::string> out;
  for (const accel::ForwardedStrategyOption &o :
       accel::forwardedStrategyOptions())
    if (!o.pipelineDefault.empty())
      out[o.name.str()] = o.pipelineDefault.str();
  return out;
}
} // namespace

void accelpy::bindCompile(py::module_ &m) {
  m.def("compile_option_names", &accel::compileOptionNames,
        "The pipeline options accel-compile forwards: name -> is a flag");
  m.def("pipeline_options", &pipelineOptionTuples,
        "The default pipeline's own options: (name, values, default, help)");
  m.def("pipeline_strategy_defaults", &strategyDefaults,
        "split-strategy options -> the default pipeline's default");
  m.def(
      "compile",
      [](const py::object &path, const py::object &bytes, bool mlir,
         const std::string &hwJson, const std::vector<std::string> &options,
         const std::map<std::string, std::vector<int64_t>> &inputShapes,
         const std::map<std::string, std::string> &binds) {
        Request r;
        if (!path.is_none())
          r.path = path.cast<std::string>();
        else
          r.bytes = bytes.cast<std::string>();
        r.mlir = mlir;
        r.hwJson = hwJson;
        r.options = options;
        r.inputShapes = inputShapes;
        r.binds = binds;
        ProgramPtr program;
        runReleased([&] { program = compileRequest(r); });
        return program;
      },
      py::arg("path"), py::arg("data"), py::arg("mlir"), py::arg("hw_json"),
      py::arg("options"), py::arg("input_shapes"), py::arg("bind"));
}
