//===- Pipelines.cpp - Named pass pipelines -------------------------------===//
//
// accel-default-pipeline: what `accel-compile` runs on graph-dialect input
// (also after the ONNX importer). It legalises any TOSA / linalg left in the
// module, canonicalises, selects the GEMM tilings (select-tiling), labels
// the tensors and splits them by the architecture's strategy database
// (tensor-labeling, split-strategy: the cluster partition of GEMM-shaped
// ops, by default parallel=best: the database's modes priced with those
// tilings), selects the dataflow (select-mapping), and lowers to one
// isa.program. `split=partition|labels|off` says who decides the cluster
// partition (docs/labels-and-splits.md, "Split strategy and mapping: one
// decision"); `parallel`, `rounding` (default clusters here),
// `policy`, `balance-clusters` (default true here) go to split-strategy's
// parser, `upsampled-merge=on|off` whether fold-upsampled-merge runs,
// `fuse=on|off` whether
// fuse-layers runs (docs/passes.md, "fuse-layers"), `depth-first=on|off`
// whether depth-first-channels and depth-first-rows run after it,
// `depth-first-halos=on|off` depth-first-rows' `halos`,
// every other option to convert-graph-to-isa's, so they are declared once
// (Passes.td).
// The machine is the module's accel.hw (accel-opt --accel-hw=FILE).
//
//===----------------------------------------------------------------------===//
#include "accel/Conversion/Passes.h"
#include "accel/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

ArrayRef<accel::PipelineOption> accel::pipelineOptions() {
  static const PipelineOptionValue split[] = {
      {"partition", "the strategy database (split-strategy)"},
      {"labels", "select-mapping's cost model; the labels lose their split"},
      {"off", "select-mapping's cost model; no labels"}};
  static const PipelineOptionValue onOff[] = {{"on", ""}, {"off", ""}};
  static const PipelineOptionValue rnn[] = {
      {"engine", "RECUR tasks on the column-wise engine, multithreaded"},
      {"plain", "per-step GEMM + SFU layers"}};
  using O = SplitPipelineOptions;
  static const PipelineOption options[] = {
      {"split", "who decides the cluster partition", split, "partition"},
      {"fuse", "fuse-layers (docs/passes.md)", onOff, "on", &O::fuse},
      {"upsampled-merge",
       "fold-upsampled-merge: a convolution of a 1x1 conv plus a nearest "
       "upsampling as a composed conv plus sub-pixel phases (docs/passes.md)",
       onOff, "on", &O::upsampledMerge},
      {"depth-first",
       "depth-first-channels and depth-first-rows (docs/passes.md)", onOff,
       "on", &O::depthFirst},
      {"depth-first-halos",
       "depth-first-rows also chains layers with halos (3x3 convolutions, "
       "overlapping pools; docs/passes.md)",
       onOff, "off", &O::depthFirstHalos},
      {"rnn", "recurrent layers (docs/rnn.md)", rnn, "engine", &O::rnnEngine},
      {"rnn-contexts",
       "thread contexts per cluster for RNN tasks: 0 = the hardware's "
       "instruction buffers, 1 = no multithreading",
       {},
       "0",
       nullptr,
       &O::rnnContexts},
      {"rnn-clusters",
       "place RNN tasks on the first N clusters only, 0 = all",
       {},
       "0",
       nullptr,
       &O::rnnClusters}};
  return options;
}

ArrayRef<accel::ForwardedStrategyOption> accel::forwardedStrategyOptions() {
  // One piece per core with the cluster shares balanced first, measured on
  // the zoo (docs/labels-and-splits.md, step 7); balance-clusters then
  // re-cuts only under another rounding. parallel=best: the database's
  // modes priced with the tilings.
  static const ForwardedStrategyOption options[] = {
      {"parallel", "best"},
      {"rounding", "clusters"},
      {"policy", ""},
      {"balance-clusters", "true"}};
  return options;
}

ArrayRef<StringRef> accel::splitOptionNames() {
  static const std::vector<StringRef> names = [] {
    std::vector<StringRef> v;
    for (const PipelineOption &o : pipelineOptions())
      v.push_back(o.name);
    for (const ForwardedStrategyOption &o : forwardedStrategyOptions())
      v.push_back(o.name);
    return v;
  }();
  return names;
}

