//===- LowerRecurrentEngine.cpp - RNN layers on the column-wise engine ----===//
//
// A graph.recurrent that schedule-rnn-threads placed (accel.rnn_threads)
// runs as RECUR tasks (docs/rnn.md): one task per direction and batch row,
// on the cluster and thread context the pass gave it. Per cluster the layer
// loads the packed, row-interleaved
// weights (or leaves them in DRAM when they do not fit the storage unit
// with the tasks' vectors), each task's x rows and initial state, issues
// the tasks, waits for them and stores Y, Y_h and Y_c. The engine then
// interleaves the tasks of a cluster on the hardware thread contexts.
//
// Ops the engine does not take keep the plain lowering (LowerRecurrent.cpp):
// weights that are not compile-time constants, sequence lengths that are not
// (or hold a 0), operands that do not fit the storage unit.
//
//===----------------------------------------------------------------------===//
#include "Accel/AccelDialect.h"
#include "Lowering.h"
#include "accel/Rnn/GatePacking.h"
#include "accel/Rnn/Parallelism.h"
#include <map>
#include <set>

using namespace mlir;
using namespace accel;
using namespace accel::codegen;

namespace accel::lowering {

namespace {

uint64_t align64(uint64_t v) { return (v + 63) / 64 * 64; }

/// The DMA tag of the tasks' operand loads; RECUR tasks take tags 0..6, so
/// waiting for the loads does not wait for the tasks already running.
constexpr uint8_t kLoadTag = 7;

} // namespace

class RecurrentEngineLowering {
public:
  RecurrentEngineLowering(Lowering &l, graph::RecurrentOp op) : l(l), op(op) {
    std::vector<int64_t> xs = shapeOf(op.getX());
    T = xs[0], B = xs[1], I = xs[2], H = op.getHiddenSize();
    kind = op.getKind();
    G = kind == graph::RnnKind::lstm ? 4 : kind == graph::RnnKind::gru ? 3 : 1;
    dirs = op.getDirection() == "bidirectional" ? 2 : 1;
    nAct = kind == graph::RnnKind::lstm  ? 3
           : kind == graph::RnnKind::gru ? 2
                                         : 1;
  }

  /// Whether schedule-rnn-threads placed the op and the engine can take it
  /// (activations, sequence lengths); false: the plain lowering.
  bool placed() {
    auto threads = op->getAttrOfType<ArrayAttr>(kRnnThreadsAttrName);
    if (!threads || int64_t(threads.size()) != dirs * B || !readLengths() ||
        !readActivations())
      return false;
    for (int64_t d = 0; d < dirs; ++d)
      place(cast<RnnThreadAttr>(threads[d * B]));
    for (Attribute a : threads)
      placements.push_back(cast<RnnThreadAttr>(a));
    return true;
  }

  /// Whether the op may run on the engine together with the RNN layers
  /// lowered before it: it reads only network inputs and constants (so not
  /// their results) and needs no preparatory kernel, which would use the
  /// storage their tasks still hold.
  bool joinable() {
    for (Value v : op->getOperands())
      if (!isa<BlockArgument>(v) && !v.getDefiningOp<arith::ConstantOp>())
        return false;
    for (Value v : {op.getW(), op.getR(), op.getB(), op.getP()})
      if (v && !v.getDefiningOp<arith::ConstantOp>())
        return false;
    return true;
  }

  /// Storage for every task after `used` bytes per cluster (the group's
  /// earlier layers); false when it does not fit.
  /// Whether every cluster's packed weights (one matrix per direction it
  /// runs, after `used` bytes of the group's) fit its PE weight queues:
  /// then the engine loads them once and issues a block every cycle. A
  /// batch-1 step reuses no weight, so streaming every block every step
  /// from storage or DRAM is slower than the plain lowering, whose x
  /// projection is one GEMM over all steps (docs/rnn.md, "Lowering").
  bool fitsWeightQueues(std::vector<uint64_t> &used) const {
    const uint64_t queues =
        uint64_t(l.fullHw_.pesPerCluster) * l.fullHw_.weightQueueBytes;
    std::vector<uint64_t> next = used;
    std::set<std::pair<uint32_t, int64_t>> counted;
    for (int64_t d = 0; d < dirs; ++d)
      for (int64_t b = 0; b < B; ++b) {
        uint32_t cl = uint32_t(placements[size_t(d * B + b)].getCluster());
        if (counted.insert({cl, d}).second)
          next[cl] += directions[size_t(d)].weightElems * 4;
      }
    if (!llvm::all_of(next, [&](uint64_t n) { return n <= queues; }))
      return false;
    used = next;
    return true;
  }

