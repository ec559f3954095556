//===- accel-compile.cpp - One-command compiler driver --------------------===//
//
//   accel-compile MODEL -o OUT [--hw FILE] [--input-shape NAME=1x3x224x224]...
//                 [--bind NAME=FILE]... [--emit=bin|isa|graph]
//                 [--depthwise=sw|gemm] [--conv=gemm|rq]
//                 [--sparse-weights=off|auto] [--sparse-threshold=F]
//                 [--load-balance] [--sfu-mode=chained|decoupled]
//                 [--split=partition|labels|off] [--parallel=best|auto|...]
//                 [--rounding=ceil|floor|balanced|clusters]
//                 [--policy=error|...] [--balance-clusters=true|false]
//                 [--timing]
//
// The lowering options (--depthwise and after) are convert-graph-to-isa's own
// options (include/accel/Conversion/Passes.td), declared once: the driver
// forwards `--NAME=VALUE` / `--NAME VALUE` / `--FLAG` to that pass's parser,
// which checks the values; `--help` lists them with their allowed values.
// `--split` and split-strategy's `--parallel`, `--rounding`, `--policy`,
// `--balance-clusters` are
// forwarded the same way to the default pipeline (accel::parseSplitOptions).
// `--hw` attaches the description to the module as accel.hw (the function
// of accel-attach-hardware), where every pass reads it. `--timing` prints
// the wall and CPU time of the import, of every pass (MLIR's pass timing)
// and of the binary's conversion, validation and writing on stderr.
//
// MODEL is an .onnx file (imported with the ONNX library) or an .mlir file in
// the graph dialect or ONNX-lowered TOSA / linalg. The default pipeline
// (accel-default-pipeline) lowers it to one isa.program, which is written as
// a binary (default), or printed as ISA / graph IR for inspection.
//
//===----------------------------------------------------------------------===//
#include "Accel/AccelDialect.h"
#include "CompileNetworks.h"
#include "Graph/GraphDialect.h"
#include "Isa/IsaDialect.h"
#include "accel/Conversion/CompileOptions.h"
#include "accel/Conversion/Passes.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Import/OnnxImporter.h"
#include "accel/Support/FileRead.h"
#include "accel/Support/ParseGuard.h"
#include "accel/Target/Binary.h"
#include "accel/Target/IsaProgram.h"
#include "accel/Target/Validate.h"
#include "accel/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include <climits>
#include <map>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory compileCategory("accel-compile options");

// Not cl::Required: `--help` is answered after parsing (it adds the
// lowering options), so a missing one is checked in main.
static cl::opt<std::string> inputPath(cl::Positional, cl::cat(compileCategory),
                                      cl::desc("<model.onnx|model.mlir>"));
static cl::opt<std::string> outputPath("o", cl::desc("output file"),
                                       cl::cat(compileCategory),
                                       cl::value_desc("file"));
static cl::opt<std::string> hwPath("hw", cl::cat(compileCategory),
                                   cl::desc("hardware description JSON "
                                            "(default: built-in preset)"),
                                   cl::value_desc("file"), cl::init(""));
static cl::list<std::string>
    inputShapes("input-shape", cl::cat(compileCategory),
                cl::desc("static shape of an input: NAME=1x3x224x224"),
                cl::value_desc("name=shape"));
static cl::list<std::string>
    bindInputs("bind", cl::cat(compileCategory),
               cl::desc("freeze an ONNX input to the values of a TensorProto "
                        ".pb file (shapes, axes, indices): NAME=FILE"),
               cl::value_desc("name=file"));
enum class Emit { Bin, Isa, Graph, Plan };
static cl::opt<Emit> emit(
    "emit", cl::desc("what to write"), cl::init(Emit::Bin),
    cl::cat(compileCategory),
    cl::values(clEnumValN(Emit::Bin, "bin", "the accelerator binary (default)"),
               clEnumValN(Emit::Isa, "isa", "the ISA dialect after lowering"),
               clEnumValN(Emit::Graph, "graph",
                          "the graph dialect before lowering"),
               clEnumValN(Emit::Plan, "plan",
                          "with --networks: the multinet.plan of its "
                          "networks' processes (docs/multi-network.md)")));

static cl::opt<std::string> networksPlan(
    "networks", cl::cat(compileCategory),
    cl::desc("compile the networks of a plan file into one binary, each on "
             "its own clusters (docs/multi-network.md); no MODEL then"),
    cl::value_desc("plan.json"), cl::init(""));
static cl::opt<bool> baseline(
    "baseline", cl::cat(compileCategory),
    cl::desc("with --networks: the conventional accelerator instead, every "
             "network on the whole grid, one after the other"));

