//===- LowerRecurrent.cpp - RNN / GRU / LSTM layers -----------------------===//
//
// Per direction: one GEMM computes the input projections of every time step
// at once (X . W^T + biases), then each step runs the recurrent GEMM
// (H_{t-1} . R^T, accumulated onto that step's projections) and a few SFU
// layers for the gates and the state update. The state of step t is written
// straight into Y[t, dir]; sequence lengths become 0/1 masks that keep
// finished sequences' state and zero their outputs: constant lengths give
// constant masks, run-time lengths (an input) masks computed per step on
// the SFU.
// This is the plain, unscheduled lowering; spec/rnn-multithreading.md's
// column-wise, multithreaded schedule replaces it later.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

using namespace mlir;
using namespace accel;
using namespace accel::codegen;
using namespace accel::lowering;

namespace {
ElementwiseStep onOperand(SfuFunc f, int operand, float imm = 0.0f) {
  return {SpuType::Unary, f, imm, operand, operand, operand};
}
ElementwiseStep binary(SfuFunc f, int in0, int in1, int out) {
  return {SpuType::Binary, f, 0.0f, in0, in1, out};
}

/// SFU steps of an ONNX recurrent activation on `operand`; false if unknown.
bool activationSteps(StringRef name, float alpha, float beta, int operand,
                     std::vector<ElementwiseStep> &steps) {
  auto s = [&](SfuFunc f, float imm = 0.0f) {
    steps.push_back(onOperand(f, operand, imm));
  };
  if (name == "Sigmoid")
    s(SfuFunc::Sigmoid);
  else if (name == "Tanh")
    s(SfuFunc::Tanh);
  else if (name == "Relu")
    s(SfuFunc::Relu);
  else if (name == "Affine")
    s(SfuFunc::Scale, alpha), s(SfuFunc::AddImm, beta);
  else if (name == "LeakyRelu")
    s(SfuFunc::LeakyRelu, alpha);
  else if (name == "ThresholdedRelu")
    s(SfuFunc::ThresholdedRelu, alpha);
  else if (name == "ScaledTanh")
    s(SfuFunc::Scale, beta), s(SfuFunc::Tanh), s(SfuFunc::Scale, alpha);
  else if (name == "HardSigmoid")
    s(SfuFunc::Scale, alpha), s(SfuFunc::AddImm, beta),
        s(SfuFunc::MaxImm, 0.0f), s(SfuFunc::MinImm, 1.0f);
  else if (name == "Elu")
    s(SfuFunc::Elu, alpha);
  else if (name == "Softsign")
    s(SfuFunc::Softsign);
  else if (name == "Softplus")
    s(SfuFunc::Softplus);
  else
    return false;
  return true;
}
} // namespace

namespace accel::lowering {

/// One graph.recurrent op being lowered: its dimensions, activations and
/// buffers, and one method per step of the lowering. Every DRAM allocation
/// and every emitted layer happens in the order of the ONNX equations, so
/// the program is deterministic.
class RecurrentLowering {
public:
  RecurrentLowering(Lowering &l, graph::RecurrentOp op);
  LogicalResult run();

private:
  using RnnKind = graph::RnnKind;
  /// What one direction reads: its weights, the projections of all steps
  /// and the peepholes.
  struct Direction {
    int64_t d = 0;
    bool reverse = false;
    uint64_t wd = 0, rd = 0; ///< W and R of this direction
    uint64_t rbh = 0; ///< GRU linear_before_reset: Rb of the h gate (0: none)
    uint64_t xw = 0;  ///< X . W^T + biases of every step, [T * B, G * H]
    uint64_t p = 0;   ///< LSTM peepholes (0: none)
  };
  /// The hidden (and LSTM cell) state between two steps.
  struct State {
    uint64_t h = 0, c = 0;
  };
  /// The buffers of one time step.
  struct Step {
    int64_t t = 0;
    uint64_t xwt = 0;   ///< this step's projections
    uint64_t yt = 0;    ///< Y[t, dir]
    uint64_t gates = 0; ///< XW[t] + H_{t-1} . R^T, [B, G * H]
    State prev, next;
  };

