//===- accel-compile.cpp - One-command compiler driver --------------------===//
//
//   accel-compile MODEL -o OUT [--hw FILE] [--input-shape NAME=1x3x224x224]...
//                 [--bind NAME=FILE]... [--emit=bin|isa|graph]
//                 [--sparse-weights=off|auto] [--sparse-threshold=F]
//                 [--load-balance] [--sfu-mode=chained|decoupled]
//
// MODEL is an .onnx file (imported with the ONNX library) or an .mlir file in
// the graph dialect or ONNX-lowered TOSA / linalg. The default pipeline
// (accel-default-pipeline) lowers it to one isa.program, which is written as
// a binary (default), or printed as ISA / graph IR for inspection.
//
//===----------------------------------------------------------------------===//
#include "Graph/GraphDialect.h"
#include "Isa/IsaDialect.h"
#include "accel/Conversion/Passes.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Import/OnnxImporter.h"
#include "accel/Support/FileRead.h"
#include "accel/Support/ParseGuard.h"
#include "accel/Target/Binary.h"
#include "accel/Target/IsaProgram.h"
#include "accel/Target/Validate.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::opt<std::string> inputPath(cl::Positional,
                                      cl::desc("<model.onnx|model.mlir>"),
                                      cl::Required);
static cl::opt<std::string> outputPath("o", cl::desc("output file"),
                                       cl::value_desc("file"), cl::Required);
static cl::opt<std::string> hwPath("hw",
                                   cl::desc("hardware description JSON "
                                            "(default: built-in preset)"),
                                   cl::value_desc("file"), cl::init(""));
static cl::list<std::string>
    inputShapes("input-shape",
                cl::desc("static shape of an input: NAME=1x3x224x224"),
                cl::value_desc("name=shape"));
static cl::list<std::string>
    bindInputs("bind",
               cl::desc("freeze an ONNX input to the values of a TensorProto "
                        ".pb file (shapes, axes, indices): NAME=FILE"),
               cl::value_desc("name=file"));
static cl::opt<std::string>
    depthwiseMode("depthwise",
                  cl::desc("depthwise conv2d lowering: sw (sliding-window "
                           "weight queue, default) or gemm (implicit GEMM "
                           "per group)"),
                  cl::value_desc("sw|gemm"), cl::init("sw"));
static cl::opt<std::string>
    convMode("conv",
             cl::desc("regular conv2d (groups == 1) lowering: gemm (implicit "
                      "GEMM, default) or rq (rotating weight-queue kernel; "
                      "layers it cannot take fall back to gemm)"),
             cl::value_desc("gemm|rq"), cl::init("gemm"));
static cl::opt<std::string> sparseWeights(
    "sparse-weights",
    cl::desc("off | auto (default): load constant weights whose zero fraction "
             "reaches --sparse-threshold as sparse (value, index) lists"),
    cl::value_desc("off|auto"), cl::init("auto"));
static cl::opt<double> sparseThreshold(
    "sparse-threshold",
    cl::desc("minimum zero fraction of a layer's weights for sparse lists "
             "(default 0.5)"),
    cl::value_desc("F"), cl::init(0.5));
static cl::opt<bool>
    loadBalance("load-balance",
                cl::desc("set the MAC load-balancing bit on GEMM MACs"),
                cl::init(false));
static cl::opt<std::string>
    sfuMode("sfu-mode",
            cl::desc("chained (default) | decoupled: how fused activations "
                     "leave the accumulators"),
            cl::value_desc("chained|decoupled"), cl::init("chained"));
enum class Emit { Bin, Isa, Graph };
static cl::opt<Emit> emit(
    "emit", cl::desc("what to write"), cl::init(Emit::Bin),
    cl::values(clEnumValN(Emit::Bin, "bin", "the accelerator binary (default)"),
               clEnumValN(Emit::Isa, "isa", "the ISA dialect after lowering"),
               clEnumValN(Emit::Graph, "graph",
                          "the graph dialect before lowering")));

static int fail(const std::string &msg) {
  llvm::errs() << "accel-compile: error: " << msg << "\n";
  return 1;
}

