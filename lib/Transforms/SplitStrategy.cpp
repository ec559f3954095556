//===- SplitStrategy.cpp - Steps S15 / S16 and the one partition decision -===//
//
// For every tensor of every GEMM-shaped op: the strategy database row of
// (operator + parallel mode, category), the target dim and pieces
// (accel::split::applySplit), appended to the tensor's dynamic label. A
// consumer that wants another split than the tensor has reads it through an
// explicit graph.relayout. The split of the op's driving operand (weight,
// then input) becomes its cluster partition: accel.mapping with array =
// [D, D] and per-cluster ranges; select-mapping adds the dataflow.
// docs/labels-and-splits.md, "Passes".
//
//===----------------------------------------------------------------------===//
#include "Accel/GemmProblem.h"
#include "Graph/GraphDialect.h"
#include "LabelUtils.h"
#include "MappingProblem.h"
#include "OptionChecks.h"
#include "accel/Split/Split.h"
#include "accel/Split/StrategyDatabase.h"
#include "accel/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace accel {
#define GEN_PASS_DEF_SPLITSTRATEGY
#include "accel/Transforms/Passes.h.inc"
} // namespace accel

using namespace mlir;
using namespace accel;

namespace {
/// One tensor of a GEMM-shaped op: its GEMM role and the dim letters that
/// role gives its axes (the static label may carry a producer's letters;
/// axes, not letters, decide the GEMM dim).
struct GemmTensor {
  int operand = -1; ///< operand index, -1 = the result
  std::optional<split::GemmOperand> kind;
  std::string canon;
};

std::vector<GemmTensor> gemmTensors(Operation *op) {
  using split::GemmOperand;
  std::vector<GemmTensor> v;
  if (auto g = dyn_cast<graph::GemmOp>(op)) {
    v.push_back({0, GemmOperand::MatmulA, g.getTransA() ? "cn" : "nc"});
    v.push_back({1, GemmOperand::MatmulB, g.getTransB() ? "nc" : "cn"});
    if (g.getC())
      v.push_back({2, std::nullopt, ""});
    v.push_back({-1, GemmOperand::MatmulResult, "nc"});
  } else if (isa<graph::MatMulOp>(op)) {
    v.push_back({0, GemmOperand::MatmulA, "nc"});
    v.push_back({1, GemmOperand::MatmulB, "cn"});
    v.push_back({-1, GemmOperand::MatmulResult, "nc"});
  } else {
    v.push_back({0, GemmOperand::ConvInput, "nchw"});
    v.push_back({1, GemmOperand::ConvWeight, "nchw"});
    if (op->getNumOperands() > 2)
      v.push_back({2, std::nullopt, ""});
    v.push_back({-1, GemmOperand::ConvOutput, "nchw"});
  }
  return v;
}

/// The ops split-strategy splits: 2-D matmul, gemm, non-depthwise conv2d.
bool splittable(Operation *op) {
  if (auto mm = dyn_cast<graph::MatMulOp>(op))
    return cast<RankedTensorType>(mm.getLhs().getType()).getRank() == 2 &&
           cast<RankedTensorType>(mm.getRhs().getType()).getRank() == 2;
  if (isa<graph::GemmOp>(op))
    return true;
  // Depthwise: the SW weight-queue kernel has no GEMM partition (as
  // select-mapping).
  if (auto conv = dyn_cast<graph::Conv2DOp>(op))
    return !conv.isDepthwise();
  return false;
}

ArraySplit arraySplitOf(split::GemmDim d) {
  switch (d) {
  case split::GemmDim::M:
    return ArraySplit::M;
  case split::GemmDim::N:
    return ArraySplit::N;
  case split::GemmDim::K:
    return ArraySplit::K;
  default:
    return ArraySplit::None;
  }
}

/// The partition a split decision gives an op.
struct Partition {
  ArraySplit dim = ArraySplit::None;
  SmallVector<int64_t> ranges;
  std::string source; ///< "operand 1"
};

/// The label one tensor wants under a parallel mode; null when its row is
/// missing and the policy leaves it unsplit. `rowSplits`: the row lists
/// splittable dims.
struct Want {
  LabelAttr label;
  bool rowSplits = false;
};

/// The database's decision for one `parallel` mode: the label of every
/// tensor (by operand index, -1 = the result), the partition the driving
/// operand's split gives, and (parallel=best) its modelled cycles.
struct Candidate {
  std::string mode;
  std::map<int, Want> wanted;
  std::optional<Partition> part;
  double cycles = 0;
  /// The cost model's DMA bytes (all clusters).
  uint64_t dmaBytes = 0;
  /// The cost model's EXECUTE time is at least its busiest channel's.
  bool computeBound = false;
};

std::string rangesText(ArrayRef<int64_t> r) {
  std::string s = "[";
  for (auto [i, b] : llvm::enumerate(r))
    s += (i ? ", " : "") + std::to_string(b);
  return s + "]";
}

struct SplitStrategyPass
    : public CheckedOptionsPass<
          accel::impl::SplitStrategyBase<SplitStrategyPass>> {
  using CheckedOptionsPass::CheckedOptionsPass;

  OptionChecks optionChecks() const override {
    OptionChecks c("split-strategy");
    c.finiteAtLeast("bytes-tolerance", bytesTolerance, 0);
    return c;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(optionChecks().emitOn(module)) ||
        failed(moduleHardware(module, hw_)))
      return signalPassFailure();
    std::string err;
    if (!split::loadStrategyDatabase(hw_, db_, err)) {
      module.emitError("split-strategy: ") << err;
      return signalPassFailure();
    }
    cores_ = uint64_t(hw_.numClusters()) * hw_.pesPerCluster;
    channels_ = hw_.channels.size();
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (splittable(op))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      if (failed(splitOp(op)))
        return signalPassFailure();
  }

private:
  /// `rounding` for `op`. rounding=clusters leaves an op of fewer than
  /// kMinBalancedMacs multiply-adds the spec's ceil pieces: it is about 200
  /// cycles of MACs on the whole default machine, so its time is load
  /// latency, and cutting it for every cluster only multiplies its loads
  /// (the quick-start CNN, examples/small_cnn.onnx: 2 401 cycles with its
  /// 55 k- and 74 k-MAC convolutions on ceil pieces, 2 688 balanced).
  split::Rounding roundingMode(Operation *op) const {
    switch (rounding) {
    case SplitRounding::Floor:
      return split::Rounding::Floor;
    case SplitRounding::Balanced:
      return split::Rounding::Balanced;
    case SplitRounding::Clusters:
      return graph::denseMacs(op) < kMinBalancedMacs
                 ? split::Rounding::Ceil
                 : split::Rounding::Clusters;
    default:
      return split::Rounding::Ceil;
    }
  }
  static constexpr uint64_t kMinBalancedMacs = 200000;