  LogicalResult readSequenceLengths();
  LogicalResult lowerDirection(int64_t d);
  /// Wb + Rb as the initial value of the projections (GRU with
  /// linear_before_reset keeps Rb of the h gate for the recurrent product).
  LogicalResult foldBiases(Direction &dir, std::optional<Mat2D> &biasInit);
  State loadInitialState(const Direction &dir);
  LogicalResult lowerStep(const Direction &dir, int64_t s, State &state);
  LogicalResult rnnCell(const Direction &dir, Step &st);
  LogicalResult gruCell(const Direction &dir, Step &st);
  LogicalResult lstmCell(const Direction &dir, Step &st);
  /// Sequences shorter than t keep their state and output zeros.
  LogicalResult keepFinished(Step &st);
  /// The [B] 0/1 mask (t < len[b]) of step t: a constant, or computed from
  /// the run-time lengths.
  FailureOr<uint64_t> stepMask(int64_t t);
  void storeFinalState(const Direction &dir, const State &last);

  void gemm(Mat2D a, Mat2D b, Mat2D c, int64_t m, int64_t n, int64_t k,
            std::optional<Mat2D> init);
  /// One SFU layer over [B, H] views.
  LogicalResult bhLayer(std::vector<View> inputs, View out,
                        std::vector<ElementwiseStep> steps);
  /// A [B, H] view of `base` with row stride `rowStride`.
  View bh(uint64_t base, int64_t rowStride) const {
    return View{base, {rowStride, 1}};
  }
  /// Gate `k` of this step's gate buffer.
  View gate(const Step &st, int64_t k) const {
    return bh(st.gates + uint64_t(k * H * 4), GH);
  }
  void clipSteps(int operand, std::vector<ElementwiseStep> &steps) const;
  /// Appends activation `which` of direction `dir` on `operand`.
  LogicalResult activation(const Direction &dir, int64_t which, int operand,
                           std::vector<ElementwiseStep> &steps);
  /// out = activation `which`(clip(pre(inputs))): operand 0 after `pre`.
  LogicalResult activatedLayer(const Direction &dir, int64_t which,
                               std::vector<View> inputs, View out,
                               std::vector<ElementwiseStep> pre = {});