static cl::opt<accel::ProcessGranularity> processes(
    "processes", cl::cat(compileCategory),
    cl::desc("with --networks --emit=plan: how layers form processes"),
    cl::init(accel::ProcessGranularity::Layer),
    cl::values(clEnumValN(accel::ProcessGranularity::Layer, "layer",
                          "a process per layer (default)"),
               clEnumValN(accel::ProcessGranularity::Network, "network",
                          "a process per network (its layers merged)"),
               clEnumValN(accel::ProcessGranularity::Cluster, "cluster",
                          "a process per layer and cluster (a layer split "
                          "over its network's clusters, even shares)")));

static cl::opt<bool>
    timing("timing", cl::cat(compileCategory),
           cl::desc("print the wall and CPU time of the import, of every pass "
                    "and of writing the binary on stderr"));

static int fail(const std::string &msg) {
  llvm::errs() << "accel-compile: error: " << msg << "\n";
  return 1;
}

namespace {
bool isHelpFlag(llvm::StringRef a) {
  return a == "-h" || a == "-help" || a == "--help" || a == "--help-hidden" ||
         a == "-help-hidden" || a == "--help-list" || a == "-help-list";
}

/// Moves the lowering options out of `args` into `forwarded` ("name=value"
/// pairs for the pass's parser).
void extractLoweringArgs(std::vector<char *> &args,
                         std::vector<std::string> &forwarded) {
  std::map<std::string, bool> names = accel::compileOptionNames();
  std::vector<char *> kept{args.front()};
  for (size_t i = 1; i < args.size(); ++i) {
    llvm::StringRef a(args[i]);
    llvm::StringRef body = a.ltrim('-');
    auto [name, value] = body.split('=');
    auto it = names.find(name.str());
    if (a.size() == body.size() || a == "--" || it == names.end()) {
      kept.push_back(args[i]);
      continue;
    }
    if (body.contains('='))
      forwarded.push_back(body.str());
    else if (it->second) // a flag
      forwarded.push_back(name.str() + "=true");
    else if (i + 1 < args.size())
      forwarded.push_back(name.str() + "=" + args[++i]);
    else
      forwarded.push_back(name.str()); // the parser reports the value missing
  }
  args = kept;
}
} // namespace

/// Encodes `program` and writes it to `out` (kept on success).
static int writeProgram(llvm::ToolOutputFile &out,
                        const accel::Program &program) {
  std::string err;
  // Streamed: the weights go from their segments to the file, not through
  // one more copy of the whole binary.
  if (!accel::writeBinaryTo(
          program,
          [&](const uint8_t *d, size_t n) {
            out.os().write(reinterpret_cast<const char *>(d), n);
            return !out.os().has_error();
          },
          err))
    return fail(err.empty()
                    ? "cannot write the binary: " + out.os().error().message()
                    : err);
  out.keep();
  return 0;
}

/// accel-compile --networks PLAN -o OUT [--baseline] [--hw FILE]
/// [--emit=plan [--processes=layer|network]].
static int compileNetworksMain(MLIRContext &ctx, accel::HardwareAttr hwAttr,
                               const std::string &lowering,
                               const accel::SplitPipelineOptions &split) {
  accel::HardwareDesc full = accel::defaultHardware();
  std::string err;
  if (hwAttr && !accel::hardwareFromAttr(hwAttr, full, err))
    return fail(err);
  if (emit == Emit::Plan) {
    OwningOpRef<ModuleOp> plan = accel::compileNetworksPlan(
        ctx, networksPlan, full, lowering, split, processes, err);
    if (!plan)
      return fail(err);
    auto out = openOutputFile(outputPath, &err);
    if (!out)
      return fail(err);
    plan->print(out->os());
    out->keep();
    return 0;
  }
  accel::Program program;
  if (!accel::compileNetworks(ctx, networksPlan, full, baseline, lowering,
                              split, program, err))
    return fail(err);
  if (!accel::validateProgram(program, full, err))
    return fail("internal error: linked program is invalid: " + err);
  auto out = openOutputFile(outputPath, &err);
  if (!out)
    return fail(err);
  return writeProgram(*out, program);
}