  /// The spec's default mode (`auto`): model for matmul / gemm, data for
  /// conv2d.
  static std::string autoMode(Operation *op) {
    return isa<graph::Conv2DOp>(op) ? "data" : "model";
  }

  /// The mode a forced or `auto` option names (not `best`).
  std::string parallelMode(Operation *op) const {
    switch (parallel) {
    case ParallelChoice::Model:
      return "model";
    case ParallelChoice::Data:
      return "data";
    case ParallelChoice::Hybrid:
      return "hybrid";
    default:
      return autoMode(op);
    }
  }

  /// The label `op` wants for tensor `t` under `mode` (its current label
  /// with the split of the database row). Nothing, with the reason in
  /// `err`, when the tensor has no label, the row is missing (policy
  /// error) or the split is impossible.
  std::optional<Want> wantedLabel(Operation *op, const GemmTensor &t, Value v,
                                  const std::string &mode, split::Rounding r,
                                  std::string &err) {
    std::string name = t.operand < 0 ? std::string("result")
                                     : "operand " + std::to_string(t.operand);
    LabelAttr cur = labels::labelOf(v);
    if (!cur) {
      err = name + " has no accel label (run tensor-labeling first)";
      return std::nullopt;
    }
    split::StaticLabel s = toSplit(cur.getStaticLabel());
    std::string kind = isa<graph::Conv2DOp>(op) ? "conv2d" : "matmul";
    // Rows for an op's result carry `operand = result` (a hidden tensor is
    // stored differently as an output than as an input).
    std::map<std::string, std::string> params{{"parallel", mode}};
    if (t.operand < 0)
      params["operand"] = "result";
    const split::StrategyRow *row = db_.lookup(kind, params, s.category);
    if (!row) {
      if (policy == MissingRowPolicy::LeaveUnsplit)
        return Want{};
      err = "no strategy for operator " + kind + ", category " +
            split::categoryCode(s.category) + " in database " +
            hw_.splitDatabaseName();
      return std::nullopt;
    }
    split::DynamicLabel d = toSplit(cur.getDynamicLabel());
    d.splitDim = 0;
    d.ranges.clear();
    d.store = {};
    d.swap = split::Swap::None;
    std::string splitErr;
    if (!split::applySplit(s, d, *row, channels_, cores_, r, splitErr,
                           hw_.numClusters())) {
      err = name + ": " + splitErr;
      return std::nullopt;
    }
    MLIRContext *ctx = op->getContext();
    return Want{
        LabelAttr::get(ctx, cur.getStaticLabel(), dynamicLabelAttr(ctx, d)),
        !row->dims.empty()};
  }