  bool layOut(std::vector<uint64_t> &used) {
    for (bool dramWeights : {false, true})
      if (tryLayout(dramWeights, used))
        return true;
    return false;
  }

  /// The packed operands, each cluster's loads and its RECUR tasks.
  LogicalResult issue(std::vector<uint32_t> &tagNext) {
    for (int64_t d = 0; d < dirs; ++d)
      if (failed(materialize(d)))
        return failure();
    for (Task &t : tasks) {
      if (t.desc.weightsInDram)
        t.desc.weights = directions[size_t(t.d)].weights;
      t.desc.tag = uint8_t(tagNext[t.cluster]++ % kLoadTag);
    }
    for (uint32_t cl = 0; cl < l.fullHw_.numClusters(); ++cl) {
      if (!usesCluster(cl))
        continue;
      emitLoads(cl);
      // Only the loads: tasks issued before by the group keep running.
      l.sb_.wait(cl, uint8_t(1u << kLoadTag), false);
      for (const Task &t : tasks)
        if (t.cluster == cl)
          l.sb_.recur(cl, t.desc);
    }
    return success();
  }

  bool usesCluster(uint32_t cl) const {
    return llvm::any_of(tasks, [&](const Task &t) { return t.cluster == cl; });
  }

  /// After the engine finished (a WAIT pe): Y, Y_h, Y_c of the tasks on cl.
  void finish(uint32_t cl) { emitStores(cl); }

private:
  /// One direction's packed operands in DRAM (constants) and placement.
  struct Direction {
    uint64_t weights = 0, bias = 0, peep = 0; ///< DRAM constants
    uint64_t weightElems = 0, biasElems = 0;
    uint32_t cluster = 0; ///< where a run-time packing runs
  };
  /// One task (direction d, batch row b) and its storage operands.
  struct Task {
    int64_t d = 0, b = 0, len = 0;
    uint32_t cluster = 0;
    bool loadsShared = false; ///< the first of its direction on its cluster
    RecurDesc desc;
  };

  bool readLengths() {
    lens.assign(size_t(B), T);
    Value sl = op.getSequenceLens();
    if (!sl)
      return true;
    auto c = sl.getDefiningOp<arith::ConstantOp>();
    auto values = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : nullptr;
    if (!values) {
      // A run-time input: each task reads its length (f32 in DRAM).
      runTimeLens = isa<BlockArgument>(sl);
      return runTimeLens;
    }
    int64_t b = 0;
    for (const APInt &v : values.getValues<APInt>())
      lens[size_t(b++)] = std::clamp<int64_t>(v.getSExtValue(), 0, T);
    return llvm::all_of(lens, [](int64_t n) { return n > 0; });
  }

  bool readActivations() {
    if (int64_t(op.getActivations().size()) != nAct * dirs)
      return false;
    auto param = [](ArrayAttr a, int64_t i) {
      return i < int64_t(a.size())
                 ? float(cast<FloatAttr>(a[i]).getValueAsDouble())
                 : 0.0f;
    };
    for (int64_t i = 0; i < nAct * dirs; ++i) {
      auto a =
          recurActNamed(cast<StringAttr>(op.getActivations()[i]).getValue());
      if (!a)
        return false;
      acts.push_back(*a);
      alphas.push_back(param(op.getActivationAlpha(), i));
      betas.push_back(param(op.getActivationBeta(), i));
    }
    return true;
  }

  /// The f32 values of a constant operand, or empty.
  std::vector<float> constantValues(Value v, int64_t offset, int64_t n) {
    const uint8_t *p =
        l.constantSpan(l.bufferFor(v) + uint64_t(offset) * 4, uint64_t(n) * 4);
    if (!p)
      return {};
    std::vector<float> out(static_cast<size_t>(n));
    std::memcpy(out.data(), p, size_t(n) * 4);
    return out;
  }

  int64_t mergedRows() const {
    return kind == graph::RnnKind::gru ? 2 * H : G * H;
  }

  void place(RnnThreadAttr placement) {
    Direction dir;
    dir.cluster = uint32_t(placement.getCluster());
    bool gru = kind == graph::RnnKind::gru;
    dir.weightElems = uint64_t((mergedRows() + (gru ? H : 0)) * (I + H));
    dir.biasElems = uint64_t(mergedRows() + (gru ? 2 * H : 0));
    directions.push_back(dir);
  }