static int compileMain(int argc, char **argv) {
  std::vector<char *> args(argv, argv + argc);
  bool help = llvm::any_of(args, [](char *a) { return isHelpFlag(a); });
  llvm::erase_if(args, [](char *a) { return isHelpFlag(a); });
  std::vector<std::string> forwardedArgs;
  extractLoweringArgs(args, forwardedArgs);
  const char *overview = "accel model compiler\n";
  cl::HideUnrelatedOptions(compileCategory);
  cl::ParseCommandLineOptions(int(args.size()), args.data(), overview);
  if (help) {
    cl::PrintHelpMessage();
    llvm::outs() << "\nLOWERING OPTIONS (convert-graph-to-isa, forwarded as "
                    "--NAME=VALUE):\n";
    accel::registerConvertGraphToIsa();
    const PassInfo *info = PassInfo::lookup("convert-graph-to-isa");
    info->printHelpStr(/*indent=*/2, /*descIndent=*/info->getOptionWidth() + 8);
    llvm::outs() << "\nSPLIT OPTIONS (docs/labels-and-splits.md, \"Split "
                    "strategy and mapping: one decision\"):\n"
                 << accel::pipelineOptionsHelp();
    accel::registerSplitStrategy();
    const PassInfo *split = PassInfo::lookup("split-strategy");
    split->printHelpStr(/*indent=*/2,
                        /*descIndent=*/split->getOptionWidth() + 8);
    return 0;
  }
  if (!networksPlan.empty() && !inputPath.empty())
    return fail("--networks takes the models from the plan: no MODEL");
  if (baseline && networksPlan.empty())
    return fail("--baseline applies to --networks");
  if (!networksPlan.empty() && emit != Emit::Bin && emit != Emit::Plan)
    return fail("--networks writes a binary (--emit=bin) or its plan "
                "(--emit=plan)");
  if (networksPlan.empty() && emit == Emit::Plan)
    return fail("--emit=plan needs --networks");
  if (baseline && emit == Emit::Plan)
    return fail("--emit=plan shows the parallel placement: no --baseline");
  if ((inputPath.empty() && networksPlan.empty()) || outputPath.empty())
    return fail("a model and -o FILE are required (see --help)");
  accel::CompileOptions options;
  {
    std::string err;
    if (!accel::parseCompileOptions(forwardedArgs, options, err))
      return fail(err);
  }
  std::unique_ptr<Pass> lowering = std::move(options.lowering);
  const accel::SplitPipelineOptions &splitOptions = options.split;

  DialectRegistry registry;
  accel::registerCompilerDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();

  // Reported when `tm` goes out of scope (after the binary is written).
  DefaultTimingManager tm;
  tm.setEnabled(timing);
  TimingScope rootTimer = tm.getRootScope();

  accel::HardwareAttr hwAttr;
  if (!hwPath.empty()) {
    std::string err;
    hwAttr = accel::readHardwareFile(&ctx, hwPath, err);
    if (!hwAttr)
      return fail(err); // err names the file and the field
  }

  if (!networksPlan.empty())
    return compileNetworksMain(ctx, hwAttr, options.loweringText, splitOptions);

  // Front end.
  OwningOpRef<ModuleOp> module;
  llvm::StringRef path(inputPath);
  TimingScope importTimer = rootTimer.nest("import");
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
  importTimer.stop();

  if (hwAttr) {
    llvm::SourceMgr sm;
    SourceMgrDiagnosticHandler handler(sm, &ctx);
    if (failed(accel::attachHardware(*module, hwAttr)))
      return 1; // the diagnostic names both machines
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
    accel::buildDefaultPipeline(pm, /*hwPath=*/"", std::move(lowering),
                                splitOptions);
    pm.enableTiming(rootTimer);
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
  TimingScope fromIsaTimer = rootTimer.nest("program-from-isa");
  if (failed(accel::programFromIsa(programOp, program, /*borrowData=*/true)))
    return 1;
  fromIsaTimer.stop();
  accel::HardwareDesc hw;
  if (failed(accel::moduleHardware(*module, hw)))
    return 1;
  TimingScope validateTimer = rootTimer.nest("validate-program");
  if (!accel::validateProgram(program, hw, err))
    return fail("internal error: emitted program is invalid: " + err);
  validateTimer.stop();
  TimingScope writeTimer = rootTimer.nest("write-binary");
  return writeProgram(*out, program);
}

/// The weights pass through several large buffers one after the other (the
/// ONNX tensors, the attributes, the lowering's segments, the program, the
/// binary): glibc's default returns each freed one to the system and the
/// next faults its pages in again. Serving blocks up to 32 MB from the heap
/// and never trimming it reuses them (about a sixth of resnet50's system
/// time, docs/passes.md "Compile time").
static void keepFreedMemory() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  keepFreedMemory();
  // Parsing, passes and printing recurse per level of IR nesting.
  return accel::runOnLargeStack([&] { return compileMain(argc, argv); });
}