  void record(Value v, LabelAttr l) {
    labels::setLabel(v, l);
    if (print)
      labels::remarkLabel(v, l);
  }

  /// Gives operand `idx` of `op` the label `want`: the tensor takes it when
  /// it is not split yet; another split is read through a graph.relayout.
  void applyToOperand(Operation *op, unsigned idx, LabelAttr want) {
    Value v = op->getOperand(idx);
    LabelAttr cur = labels::labelOf(v);
    if (cur == want)
      return;
    if (cur.getDynamicLabel().getSplitDim().empty()) {
      record(v, want);
      return;
    }
    OpBuilder b(op);
    auto relayout = graph::RelayoutOp::create(b, op->getLoc(), v);
    op->setOperand(idx, relayout.getResult());
    record(relayout.getResult(), want);
  }

  /// The database's decision for `mode`: every tensor's label and the
  /// partition; nothing (reason in `err`) when a tensor cannot be split.
  std::optional<Candidate> candidateFor(Operation *op,
                                        const std::vector<GemmTensor> &tensors,
                                        const std::string &mode,
                                        std::string &err) {
    return candidateFor(op, tensors, mode, roundingMode(op), err);
  }
  std::optional<Candidate> candidateFor(Operation *op,
                                        const std::vector<GemmTensor> &tensors,
                                        const std::string &mode,
                                        split::Rounding r, std::string &err) {
    Candidate c;
    c.mode = mode;
    for (const GemmTensor &t : tensors) {
      Value v = t.operand < 0 ? op->getResult(0) : op->getOperand(t.operand);
      std::optional<Want> want = wantedLabel(op, t, v, mode, r, err);
      if (!want)
        return std::nullopt;
      if (want->label)
        c.wanted[t.operand] = *want;
    }
    if (partition)
      c.part = partitionOf(op, tensors, c.wanted);
    return c;
  }

  /// parallel=best: the candidate of every mode the database allows for
  /// the op (auto's first, then model, data, hybrid), priced by the mapping
  /// cost model with its partition's ranges; the cheapest (the earlier on a
  /// tie). Nothing (every mode's reason in `err`) when no mode can split
  /// the op.
  std::optional<Candidate> bestCandidate(Operation *op,
                                         const std::vector<GemmTensor> &tensors,
                                         std::string &err) {
    tiling::MappingProblem mp;
    const bool priced = transforms::mappingProblemOf(op, hw_, mp);
    std::vector<std::string> modes{autoMode(op)};
    for (const char *m : {"model", "data", "hybrid"})
      if (modes.front() != m)
        modes.push_back(m);
    std::vector<Candidate> pricedModes;
    std::optional<Candidate> best;
    std::string report, failures;
    for (const std::string &mode : modes) {
      std::string why;
      std::optional<Candidate> c = candidateFor(op, tensors, mode, why);
      if (!c) {
        failures += (failures.empty() ? "" : "; ") + mode + ": " + why;
        report += " " + mode + " (" + why + ")";
        continue;
      }
      tiling::MappingCost cost;
      if (priced)
        cost = partitionCost(mp, c->part);
      c->cycles = priced ? cost.cycles : 0;
      c->dmaBytes = priced ? cost.dmaBytes : 0;
      c->computeBound = cost.computeCycles >= cost.channelCycles;
      report += " " + mode + " " + cyclesText(c->cycles);
      pricedModes.push_back(*c);
      if (!best || c->cycles < best->cycles)
        best = std::move(c);
    }
    if (best && priced)
      if (std::optional<Candidate> light =
              lighterCandidate(pricedModes, *best)) {
        report += ", fewer bytes " + light->mode;
        best = std::move(light);
      }
    if (best && priced && balanceClusters && best->computeBound)
      if (std::optional<Candidate> b =
              balancedCandidate(op, tensors, mp, *best))
        if (b->cycles < best->cycles) {
          report += ", clusters " + cyclesText(b->cycles);
          best = std::move(b);
        }
    if (!best)
      err = "parallel=best: no parallel mode of the database splits the op (" +
            failures + ")";
    else if (print)
      op->emitRemark("parallel=best:") << report << " -> " << best->mode;
    return best;
  }

