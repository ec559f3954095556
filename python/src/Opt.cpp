//===- Opt.cpp - accel._accel.opt and the pass registry -------------------===//
//
// accel-opt's registry (all upstream dialects and passes, ours, the named
// pipelines) in the Python process: opt() runs a textual pipeline on MLIR
// text; registry_help() is the registry as accel-opt --help prints it,
// which accel.passes() parses (MLIR prints the registry, its options and
// their allowed values only to stdout, so the text is captured from a pipe
// while it is printed; nothing else writes there meanwhile: the GIL is held).
//
//===----------------------------------------------------------------------===//
#include "Accel/AccelDialect.h"
#include "Bindings.h"
#include "Graph/GraphDialect.h"
#include "Isa/IsaDialect.h"
#include "MultiNet/MultiNetDialect.h"
#include "ParseText.h"
#include "accel/Conversion/Passes.h"
#include "accel/Transforms/Passes.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <unistd.h>

using namespace accelpy;
using namespace mlir;

namespace {
/// Registers the passes and pipelines once per process.
void registerPassesOnce() {
  static bool done = [] {
    registerAllPasses();
    accel::registerAccelConversionPasses();
    accel::registerAccelTransformsPasses();
    accel::registerAccelPipelines();
    return true;
  }();
  (void)done;
}

/// The passes and pipelines with their options as mlir-opt's --help lists
/// them. printRegisteredPasses omits the pipelines; the option of a
/// PassPipelineCLParser (under a name of its own, so it cannot clash with
/// another option) prints both.
std::string registryHelp() {
  registerPassesOnce();
  static const char *kArg = "accel-python-registry";
  static auto *parser = new PassPipelineCLParser(kArg, "passes and pipelines");
  (void)parser;
  llvm::cl::Option *option = llvm::cl::getRegisteredOptions().lookup(kArg);
  if (!option)
    throw Error(ErrorKind::Generic, "the pass registry cannot be listed");
  // The width is the widest entry's, as cl's help computes it (a smaller
  // one underflows an indentation).
  return captureFd(STDOUT_FILENO,
                   [&] { option->printOptionInfo(option->getOptionWidth()); });
}

/// The default options of pass `name` ("a=1 b=x"), empty for a pipeline.
std::string passDefaults(const std::string &name) {
  registerPassesOnce();
  const PassInfo *info = PassInfo::lookup(name);
  if (!info)
    return "";
  OpPassManager pm("builtin.module");
  if (failed(
          info->addToPipeline(pm, "", [](const Twine &) { return failure(); })))
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  pm.begin()->printAsTextualPipeline(os);
  llvm::StringRef body = llvm::StringRef(text).split('{').second;
  return body.rtrim('}').str();
}

std::string optText(const std::string &input, const std::string &pipeline,
                    const std::string &hwJson) {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registry.insert<accel::graph::GraphDialect, accel::isa::IsaDialect,
                  accel::multinet::MultiNetDialect>();
  accel::registerAccelDialect(registry);
  MLIRContext ctx(registry);
  std::string err;
  llvm::raw_string_ostream os(err);
  PassManager pm(&ctx);
  // The pass manager runs on the module: an anchored pipeline
  // "builtin.module(...)" is its content (a nested builtin.module pipeline
  // would run on nested modules only).
  llvm::StringRef body(pipeline);
  if (!(body.consume_front("builtin.module(") && body.consume_back(")")))
    body = pipeline;
  parseOptionsOrThrow(
      [&] { return succeeded(parsePassPipeline(body, pm, os)); },
      [&] {
        return "pipeline '" + pipeline +
               "': " + llvm::StringRef(err).trim().str();
      });
  // The parser's handler stays for the passes: their errors come with the
  // source line too.
  TextModule parsed(llvm::MemoryBuffer::getMemBufferCopy(input, "<text>"), ctx);
  ModuleOp module = *parsed.module;
  if (!hwJson.empty() &&
      failed(accel::attachHardware(
          module, accel::hardwareAttrFor(&ctx, hardwareFromJson(hwJson)))))
    throw Error(ErrorKind::Hardware, parsed.errors);
  if (failed(pm.run(module)))
    throw Error(ErrorKind::Compile, parsed.errors);
  std::string text;
  llvm::raw_string_ostream out(text);
  module.print(out);
  return text;
}
} // namespace

void accelpy::bindOpt(py::module_ &m) {
  m.def("registry_help", &registryHelp);
  m.def("pass_defaults", &passDefaults, py::arg("name"));
  m.def(
      "opt",
      [](const std::string &input, const std::string &pipeline,
         const std::string &hwJson) {
        registerPassesOnce();
        std::string out;
        runReleased([&] { out = optText(input, pipeline, hwJson); });
        return out;
      },
      py::arg("text"), py::arg("pipeline"), py::arg("hw_json") = "");
}
