//===- accel-import.cpp - ONNX model -> graph-dialect MLIR ----------------===//
//
//   accel-import MODEL.onnx [--input-shape NAME=1x3x224x224]...
//                [--bind NAME=TENSOR.pb]... [-o OUT.mlir]
//
// Prints the module produced by accel::importOnnxFile (see docs/importer.md).
// MODEL "-" reads the model from stdin. Errors go to stderr as
// "accel-import: error: <message>" with exit code 1.
//
//===----------------------------------------------------------------------===//
#include "accel/Import/OnnxImporter.h"
#include "accel/Support/FileRead.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

/// --help shows these options only, not every option LLVM links in.
static cl::OptionCategory importCategory("accel-import options");

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<model.onnx | ->"),
                                      cl::cat(importCategory));
static cl::opt<std::string>
    outputFile("o", cl::desc("output file (default: stdout)"),
               cl::cat(importCategory), cl::value_desc("file"), cl::init("-"));
static cl::list<std::string>
    inputShapes("input-shape", cl::cat(importCategory),
                cl::desc("static shape of a graph input, NAME=DxDx... "
                         "(repeatable; needed for symbolic dimensions)"),
                cl::value_desc("name=shape"));

static cl::list<std::string>
    bindings("bind", cl::cat(importCategory),
             cl::desc("bind a graph input to a constant read from a serialized "
                      "onnx TensorProto, NAME=FILE.pb (repeatable; for integer "
                      "inputs such as shapes, axes, indices)"),
             cl::value_desc("name=file"));

static cl::opt<bool> printConstantInputs(
    "print-constant-inputs", cl::cat(importCategory),
    cl::desc("print the graph inputs that must be bound to constants "
             "(--bind), one per line, and exit"),
    cl::init(false));

static int fail(const std::string &msg) {
  llvm::errs() << "accel-import: error: " << msg << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  // MLIR's printing options (e.g. --mlir-print-debuginfo) still work; the
  // help lists this tool's own.
  cl::HideUnrelatedOptions(importCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "accel ONNX importer: prints the graph-dialect "
                              "module of an ONNX model\n");

  if (printConstantInputs) {
    std::vector<std::string> names;
    std::string err;
    if (!accel::onnxConstantInputs(inputFile, names, err))
      return fail(err);
    for (const std::string &name : names)
      llvm::outs() << name << "\n";
    return 0;
  }

  accel::OnnxImportOptions opts;
  for (const std::string &spec : inputShapes) {
    size_t eq = spec.rfind('=');
    if (eq == std::string::npos || eq == 0)
      return fail("--input-shape expects NAME=DxDx..., got '" + spec + "'");
    std::vector<int64_t> dims;
    if (!accel::parseShapeString(spec.substr(eq + 1), dims))
      return fail("--input-shape '" + spec +
                  "': the shape must be positive integers separated by 'x'");
    if (!opts.inputShapes.emplace(spec.substr(0, eq), dims).second)
      return fail("--input-shape given twice for '" + spec.substr(0, eq) + "'");
  }

  for (const std::string &spec : bindings) {
    size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
      return fail("--bind expects NAME=FILE.pb, got '" + spec + "'");
    if (!opts.boundInputs.emplace(spec.substr(0, eq), spec.substr(eq + 1))
             .second)
      return fail("--bind given twice for '" + spec.substr(0, eq) + "'");
  }

  mlir::MLIRContext ctx;
  std::string err;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (inputFile == "-") {
    std::string bytes;
    if (!accel::readStdin("ONNX model", accel::kMaxProtobufFileBytes, bytes,
                          err))
      return fail(err);
    module = accel::importOnnxBytes(bytes.data(), bytes.size(), ctx, opts, err,
                                    "<stdin>", ".");
  } else {
    module = accel::importOnnxFile(inputFile, ctx, opts, err);
  }
  if (!module)
    return fail(err);

  std::error_code ec;
  auto out = std::make_unique<llvm::ToolOutputFile>(outputFile, ec,
                                                    llvm::sys::fs::OF_None);
  if (ec)
    return fail("cannot open '" + outputFile + "': " + ec.message());
  module->print(out->os());
  out->os() << "\n";
  out->keep();
  return 0;
}