  Lowering &l;
  graph::RecurrentOp op;
  const RnnKind kind;
  int64_t T, B, I, H;
  int64_t G;  ///< gates: 4 (LSTM), 3 (GRU), 1 (RNN)
  int64_t GH; ///< G * H
  int64_t dirs;
  int64_t nAct; ///< activations per direction
  bool lbr;     ///< GRU linear_before_reset
  std::optional<float> clip;
  std::vector<int64_t> lens; ///< constant sequence lengths, clamped to [0, T]
  uint64_t runtimeLens = 0;  ///< DRAM [B] f32 lengths of an input (0: none)
  bool masked = false;       ///< some sequence may be shorter than T
  uint64_t x = 0, w = 0, r = 0, y = 0, yh = 0, yc = 0;
};

RecurrentLowering::RecurrentLowering(Lowering &l, graph::RecurrentOp op)
    : l(l), op(op), kind(op.getKind()) {
  std::vector<int64_t> xs = shapeOf(op.getX());
  T = xs[0], B = xs[1], I = xs[2], H = op.getHiddenSize();
  G = kind == RnnKind::lstm ? 4 : kind == RnnKind::gru ? 3 : 1;
  GH = G * H;
  dirs = op.getDirection() == "bidirectional" ? 2 : 1;
  nAct = kind == RnnKind::lstm ? 3 : kind == RnnKind::gru ? 2 : 1;
  lbr = kind == RnnKind::gru && op.getLinearBeforeReset();
}

LogicalResult RecurrentLowering::run() {
  if (int64_t(op.getActivations().size()) != nAct * dirs)
    return op.emitOpError("expects ") << nAct * dirs << " activations";
  if (op.getClip())
    clip = op.getClip()->convertToFloat();
  if (failed(readSequenceLengths()))
    return failure();
  x = l.bufferFor(op.getX()), w = l.bufferFor(op.getW()),
  r = l.bufferFor(op.getR());
  y = l.bufferFor(op.getY()), yh = l.bufferFor(op.getYH()),
  yc = l.bufferFor(op.getYC());
  for (int64_t d = 0; d < dirs; ++d)
    if (failed(lowerDirection(d)))
      return failure();
  return success();
}

// Sequence lengths: compile-time constants -> per-step 0/1 masks [B]; any
// other value (a program input) is read at run time, so every step is
// masked.
LogicalResult RecurrentLowering::readSequenceLengths() {
  lens.assign(size_t(B), T);
  if (Value sl = op.getSequenceLens()) {
    DenseElementsAttr values;
    if (auto c = sl.getDefiningOp<arith::ConstantOp>())
      values = dyn_cast<DenseElementsAttr>(c.getValue());
    if (!values) {
      runtimeLens = l.bufferFor(sl);
      masked = true;
      return success();
    }
    int64_t b = 0;
    for (const APInt &v : values.getValues<APInt>())
      lens[b++] = std::clamp<int64_t>(v.getSExtValue(), 0, T);
  }
  masked = llvm::any_of(lens, [&](int64_t l) { return l < T; });
  return success();
}

LogicalResult RecurrentLowering::lowerDirection(int64_t d) {
  Direction dir;
  dir.d = d;
  dir.reverse = op.getDirection() == "reverse" || d == 1;
  dir.wd = w + uint64_t(d * GH * I * 4);
  dir.rd = r + uint64_t(d * GH * H * 4);
  std::optional<Mat2D> biasInit;
  if (failed(foldBiases(dir, biasInit)))
    return failure();
  // Projections of all steps: XW[t*B + b, g] = X[t, b] . W[g]^T (+ bias).
  dir.xw = l.allocate(T * B * GH);
  gemm(Mat2D{x, I, 1}, Mat2D{dir.wd, 1, I}, Mat2D{dir.xw, GH, 1}, T * B, GH, I,
       biasInit);
  State state = loadInitialState(dir);
  dir.p = op.getP() ? l.bufferFor(op.getP()) + uint64_t(d * 3 * H * 4) : 0;
  for (int64_t s = 0; s < T; ++s)
    if (failed(lowerStep(dir, s, state)))
      return failure();
  storeFinalState(dir, state);
  return success();
}

LogicalResult RecurrentLowering::foldBiases(Direction &dir,
                                            std::optional<Mat2D> &biasInit) {
  Value bv = op.getB();
  if (!bv)
    return success();
  uint64_t bb = l.bufferFor(bv) + uint64_t(dir.d * 2 * GH * 4);
  uint64_t sum = l.allocate(GH);
  std::vector<float> keep(size_t(GH), 1.0f);
  if (lbr)
    std::fill(keep.begin() + 2 * H, keep.end(), 0.0f);
  ElementwiseLayer ew;
  ew.shape = {GH};
  ew.inputs = {View{bb, {1}}, View{bb + uint64_t(GH * 4), {1}},
               View{l.addConstant(keep), {1}}};
  ew.output = View{sum, {1}};
  ew.steps = {binary(SfuFunc::Mul, 1, 2, 1), binary(SfuFunc::Add, 0, 1, 0)};
  if (failed(l.emitSfu(op, ew)))
    return failure();
  biasInit = Mat2D{sum, 0, 1};
  dir.rbh = bb + uint64_t((GH + 2 * H) * 4);
  return success();
}

RecurrentLowering::State
RecurrentLowering::loadInitialState(const Direction &dir) {
  State state;
  const uint64_t offset = uint64_t(dir.d * B * H * 4);
  state.h = l.allocate(B * H);
  if (Value h0 = op.getInitialH())
    emitCopyLayer(l.sb_, {B, H}, View{l.bufferFor(h0) + offset, {H, 1}},
                  View{state.h, {H, 1}});
  if (kind == RnnKind::lstm) {
    state.c = l.allocate(B * H);
    if (Value c0 = op.getInitialC())
      emitCopyLayer(l.sb_, {B, H}, View{l.bufferFor(c0) + offset, {H, 1}},
                    View{state.c, {H, 1}});
  }
  return state;
}

LogicalResult RecurrentLowering::lowerStep(const Direction &dir, int64_t s,
                                           State &state) {
  Step st;
  st.t = dir.reverse ? T - 1 - s : s;
  st.xwt = dir.xw + uint64_t(st.t * B * GH * 4);
  st.yt = y + uint64_t(((st.t * dirs + dir.d) * B * H) * 4);
  st.prev = state;
  st.next.h = masked ? l.allocate(B * H) : st.yt;
  // Gates of this step: XW[t] + H_{t-1} . R^T (GRU: z and r only).
  const int64_t nRec = kind == RnnKind::gru ? 2 * H : GH;
  st.gates = l.allocate(B * GH);
  gemm(Mat2D{st.prev.h, H, 1}, Mat2D{dir.rd, 1, H}, Mat2D{st.gates, GH, 1}, B,
       nRec, H, Mat2D{st.xwt, GH, 1});
  LogicalResult cell = kind == RnnKind::rnn   ? rnnCell(dir, st)
                       : kind == RnnKind::gru ? gruCell(dir, st)
                                              : lstmCell(dir, st);
  if (failed(cell) || (masked && failed(keepFinished(st))))
    return failure();
  state.h = st.next.h;
  if (kind == RnnKind::lstm)
    state.c = st.next.c;
  return success();
}

// H = f(XW[t] + H_{t-1} R^T).
LogicalResult RecurrentLowering::rnnCell(const Direction &dir, Step &st) {
  return activatedLayer(dir, 0, {gate(st, 0)}, bh(st.next.h, H));
}

// z, r = f(gates); h~ = g(XWh + (r . H) Rh^T + Rbh) or, with
// linear_before_reset, g(XWh + r . (H Rh^T + Rbh)); H = (1 - z) h~ + z H.
LogicalResult RecurrentLowering::gruCell(const Direction &dir, Step &st) {
  const uint64_t z = l.allocate(B * H), rr = l.allocate(B * H),
                 ht = l.allocate(B * H);
  if (failed(activatedLayer(dir, 0, {gate(st, 0)}, bh(z, H))) ||
      failed(activatedLayer(dir, 0, {gate(st, 1)}, bh(rr, H))))
    return failure();
  const uint64_t rdh = dir.rd + uint64_t(2 * H * H * 4);
  const uint64_t xwh = st.xwt + uint64_t(2 * H * 4);
  if (!lbr) {
    const uint64_t rh = l.allocate(B * H);
    if (failed(bhLayer({bh(rr, H), bh(st.prev.h, H)}, bh(rh, H),
                       {binary(SfuFunc::Mul, 0, 1, 0)})))
      return failure();
    gemm(Mat2D{rh, H, 1}, Mat2D{rdh, 1, H}, Mat2D{ht, H, 1}, B, H, H,
         Mat2D{xwh, GH, 1});
    if (failed(activatedLayer(dir, 1, {bh(ht, H)}, bh(ht, H))))
      return failure();
  } else {
    const uint64_t hr = l.allocate(B * H);
    std::optional<Mat2D> rbInit;
    if (dir.rbh)
      rbInit = Mat2D{dir.rbh, 0, 1};
    gemm(Mat2D{st.prev.h, H, 1}, Mat2D{rdh, 1, H}, Mat2D{hr, H, 1}, B, H, H,
         rbInit);
    if (failed(activatedLayer(
            dir, 1, {bh(xwh, GH), bh(rr, H), bh(hr, H)}, bh(ht, H),
            {binary(SfuFunc::Mul, 1, 2, 1), binary(SfuFunc::Add, 0, 1, 0)})))
      return failure();
  }
  // H = h~ + z . (H_{t-1} - h~)  (= (1 - z) h~ + z H_{t-1}).
  return bhLayer({bh(ht, H), bh(z, H), bh(st.prev.h, H)}, bh(st.next.h, H),
                 {binary(SfuFunc::Sub, 2, 0, 2), binary(SfuFunc::Mul, 1, 2, 1),
                  binary(SfuFunc::Add, 0, 1, 0)});
}

// LSTM, gates in ONNX order i, o, f, c: i, f, o = f(gates + P . C),
// c~ = g(gate c), C = f . C_{t-1} + i . c~, H = o . h(C).
LogicalResult RecurrentLowering::lstmCell(const Direction &dir, Step &st) {
  const uint64_t gi = l.allocate(B * H), gf = l.allocate(B * H),
                 gc = l.allocate(B * H), go = l.allocate(B * H);
  st.next.c = l.allocate(B * H);
  const uint64_t cNew = st.next.c;
  // Gate k with peephole pk on cell state c.
  auto peepGate = [&](int64_t k, int64_t pk, uint64_t c, uint64_t dst) {
    std::vector<View> in{gate(st, k)};
    std::vector<ElementwiseStep> pre;
    if (dir.p) {
      in.push_back(View{c, {H, 1}});
      in.push_back(View{dir.p + uint64_t(pk * H * 4), {0, 1}});
      pre = {binary(SfuFunc::Mul, 1, 2, 1), binary(SfuFunc::Add, 0, 1, 0)};
    }
    return activatedLayer(dir, 0, in, bh(dst, H), pre);
  };
  if (failed(peepGate(0, 0, st.prev.c, gi)))
    return failure();
  if (op.getInputForget()) {
    if (failed(bhLayer({bh(gi, H)}, bh(gf, H),
                       {onOperand(SfuFunc::Scale, 0, -1.0f),
                        onOperand(SfuFunc::AddImm, 0, 1.0f)})))
      return failure();
  } else if (failed(peepGate(2, 2, st.prev.c, gf))) {
    return failure();
  }
  if (failed(activatedLayer(dir, 1, {gate(st, 3)}, bh(gc, H))))
    return failure();
  // C = f . C_{t-1} + i . c~
  if (failed(bhLayer({bh(gf, H), bh(st.prev.c, H)}, bh(cNew, H),
                     {binary(SfuFunc::Mul, 0, 1, 0)})) ||
      failed(bhLayer(
          {bh(cNew, H), bh(gi, H), bh(gc, H)}, bh(cNew, H),
          {binary(SfuFunc::Mul, 1, 2, 1), binary(SfuFunc::Add, 0, 1, 0)})))
    return failure();
  if (failed(peepGate(1, 1, cNew, go)))
    return failure();
  // H = o . h(C)
  std::vector<ElementwiseStep> steps;
  if (failed(activation(dir, 2, 1, steps)))
    return failure();
  steps.push_back(binary(SfuFunc::Mul, 0, 1, 0));
  return bhLayer({bh(go, H), bh(cNew, H)}, bh(st.next.h, H), steps);
}

FailureOr<uint64_t> RecurrentLowering::stepMask(int64_t t) {
  if (!runtimeLens) {
    std::vector<float> m(static_cast<size_t>(B), 0.0f);
    for (int64_t b = 0; b < B; ++b)
      m[size_t(b)] = t < lens[size_t(b)] ? 1.0f : 0.0f;
    return l.addConstant(m);
  }
  // max(sign(len - t), 0) is 1 exactly when len > t: the lengths are
  // integers held exactly in f32, so no rounding can flip a comparison.
  // Lengths above T act as T and lengths below 1 as 0 (a clamp, the same
  // as the constant path), with no run-time check the program could fail.
  const uint64_t mask = l.allocate(B);
  ElementwiseLayer ew;
  ew.shape = {B};
  ew.inputs = {View{runtimeLens, {1}}};
  ew.output = View{mask, {1}};
  ew.steps = {onOperand(SfuFunc::AddImm, 0, float(-t)),
              onOperand(SfuFunc::Sign, 0), onOperand(SfuFunc::MaxImm, 0, 0.0f)};
  if (failed(l.emitSfu(op, ew)))
    return failure();
  return mask;
}

// m[b] = t < len[b]: finished sequences keep their state, output 0.
LogicalResult RecurrentLowering::keepFinished(Step &st) {
  FailureOr<uint64_t> m = stepMask(st.t);
  if (failed(m))
    return failure();
  View mv{*m, {1, 0}};
  auto select = [&](uint64_t fresh, uint64_t old, uint64_t dst) {
    return bhLayer({mv, bh(fresh, H), bh(old, H)}, bh(dst, H),
                   {binary(SfuFunc::MaskKeep, 0, 1, 1),
                    binary(SfuFunc::MaskDrop, 0, 2, 2),
                    binary(SfuFunc::Add, 1, 2, 0)});
  };
  const uint64_t hKeep = l.allocate(B * H);
  if (failed(select(st.next.h, st.prev.h, hKeep)) ||
      failed(bhLayer({mv, bh(st.next.h, H)}, bh(st.yt, H),
                     {binary(SfuFunc::MaskKeep, 0, 1, 0)})))
    return failure();
  st.next.h = hKeep;
  if (kind == RnnKind::lstm) {
    const uint64_t cKeep = l.allocate(B * H);
    if (failed(select(st.next.c, st.prev.c, cKeep)))
      return failure();
    st.next.c = cKeep;
  }
  return success();
}

// Y_h and Y_c of this direction (an RNN / GRU's Y_c is its Y_h).
void RecurrentLowering::storeFinalState(const Direction &dir,
                                        const State &last) {
  const uint64_t offset = uint64_t(dir.d * B * H * 4);
  emitCopyLayer(l.sb_, {B, H}, View{last.h, {H, 1}}, View{yh + offset, {H, 1}});
  emitCopyLayer(l.sb_, {B, H},
                View{kind == RnnKind::lstm ? last.c : last.h, {H, 1}},
                View{yc + offset, {H, 1}});
}

void RecurrentLowering::gemm(Mat2D a, Mat2D b, Mat2D c, int64_t m, int64_t n,
                             int64_t k, std::optional<Mat2D> init) {
  l.gemmMapping_.reset(); // no select-tiling decision for these products
  std::vector<Mat2D> inits;
  if (init)
    inits.push_back(*init);
  // No accel.mapping on the recurrent op: the dealt kernel, which cannot
  // fail.
  (void)l.emitMatmuls(op, {{a, b, c}}, m, n, k, inits, GemmEpilogue{});
}

LogicalResult RecurrentLowering::bhLayer(std::vector<View> inputs, View out,
                                         std::vector<ElementwiseStep> steps) {
  ElementwiseLayer ew;
  ew.shape = {B, H};
  ew.inputs = std::move(inputs);
  ew.output = out;
  ew.steps = std::move(steps);
  return l.emitSfu(op, ew);
}

void RecurrentLowering::clipSteps(int operand,
                                  std::vector<ElementwiseStep> &steps) const {
  if (clip) {
    steps.push_back(onOperand(SfuFunc::MaxImm, operand, -*clip));
    steps.push_back(onOperand(SfuFunc::MinImm, operand, *clip));
  }
}

LogicalResult
RecurrentLowering::activation(const Direction &dir, int64_t which, int operand,
                              std::vector<ElementwiseStep> &steps) {
  const int64_t i = dir.d * nAct + which;
  auto param = [&](ArrayAttr a) {
    return i < int64_t(a.size()) ? cast<FloatAttr>(a[i]).getValueAsDouble()
                                 : 0.0;
  };
  StringRef name = cast<StringAttr>(op.getActivations()[i]).getValue();
  if (!activationSteps(name, float(param(op.getActivationAlpha())),
                       float(param(op.getActivationBeta())), operand, steps))
    return op.emitOpError("unsupported activation '") << name << "'";
  return success();
}

LogicalResult
RecurrentLowering::activatedLayer(const Direction &dir, int64_t which,
                                  std::vector<View> inputs, View out,
                                  std::vector<ElementwiseStep> pre) {
  clipSteps(0, pre);
  if (failed(activation(dir, which, 0, pre)))
    return failure();
  return bhLayer(std::move(inputs), out, std::move(pre));
}

} // namespace accel::lowering

LogicalResult Lowering::lowerRecurrent(graph::RecurrentOp op) {
  FailureOr<bool> onEngine = lowerRecurrentOnEngine(op);
  if (failed(onEngine))
    return failure();
  if (*onEngine)
    return success();
  flushRecurrentGroup();
  return RecurrentLowering(*this, op).run();
}
