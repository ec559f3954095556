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
// parser, `fuse=on|off` says whether
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

using namespace mlir;

ArrayRef<StringRef> accel::splitOptionNames() {
  static const StringRef names[] = {
      "split",        "parallel",          "rounding",
      "policy",       "balance-clusters",  "fuse",
      "depth-first",  "depth-first-halos", "rnn",
      "rnn-contexts", "rnn-clusters"};
  return names;
}

bool accel::isSplitOptionName(StringRef name) {
  return llvm::is_contained(splitOptionNames(), name);
}

LogicalResult accel::parseSplitOptions(
    ArrayRef<std::string> pairs, SplitPipelineOptions &out,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  SmallVector<std::string> strategy;
  for (const std::string &pair : pairs) {
    auto [name, value] = StringRef(pair).split('=');
    // The two-valued options: the first value sets the flag.
    struct Choice {
      StringRef name, yes, no;
      bool SplitPipelineOptions::*flag;
    };
    static const Choice choices[] = {
        {"fuse", "on", "off", &SplitPipelineOptions::fuse},
        {"depth-first", "on", "off", &SplitPipelineOptions::depthFirst},
        {"depth-first-halos", "on", "off",
         &SplitPipelineOptions::depthFirstHalos},
        {"rnn", "engine", "plain", &SplitPipelineOptions::rnnEngine}};
    const Choice *choice = llvm::find_if(
        choices, [&, name = name](const Choice &c) { return c.name == name; });
    if (choice != std::end(choices)) {
      if (value != choice->yes && value != choice->no)
        return errorHandler(name + ": '" + value + "' is not one of " +
                            choice->yes + ", " + choice->no);
      out.*(choice->flag) = value == choice->yes;
      continue;
    }
    if (name == "rnn-contexts" || name == "rnn-clusters") {
      int64_t &n = name == "rnn-contexts" ? out.rnnContexts : out.rnnClusters;
      if (value.getAsInteger(10, n) || n < 0)
        return errorHandler(name + ": '" + value + "' is not a count >= 0");
      continue;
    }
    if (name != "split") {
      strategy.push_back(pair);
      continue;
    }
    if (value == "partition")
      out.mode = SplitMode::Partition;
    else if (value == "labels")
      out.mode = SplitMode::Labels;
    else if (value == "off")
      out.mode = SplitMode::Off;
    else
      return errorHandler("split: '" + value +
                          "' is not one of partition, labels, off");
  }
  out.strategy = llvm::join(strategy, " ");
  // The values are checked by split-strategy's own parser.
  return createSplitStrategy()->initializeOptions(out.strategy, errorHandler);
}

namespace {
/// split-strategy's options in the default pipeline: parallel=best unless
/// the user names a mode (then exactly that mode).
std::string strategyOptions(const accel::SplitPipelineOptions &split) {
  SmallVector<StringRef> items;
  StringRef(split.strategy).split(items, ' ', -1, /*KeepEmpty=*/false);
  auto names = [&](StringRef option) {
    return llvm::any_of(
        items, [&](StringRef i) { return i.split('=').first == option; });
  };
  // One piece per core with the cluster shares balanced first, measured on
  // the zoo (docs/labels-and-splits.md, step 7); balance-clusters then
  // re-cuts only under another rounding.
  std::string rounding = names("rounding") ? "" : " rounding=clusters";
  std::string balance =
      names("balance-clusters") ? "" : " balance-clusters=true";
  return (names("parallel") ? split.strategy
                            : "parallel=best " + split.strategy) +
         rounding + balance;
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