namespace {
/// `head`, then spaces to column `width` (at least one).
void padded(llvm::raw_ostream &os, const Twine &head, size_t width) {
  std::string h = head.str();
  os << h;
  os.indent(h.size() < width ? width - h.size() : 1);
}

/// An enumeration's values: inline ("a (default) or b") when none has help
/// of its own, else one "=value help" line each.
void printValues(llvm::raw_ostream &os, const accel::PipelineOption &o) {
  if (llvm::any_of(o.values, [](const auto &v) { return !v.help.empty(); })) {
    os << "\n";
    for (const accel::PipelineOptionValue &v : o.values) {
      padded(os, "    =" + v.value, 20);
      os << v.help << (v.value == o.defaultValue ? " (default)" : "") << "\n";
    }
    return;
  }
  os << ":";
  for (size_t i = 0; i < o.values.size(); ++i) {
    StringRef v = o.values[i].value;
    os << (i == 0                     ? " "
           : i + 1 == o.values.size() ? " or "
                                      : ", ")
       << v << (v == o.defaultValue ? " (default)" : "");
  }
  os << "\n";
}
} // namespace

std::string accel::pipelineOptionsHelp() {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (const PipelineOption &o : pipelineOptions()) {
    const bool count = o.values.empty();
    padded(os, "  --" + o.name + (count ? "=N" : "=<value>"), 20);
    os << o.help;
    if (count)
      os << " (default " << o.defaultValue << ")\n";
    else
      printValues(os, o);
  }
  SmallVector<std::string> names, defaults;
  for (const ForwardedStrategyOption &o : forwardedStrategyOptions()) {
    names.push_back(("--" + o.name).str());
    if (!o.pipelineDefault.empty())
      defaults.push_back(("--" + o.name + "=" + o.pipelineDefault).str());
  }
  os << "  " << llvm::join(names, ", ")
     << ": split-strategy's options below, forwarded (its partition is "
        "--split, its print is accel-opt's); the defaults here are "
     << llvm::join(defaults, " ") << "\n";
  return text;
}

bool accel::isSplitOptionName(StringRef name) {
  return llvm::is_contained(splitOptionNames(), name);
}

namespace {
using accel::PipelineOption;
using accel::SplitPipelineOptions;

/// "a, b, c" of an option's values.
std::string valueList(const PipelineOption &o) {
  SmallVector<StringRef> names;
  for (const accel::PipelineOptionValue &v : o.values)
    names.push_back(v.value);
  return llvm::join(names, ", ");
}

/// Sets `out` from `name=value` of one of pipelineOptions().
LogicalResult
applyPipelineOption(const PipelineOption &o, StringRef value,
                    SplitPipelineOptions &out,
                    function_ref<LogicalResult(const Twine &)> errorHandler) {
  if (o.values.empty()) {
    if (!o.count) // a table entry without a field
      return errorHandler("internal error: pipeline option '" + o.name +
                          "' sets nothing");
    int64_t n;
    if (value.getAsInteger(10, n) || n < 0)
      return errorHandler(o.name + ": '" + value + "' is not a count >= 0");
    out.*(o.count) = n;
    return success();
  }
  const auto *v =
      llvm::find_if(o.values, [&](const auto &v) { return v.value == value; });
  if (v == o.values.end())
    return errorHandler(o.name + ": '" + value + "' is not one of " +
                        valueList(o));
  if (o.flag)
    out.*(o.flag) = v == o.values.begin();
  else // split: its values are in SplitMode's order
    out.mode = accel::SplitMode(v - o.values.begin());
  return success();
}
} // namespace

LogicalResult accel::parseSplitOptions(
    ArrayRef<std::string> pairs, SplitPipelineOptions &out,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  SmallVector<std::string> strategy;
  for (const std::string &pair : pairs) {
    auto [name, value] = StringRef(pair).split('=');
    const auto *own = llvm::find_if(
        pipelineOptions(),
        [name = name](const PipelineOption &o) { return o.name == name; });
    if (own == pipelineOptions().end()) {
      strategy.push_back(pair);
      continue;
    }
    if (failed(applyPipelineOption(*own, value, out, errorHandler)))
      return failure();
  }
  out.strategy = llvm::join(strategy, " ");
  // The values are checked by split-strategy's own parser.
  return createSplitStrategy()->initializeOptions(out.strategy, errorHandler);
}

namespace {
/// split-strategy's options in the default pipeline: the user's, then the
/// pipeline's default of each forwarded option the user does not name
/// (forwardedStrategyOptions; parallel=best unless the user names a mode).
std::string strategyOptions(const accel::SplitPipelineOptions &split) {
  SmallVector<StringRef> items;
  StringRef(split.strategy).split(items, ' ', -1, /*KeepEmpty=*/false);
  auto names = [&](StringRef option) {
    return llvm::any_of(
        items, [&](StringRef i) { return i.split('=').first == option; });
  };
  std::string options = split.strategy;
  for (const accel::ForwardedStrategyOption &o :
       accel::forwardedStrategyOptions())
    if (!o.pipelineDefault.empty() && !names(o.name))
      options += " " + (o.name + "=" + o.pipelineDefault).str();
  return StringRef(options).trim().str();
}
} // namespace