  /// bytes-tolerance: among `all`, priced within the tolerance of the
  /// cheapest `best` and compute-bound, the one with the fewest modelled DMA
  /// bytes when it moves at most 4/5 of best's; nothing otherwise. The cost
  /// model prices a layer whose loads hide behind its MACs by its MACs
  /// alone, so two modes can price alike while one reads its input once per
  /// cluster (an output-channel split) and the other once: the FPN
  /// detector's /neck/in2_conv, 0.4 % apart, ran 5.5 % faster and read
  /// 19.5 MB less with the lighter one. A lighter mode priced channel-bound
  /// is left out: ResNet-50's layer1 1 x 1 convolutions, 0.26 % apart, ran
  /// up to 28 % slower with it (docs/labels-and-splits.md).
  std::optional<Candidate> lighterCandidate(const std::vector<Candidate> &all,
                                            const Candidate &best) const {
    const Candidate *light = nullptr;
    for (const Candidate &c : all)
      if (c.computeBound && c.cycles <= best.cycles * (1.0 + bytesTolerance) &&
          c.dmaBytes * 5 <= best.dmaBytes * 4 &&
          (!light || c.dmaBytes < light->dmaBytes))
        light = &c;
    if (!light)
      return std::nullopt;
    return *light;
  }

  /// balance-clusters: `chosen`'s mode cut with Rounding::Clusters and
  /// priced; nothing when that cut fails or gives no other partition.
  std::optional<Candidate>
  balancedCandidate(Operation *op, const std::vector<GemmTensor> &tensors,
                    const tiling::MappingProblem &mp, const Candidate &chosen) {
    std::string why;
    std::optional<Candidate> b =
        candidateFor(op, tensors, chosen.mode, split::Rounding::Clusters, why);
    if (!b || !b->part || !chosen.part ||
        b->part->ranges == chosen.part->ranges)
      return std::nullopt;
    b->cycles = partitionCost(mp, b->part).cycles;
    return b;
  }

  /// Modelled cost of the op with `part` as its cluster partition (the
  /// cheapest dataflow, select-mapping's cost); without a partition the cost
  /// model chooses it, as select-mapping will.
  tiling::MappingCost
  partitionCost(const tiling::MappingProblem &mp,
                const std::optional<Partition> &part) const {
    if (!part)
      return tiling::selectMapping(mp, hw_);
    tiling::SplitDim d = toTiling(part->dim);
    tiling::ArrayPartition arr{{d, d}};
    std::vector<int64_t> ranges(part->ranges.begin(), part->ranges.end());
    return tiling::selectMapping(mp, hw_, nullptr, &arr, ranges);
  }

  static std::string cyclesText(double c) {
    return std::isfinite(c) ? std::to_string(int64_t(std::llround(c)))
                            : std::string("infeasible");
  }

  LogicalResult splitOp(Operation *op) {
    std::vector<GemmTensor> tensors = gemmTensors(op);
    std::string err;
    // An op with a partition already (select-mapping, by hand) is not
    // re-decided: its labels follow the spec's default mode.
    const bool best =
        parallel == ParallelChoice::Best && !op->hasAttr(kMappingAttrName);
    std::optional<Candidate> chosen =
        best ? bestCandidate(op, tensors, err)
             : candidateFor(op, tensors, parallelMode(op), err);
    if (!chosen)
      return op->emitOpError("split-strategy: ") << err;
    for (const GemmTensor &t : tensors) {
      auto it = chosen->wanted.find(t.operand);
      if (it == chosen->wanted.end())
        continue;
      if (t.operand < 0)
        record(op->getResult(0), it->second.label);
      else
        applyToOperand(op, unsigned(t.operand), it->second.label);
    }
    if (best)
      op->setAttr(kParallelAttrName,
                  StringAttr::get(op->getContext(), chosen->mode));
    if (!partition)
      return success();
    return applyPartition(op, chosen->part);
  }

  /// DB order: the weight, then the input; the first whose split dim is a
  /// GEMM dim the lowering can cut into contiguous cluster ranges.
  std::optional<Partition> partitionOf(Operation *op,
                                       const std::vector<GemmTensor> &tensors,
                                       const std::map<int, Want> &wanted) {
    tiling::GemmProblem p;
    bool withInit;
    if (!transforms::problemOf(op, 4, p, withInit))
      return std::nullopt;
    for (int idx : {1, 0}) {
      auto it = wanted.find(idx);
      if (it == wanted.end() || !it->second.rowSplits)
        continue;
      const GemmTensor &t = tensors[size_t(idx)];
      if (std::optional<Partition> part =
              partitionFrom(op, t, it->second.label, p))
        return part;
    }
    return std::nullopt;
  }