  /// The packed weights, biases and peepholes of direction d in DRAM:
  /// packed at compile time from constants, else by DMAs and one SFU
  /// layer at run time (weights that are graph inputs).
  LogicalResult materialize(int64_t d) {
    if (packConstants(d))
      return success();
    return packAtRunTime(d);
  }

  bool packConstants(int64_t d) {
    std::vector<float> w = constantValues(op.getW(), d * G * H * I, G * H * I);
    std::vector<float> r = constantValues(op.getR(), d * G * H * H, G * H * H);
    if (w.empty() || r.empty())
      return false;
    std::vector<float> wb(size_t(G * H), 0.0f), rb(size_t(G * H), 0.0f);
    if (Value bv = op.getB()) {
      std::vector<float> all = constantValues(bv, d * 2 * G * H, 2 * G * H);
      if (all.empty())
        return false;
      std::copy(all.begin(), all.begin() + G * H, wb.begin());
      std::copy(all.begin() + G * H, all.end(), rb.begin());
    }
    std::vector<float> peep;
    if (Value pv = op.getP()) {
      peep = constantValues(pv, d * 3 * H, 3 * H);
      if (peep.empty())
        return false;
    }
    Direction &dir = directions[size_t(d)];
    std::vector<float> packed, bias;
    int64_t gm = mergedRows() / H; // gates in the merged matrix
    if (kind == graph::RnnKind::gru) {
      rnn::GruPhases ph = rnn::packGru(H, I, w.data(), r.data());
      packed = ph.zr;
      packed.insert(packed.end(), ph.candidate.begin(), ph.candidate.end());
    } else {
      rnn::Cell cell =
          kind == graph::RnnKind::lstm ? rnn::Cell::Lstm : rnn::Cell::Rnn;
      packed = rnn::packMerged(cell, H, I, w.data(), r.data());
    }
    for (int64_t j = 0; j < H; ++j)
      for (int64_t g = 0; g < gm; ++g)
        bias.push_back(wb[size_t(g * H + j)] + rb[size_t(g * H + j)]);
    if (kind == graph::RnnKind::gru) {
      bias.insert(bias.end(), wb.begin() + 2 * H, wb.end());
      bias.insert(bias.end(), rb.begin() + 2 * H, rb.end());
    }
    dir.weights = l.addConstant(packed);
    dir.bias = l.addConstant(bias);
    if (!peep.empty())
      dir.peep = l.addConstant(peep);
    return true;
  }

  /// A DRAM -> DRAM copy of G' gate blocks of `cols` columns (rows of the
  /// ONNX matrix at `src`, gate-major) into every G'-th row of the packed
  /// matrix at column `col0`: the row interleaving as one strided DMA.
  void interleave(uint32_t cl, uint64_t src, int64_t gates, int64_t cols,
                  uint64_t dst, int64_t col0, int64_t rowStrideGates) {
    DramBox s, t;
    s.base = src;
    s.dim(gates, H * cols).dim(H, cols).dim(cols, 1);
    t.base = dst + uint64_t(col0) * 4;
    t.dim(gates, I + H).dim(H, rowStrideGates * (I + H)).dim(cols, 1);
    l.sb_.dmaDramCopy(cl, 0, s, t);
  }

  LogicalResult packAtRunTime(int64_t d) {
    Direction &dir = directions[size_t(d)];
    const uint32_t cl = dir.cluster;
    const int64_t gm = mergedRows() / H;
    const uint64_t w = l.bufferFor(op.getW()) + uint64_t(d * G * H * I) * 4;
    const uint64_t r = l.bufferFor(op.getR()) + uint64_t(d * G * H * H) * 4;
    dir.weights = l.allocate(int64_t(dir.weightElems));
    dir.bias = l.allocate(int64_t(dir.biasElems));
    interleave(cl, w, gm, I, dir.weights, 0, gm);
    interleave(cl, r, gm, H, dir.weights, I, gm);
    if (kind == graph::RnnKind::gru) {
      // The candidate [W_h | R_h], rows in hidden order.
      uint64_t cand = dir.weights + uint64_t(2 * H * (I + H)) * 4;
      interleave(cl, w + uint64_t(2 * H * I) * 4, 1, I, cand, 0, 1);
      interleave(cl, r + uint64_t(2 * H * H) * 4, 1, H, cand, I, 1);
    }
    if (Value pv = op.getP())
      dir.peep = l.bufferFor(pv) + uint64_t(d * 3 * H) * 4;
    l.sb_.wait(cl, 0xFF, false);
    l.sb_.endLayer();
    return packBiasAtRunTime(d);
  }