void accel::buildDefaultPipeline(OpPassManager &pm, const std::string &hwPath,
                                 std::unique_ptr<Pass> lowering,
                                 const SplitPipelineOptions &split) {
  if (!hwPath.empty()) {
    AttachHardwareOptions attach;
    attach.file = hwPath;
    pm.addPass(createAttachHardware(attach));
  }
  pm.addPass(createConvertTosaLinalgToGraph());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createFoldBatchNorm());
  // Before fuse-layers: the sum it leaves is the composed convolution's
  // fused residual.
  if (split.upsampledMerge)
    pm.addPass(createFoldUpsampledMerge());
  // Fusion decisions before the tilings: the producer keeps its shape, so
  // select-tiling / split-strategy / select-mapping price it as before.
  if (split.fuse)
    pm.addPass(createFuseLayers());
  // After fuse-layers: each slice takes its producer's epilogue chain.
  if (split.depthFirst) {
    pm.addPass(createDepthFirstChannels());
    DepthFirstRowsOptions rows;
    rows.halos = split.depthFirstHalos;
    pm.addPass(createDepthFirstRows(rows));
  }
  // The tilings first: split-strategy's parallel=best prices each
  // database mode's partition with them, as select-mapping will.
  pm.addPass(createSelectTiling());
  // Labels and splits of every tensor (docs/labels-and-splits.md). One
  // decision: by default the database's split is the cluster partition
  // (among the database's modes, the one the cost model prices cheapest)
  // and select-mapping chooses only the dataflow; with split=labels the cost
  // model chooses the partition and the labels lose the split it may
  // contradict (drop-label-splits).
  if (split.mode != SplitMode::Off) {
    pm.addPass(createTensorLabeling());
    std::unique_ptr<Pass> strategy = createSplitStrategy();
    std::string options = strategyOptions(split);
    if (split.mode == SplitMode::Labels)
      options += " partition=false";
    // parseSplitOptions checked split.strategy.
    if (failed(strategy->initializeOptions(
            options, [](const Twine &) { return failure(); })))
      llvm::report_fatal_error("invalid split-strategy options '" +
                               Twine(options) + "'");
    pm.addPass(std::move(strategy));
  }
  pm.addPass(createSelectMapping());
  if (split.mode == SplitMode::Labels)
    pm.addPass(createDropLabelSplits());
  // Recurrent layers on the column-wise engine, placed on clusters and
  // hardware thread contexts (docs/rnn.md).
  if (split.rnnEngine) {
    pm.addPass(createSelectRnnParallelism());
    ScheduleRnnThreadsOptions threads;
    threads.contexts = split.rnnContexts;
    threads.clusters = split.rnnClusters;
    pm.addPass(createScheduleRnnThreads(threads));
  }
  pm.addPass(lowering ? std::move(lowering) : createConvertGraphToIsa());
}

void accel::registerAccelPipelines() {
  registerPassPipeline(
      "accel-default-pipeline",
      "Import legalisation, canonicalisation and lowering to the ISA; its "
      "options are split=partition|labels|off, split-strategy's parallel, "
      "rounding, policy and those of --convert-graph-to-isa (listed there)",
      [](OpPassManager &pm, StringRef options,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        SmallVector<std::string> splitPairs, lowerPairs;
        SmallVector<StringRef> items;
        options.split(items, ' ', -1, /*KeepEmpty=*/false);
        for (StringRef item : items)
          (isSplitOptionName(item.split('=').first) ? splitPairs : lowerPairs)
              .push_back(item.str());
        SplitPipelineOptions split;
        if (failed(parseSplitOptions(splitPairs, split, errorHandler)))
          return failure();
        FailureOr<std::unique_ptr<Pass>> lowering =
            createConvertGraphToIsaFromString(llvm::join(lowerPairs, " "),
                                              errorHandler);
        if (failed(lowering))
          return failure();
        buildDefaultPipeline(pm, "", std::move(*lowering), split);
        return success();
      },
      // mlir::Pass keeps its option set private, so the options are listed
      // once, under split-strategy and convert-graph-to-isa.
      [](function_ref<void(const mlir::detail::PassOptions &)>) {});
}