static int compileMain(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "accel model compiler\n");
  if (depthwiseMode != "sw" && depthwiseMode != "gemm")
    return fail("--depthwise must be 'sw' or 'gemm', got '" + depthwiseMode +
                "'");
  if (convMode != "gemm" && convMode != "rq")
    return fail("--conv must be 'gemm' or 'rq', got '" + convMode + "'");

  DialectRegistry registry;
  registry.insert<accel::graph::GraphDialect, accel::isa::IsaDialect,
                  func::FuncDialect, arith::ArithDialect, tensor::TensorDialect,
                  tosa::TosaDialect, linalg::LinalgDialect>();
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();

  if (sparseWeights != "off" && sparseWeights != "auto")
    return fail("--sparse-weights expects off or auto, got '" + sparseWeights +
                "'");
  if (!(sparseThreshold >= 0.0 && sparseThreshold <= 1.0))
    return fail("--sparse-threshold expects a zero fraction in [0, 1], got " +
                std::to_string(sparseThreshold));
  if (sfuMode != "chained" && sfuMode != "decoupled")
    return fail("--sfu-mode expects chained or decoupled, got '" + sfuMode +
                "'");

  accel::HardwareDesc hw = accel::defaultHardware();
  if (!hwPath.empty()) {
    std::string err;
    if (!accel::loadHardwareDesc(hwPath, hw, err))
      return fail(err); // err names the file
  }

  // Front end.
  OwningOpRef<ModuleOp> module;
  llvm::StringRef path(inputPath);
  if (path.ends_with(".onnx")) {
    accel::OnnxImportOptions opts;
    for (const std::string &s : inputShapes) {
      size_t eq = s.find('=');
      std::vector<int64_t> dims;
      if (eq == std::string::npos ||
          !accel::parseShapeString(s.substr(eq + 1), dims)) {
        llvm::SmallVector<llvm::StringRef> parts;
        llvm::StringRef(s)
            .substr(eq == std::string::npos ? 0 : eq + 1)
            .split(parts, 'x');
        if (llvm::is_contained(parts, "0"))
          return fail("--input-shape '" + s +
                      "': zero-sized dimensions are not supported (empty "
                      "tensors)");
        return fail("--input-shape expects NAME=DIMxDIM..., got '" + s + "'");
      }
      opts.inputShapes[s.substr(0, eq)] = dims;
    }
    for (const std::string &s : bindInputs) {
      size_t eq = s.find('=');
      if (eq == std::string::npos || eq == 0)
        return fail("--bind expects NAME=FILE, got '" + s + "'");
      opts.boundInputs[s.substr(0, eq)] = s.substr(eq + 1);
    }
    std::string err;
    module = accel::importOnnxFile(inputPath, ctx, opts, err);
    if (!module)
      return fail(inputPath + ": " + err);
  } else {
    if (!inputShapes.empty() || !bindInputs.empty())
      return fail("--input-shape and --bind apply to .onnx models only");
    std::string err;
    uint64_t size;
    if (inputPath != "-" &&
        !accel::checkRegularFile(inputPath, "input file",
                                 accel::kMaxDataFileBytes, size, err))
      return fail(err);
    llvm::SourceMgr sm;
    SourceMgrDiagnosticHandler handler(sm, &ctx);
    if (!accel::checkFileNesting(inputPath, llvm::errs()))
      return 1;
    module = parseSourceFile<ModuleOp>(inputPath, sm, &ctx);
    if (!module)
      return 1; // the parser reported the error
  }

  if (emit == Emit::Graph) {
    std::string err;
    auto out = openOutputFile(outputPath, &err);
    if (!out)
      return fail(err);
    module->print(out->os());
    out->keep();
    return 0;
  }

  // Middle and back end.
  {
    llvm::SourceMgr sm;
    SourceMgrDiagnosticHandler handler(sm, &ctx);
    PassManager pm(&ctx);
    accel::ConvertGraphToIsaOptions lowering;
    lowering.depthwise = depthwiseMode;
    lowering.conv = convMode;
    lowering.sparseWeights = sparseWeights;
    lowering.sparseThreshold = sparseThreshold;
    lowering.loadBalance = loadBalance;
    lowering.sfuMode = sfuMode;
    accel::buildDefaultPipeline(pm, hwPath, lowering);
    if (failed(pm.run(*module)))
      return 1; // diagnostics already printed
  }
  accel::isa::ProgramOp programOp;
  module->walk([&](accel::isa::ProgramOp p) { programOp = p; });
  if (!programOp)
    return fail("the pipeline produced no isa.program");

  std::string err;
  auto out = openOutputFile(outputPath, &err);
  if (!out)
    return fail(err);
  if (emit == Emit::Isa) {
    module->print(out->os());
    out->keep();
    return 0;
  }
  accel::Program program;
  if (failed(accel::programFromIsa(programOp, program)))
    return 1;
  if (!accel::validateProgram(program, hw, err))
    return fail("internal error: emitted program is invalid: " + err);
  std::vector<uint8_t> bytes;
  if (!accel::writeBinary(program, bytes, err))
    return fail(err);
  out->os().write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  out->keep();
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Parsing, passes and printing recurse per level of IR nesting.
  return accel::runOnLargeStack([&] { return compileMain(argc, argv); });
}