  /// bias[j * G' + g] = Wb[g * H + j] + Rb[g * H + j] (one SFU layer), a
  /// GRU's Wb_h and Rb_h after it; zeros without B.
  LogicalResult packBiasAtRunTime(int64_t d) {
    Direction &dir = directions[size_t(d)];
    Value bv = op.getB();
    if (!bv) {
      dir.bias = l.addConstant(std::vector<float>(dir.biasElems, 0.0f));
      return success();
    }
    const int64_t gm = mergedRows() / H;
    const uint64_t wb = l.bufferFor(bv) + uint64_t(d * 2 * G * H) * 4;
    const uint64_t rb = wb + uint64_t(G * H) * 4;
    ElementwiseLayer ew;
    ew.shape = {H, gm};
    ew.inputs = {View{wb, {1, H}}, View{rb, {1, H}}};
    ew.output = View{dir.bias, {gm, 1}};
    ew.steps = {{SpuType::Binary, SfuFunc::Add, 0.0f, 0, 1, 0}};
    if (failed(l.emitSfu(op, ew)))
      return failure();
    if (kind == graph::RnnKind::gru) // Wb_h, Rb_h: rows G*H apart in B
      emitCopyLayer(l.sb_, {2, H}, View{wb + uint64_t(2 * H) * 4, {G * H, 1}},
                    View{dir.bias + uint64_t(2 * H) * 4, {H, 1}});
    return success();
  }

  /// The RECUR fields every task of direction d shares.
  RecurDesc baseDesc(int64_t d) {
    RecurDesc r;
    r.cell = kind == graph::RnnKind::lstm  ? RecurCell::Lstm
             : kind == graph::RnnKind::gru ? RecurCell::Gru
                                           : RecurCell::Rnn;
    r.reverse = op.getDirection() == "reverse" || d == 1;
    r.linearBeforeReset =
        kind == graph::RnnKind::gru && op.getLinearBeforeReset();
    r.inputForget = kind == graph::RnnKind::lstm && op.getInputForget();
    r.peephole = bool(op.getP());
    if (op.getClip()) {
      r.hasClip = true;
      r.clip = op.getClip()->convertToFloat();
    }
    r.hidden = uint32_t(H);
    r.inputs = uint32_t(I);
    for (int64_t k = 0; k < nAct; ++k) {
      r.act[k] = acts[size_t(d * nAct + k)];
      r.alpha[k] = alphas[size_t(d * nAct + k)];
      r.beta[k] = betas[size_t(d * nAct + k)];
    }
    chooseEpVp(r);
    return r;
  }

  /// The op's accel.rnn_parallelism (select-rnn-parallelism's decision,
  /// checked against the machine there); without one, the cost model's.
  void chooseEpVp(RecurDesc &r) {
    int64_t rows = int64_t(r.rows());
    if (auto p =
            op->getAttrOfType<RnnParallelismAttr>(kRnnParallelismAttrName)) {
      r.ep = uint32_t(p.getEp());
      r.vp = uint32_t(p.getVp());
      r.candidateVp = uint32_t(
          p.getCandidateVp().value_or(std::min<int64_t>(H, int64_t(r.vp))));
      return;
    }
    rnn::Engine e = rnn::engineOf(l.fullHw_);
    rnn::EpVp merged = rnn::selectEpVp(e, {rows, I + H, I});
    r.ep = uint32_t(merged.ep);
    r.vp = uint32_t(merged.vp);
    r.candidateVp = uint32_t(rnn::costEpVp(e, {H, I + H, I}, merged.ep).vp);
  }