  std::optional<Partition> partitionFrom(Operation *op, const GemmTensor &t,
                                         LabelAttr l,
                                         const tiling::GemmProblem &p) {
    StringRef order = l.getStaticLabel().getOrder();
    StringRef splitDim = l.getDynamicLabel().getSplitDim();
    size_t axis = order.find(splitDim);
    if (splitDim.empty() || axis >= t.canon.size() || !t.kind)
      return std::nullopt;
    char canon = t.canon[axis];
    ArraySplit dim = arraySplitOf(split::gemmDimOf(*t.kind, canon));
    if (dim == ArraySplit::None)
      return std::nullopt;
    int64_t extent = dim == ArraySplit::M   ? p.m
                     : dim == ArraySplit::N ? p.n
                                            : p.k;
    // Convolutions: K is (kh, kw, c) with c fastest and N is (oh, ow): a
    // channel range is contiguous only for 1x1 kernels, a row range maps to
    // output rows; groups cut M and K per group.
    std::function<int64_t(int64_t)> toGemm = [&](int64_t b) {
      return std::min(b, extent);
    };
    if (auto conv = dyn_cast<graph::Conv2DOp>(op)) {
      if (conv.getGroups() != 1)
        return std::nullopt;
      auto w = cast<RankedTensorType>(conv.getWeight().getType());
      auto in = cast<RankedTensorType>(conv.getInput().getType());
      auto out = cast<RankedTensorType>(conv.getResult().getType());
      bool unitKernel = w.getDimSize(2) * w.getDimSize(3) == 1;
      if (dim == ArraySplit::K && !unitKernel)
        return std::nullopt;
      if (dim == ArraySplit::N) {
        if (canon != 'h')
          return std::nullopt;
        int64_t H = in.getDimSize(2), OH = out.getDimSize(2),
                OW = out.getDimSize(3);
        toGemm = [=](int64_t b) {
          return std::min(OH, (std::min(b, H) * OH + H - 1) / H) * OW;
        };
      }
    }
    ArrayRef<int64_t> flat = l.getDynamicLabel().getRanges();
    size_t pieces = flat.size() / 2;
    std::vector<uint32_t> coreOf = split::coreOfPieces(pieces, cores_);
    const uint32_t nClusters = hw_.numClusters();
    const uint32_t pes = std::max<uint32_t>(1, hw_.pesPerCluster);
    Partition part;
    part.dim = dim;
    part.source =
        t.operand < 0 ? "result" : "operand " + std::to_string(t.operand);
    part.ranges.assign(nClusters + 1, 0);
    // Cluster j computes the union of its cores' pieces (contiguous blocks).
    for (uint32_t j = 0; j < nClusters; ++j) {
      int64_t end = part.ranges[j];
      for (size_t i = 0; i < pieces; ++i)
        if (coreOf[i] / pes == j)
          end = std::max(end, toGemm(flat[2 * i + 1] + 1));
      part.ranges[j + 1] = end;
    }
    part.ranges.back() = extent;
    return part;
  }

  LogicalResult applyPartition(Operation *op,
                               const std::optional<Partition> &part) {
    if (!part)
      return success();
    auto existing = op->getAttrOfType<MappingAttr>(kMappingAttrName);
    // A partition without ranges was chosen before (select-mapping, or by
    // hand for experiments): it stays, the labels only describe storage.
    if (existing && existing.getRanges().empty())
      return success();
    if (existing) {
      if (existing.getRows() == part->dim && existing.getCols() == part->dim &&
          existing.getRanges() == ArrayRef<int64_t>(part->ranges))
        return success();
      return op->emitOpError("split-strategy: ")
             << kMappingAttrName << " " << existing
             << " contradicts the split of " << part->source << " (array = ["
             << stringifyArraySplit(part->dim) << ", "
             << stringifyArraySplit(part->dim)
             << "], ranges = " << rangesText(part->ranges) << ")";
    }
    op->setAttr(kMappingAttrName,
                MappingAttr::get(op->getContext(), std::nullopt, part->dim,
                                 part->dim, part->ranges, std::nullopt));
    return success();
  }

  HardwareDesc hw_;
  split::StrategyDatabase db_;
  uint64_t cores_ = 1, channels_ = 1;
};
} // namespace