  bool tryLayout(bool dramWeights, std::vector<uint64_t> &used) {
    tasks.clear();
    const uint64_t storage = l.fullHw_.storageBytes;
    std::vector<uint64_t> next = used;
    auto take = [&](uint32_t cl, uint64_t bytes) {
      uint64_t a = next[cl];
      next[cl] = align64(a + bytes);
      return uint32_t(std::min<uint64_t>(a, UINT32_MAX));
    };
    // The weights, biases and peepholes of a direction once per cluster
    // that runs one of its tasks.
    std::map<std::pair<uint32_t, int64_t>, RecurDesc> shared;
    for (int64_t d = 0; d < dirs; ++d) {
      for (int64_t b = 0; b < B; ++b) {
        RnnThreadAttr at = placements[size_t(d * B + b)];
        Task t;
        t.d = d, t.b = b, t.len = lens[size_t(b)];
        t.cluster = uint32_t(at.getCluster());
        const uint32_t cl = t.cluster;
        auto [it, fresh] = shared.try_emplace({cl, d});
        RecurDesc &base = it->second;
        if (fresh) {
          const Direction &dir = directions[size_t(d)];
          base = baseDesc(d);
          base.weightsInDram = dramWeights;
          if (!dramWeights)
            base.weights = take(cl, dir.weightElems * 4);
          base.bias = take(cl, dir.biasElems * 4);
          if (base.peephole)
            base.peepholes = take(cl, uint64_t(3 * H) * 4);
        }
        t.loadsShared = fresh;
        t.desc = base;
        RecurDesc &r = t.desc;
        r.steps = uint32_t(t.len);
        r.thread = uint8_t(at.getThread());
        // The op's own arrival (accel.arrival); a dependent layer's later
        // arrival follows from the data it waits for.
        if (auto a = op->getAttrOfType<IntegerAttr>(kArrivalAttrName))
          r.arrival = uint64_t(a.getInt());
        r.x = take(cl, uint64_t(t.len * I) * 4);
        r.h0 = take(cl, uint64_t(H) * 4);
        r.c0 = take(cl, uint64_t(H) * 4);
        r.y = take(cl, uint64_t(t.len * H) * 4);
        r.hT = take(cl, uint64_t(H) * 4);
        r.cT = take(cl, uint64_t(H) * 4);
        r.hasSeqLen = runTimeLens;
        if (runTimeLens)
          r.seqLen = take(cl, 4);
        tasks.push_back(t);
      }
    }
    if (!llvm::all_of(next, [&](uint64_t n) { return n <= storage; }))
      return false;
    used = next;
    return true;
  }

  static DramBox vec(uint64_t base, int64_t n) {
    DramBox b;
    b.base = base;
    b.dim(n, 1);
    return b;
  }

  void emitLoads(uint32_t cl) {
    for (const Task &t : tasks) {
      const Direction &dir = directions[size_t(t.d)];
      if (t.cluster != cl)
        continue;
      const RecurDesc &r = t.desc;
      if (t.loadsShared) {
        if (!r.weightsInDram)
          l.sb_.dmaLoadStrided(cl, kLoadTag,
                               vec(dir.weights, int64_t(dir.weightElems)),
                               uint32_t(r.weights), {1, 0, 0, 0});
        l.sb_.dmaLoadStrided(cl, kLoadTag,
                             vec(dir.bias, int64_t(dir.biasElems)), r.bias,
                             {1, 0, 0, 0});
        if (r.peephole)
          l.sb_.dmaLoadStrided(cl, kLoadTag, vec(dir.peep, 3 * H), r.peepholes,
                               {1, 0, 0, 0});
      }
      DramBox x;
      x.base = l.bufferFor(op.getX()) + uint64_t(t.b * I) * 4;
      x.dim(t.len, B * I).dim(I, 1);
      l.sb_.dmaLoadStrided(cl, kLoadTag, x, r.x, {I, 1, 0, 0});
      uint64_t state = uint64_t((t.d * B + t.b) * H) * 4;
      auto initial = [&](Value v) {
        return v ? l.bufferFor(v) + state : zeros();
      };
      l.sb_.dmaLoadStrided(cl, kLoadTag, vec(initial(op.getInitialH()), H),
                           r.h0, {1, 0, 0, 0});
      if (r.cell == RecurCell::Lstm)
        l.sb_.dmaLoadStrided(cl, kLoadTag, vec(initial(op.getInitialC()), H),
                             r.c0, {1, 0, 0, 0});
      if (r.hasSeqLen)
        l.sb_.dmaLoadStrided(
            cl, kLoadTag,
            vec(l.bufferFor(op.getSequenceLens()) + uint64_t(t.b) * 4, 1),
            r.seqLen, {1, 0, 0, 0});
    }
  }

  uint64_t zeros() {
    if (!zeroVec)
      zeroVec =
          l.addConstant(std::vector<float>(size_t(std::max(H, T * H)), 0.0f));
    return zeroVec;
  }

  void emitStores(uint32_t cl) {
    const uint64_t y = l.bufferFor(op.getY()), yh = l.bufferFor(op.getYH()),
                   yc = l.bufferFor(op.getYC());
    for (const Task &t : tasks) {
      if (t.cluster != cl)
        continue;
      const RecurDesc &r = t.desc;
      uint64_t row = uint64_t((t.d * B + t.b) * H) * 4;
      DramBox ys;
      ys.base = y + row;
      ys.dim(t.len, dirs * B * H).dim(H, 1);
      l.sb_.dmaStore(cl, 0, r.y, H, ys);
      if (t.len < T) {
        // Steps past a sequence's length output zeros (ONNX).
        DramBox src, dst;
        src.base = zeros();
        src.dim(T - t.len, 0).dim(H, 1);
        dst.base = y + uint64_t(t.len * dirs * B * H) * 4 + row;
        dst.dim(T - t.len, dirs * B * H).dim(H, 1);
        l.sb_.dmaDramCopy(cl, 0, src, dst);
      }
      l.sb_.dmaStore(cl, 0, r.hT, 1, vec(yh + row, H));
      bool lstm = r.cell == RecurCell::Lstm;
      l.sb_.dmaStore(cl, 0, lstm ? r.cT : r.hT, 1, vec(yc + row, H));
    }
  }

  Lowering &l;
  graph::RecurrentOp op;
  graph::RnnKind kind;
  int64_t T, B, I, H, G, dirs, nAct;
  std::vector<int64_t> lens;
  bool runTimeLens = false;
  std::vector<RecurAct> acts;
  std::vector<float> alphas, betas;
  std::vector<Direction> directions;
  std::vector<Task> tasks;
  std::vector<RnnThreadAttr> placements; ///< per direction and batch row
  uint64_t zeroVec = 0;
};

} // namespace accel::lowering

using accel::lowering::Lowering;
using accel::lowering::RecurrentEngineLowering;

/// Placed RNN layers that read only inputs and constants join the open
/// group: their tasks are issued now and share the engine (CGMT) with the
/// group's earlier tasks; the group's results are stored by
/// flushRecurrentGroup, before the next operator that is not such a layer.
FailureOr<bool> Lowering::lowerRecurrentOnEngine(graph::RecurrentOp op) {
  auto eng = std::make_shared<RecurrentEngineLowering>(*this, op);
  if (!eng->placed())
    return false;
  bool joins = eng->joinable();
  if (!joins)
    flushRecurrentGroup();
  if (rnnQueueUsed_.empty())
    rnnQueueUsed_.assign(fullHw_.numClusters(), 0);
  if (!eng->fitsWeightQueues(rnnQueueUsed_)) {
    if (rnnGroup_.empty())
      return false; // streamed weights: the plain lowering is faster
    flushRecurrentGroup();
    rnnQueueUsed_.assign(fullHw_.numClusters(), 0);
    if (!eng->fitsWeightQueues(rnnQueueUsed_))
      return false;
  }
  if (rnnStorageUsed_.empty())
    rnnStorageUsed_.assign(fullHw_.numClusters(), 0);
  if (!eng->layOut(rnnStorageUsed_)) {
    if (rnnGroup_.empty())
      return false;
    flushRecurrentGroup(); // retry on an empty storage unit
    rnnStorageUsed_.assign(fullHw_.numClusters(), 0);
    if (!eng->layOut(rnnStorageUsed_))
      return false;
  }
  if (rnnTagNext_.empty())
    rnnTagNext_.assign(fullHw_.numClusters(), 0);
  if (failed(eng->issue(rnnTagNext_)))
    return failure();
  rnnGroup_.push_back({eng, sb_.layer()});
  if (!joins)
    flushRecurrentGroup();
  return true;
}

void Lowering::flushRecurrentGroup() {
  if (rnnGroup_.empty())
    return;
  const uint32_t saved = sb_.layer();
  for (uint32_t cl = 0; cl < fullHw_.numClusters(); ++cl) {
    bool any = llvm::any_of(rnnGroup_, [&](const RnnGroupMember &m) {
      return m.lowering->usesCluster(cl);
    });
    if (!any)
      continue;
    sb_.wait(cl, 0xFF, true);
    for (RnnGroupMember &m : rnnGroup_)
      if (m.lowering->usesCluster(cl)) {
        sb_.setLayer(m.layer);
        m.lowering->finish(cl);
      }
  }
  sb_.endLayer();
  sb_.setLayer(saved);
  rnnGroup_.clear();
  rnnStorageUsed_.clear();
  rnnQueueUsed_.clear();
  rnnTagNext_.clear();
}
