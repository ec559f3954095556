//===- LowerRecurrent.cpp - RNN / GRU / LSTM layers -----------------------===//
//
// Per direction: one GEMM computes the input projections of every time step
// at once (X . W^T + biases), then each step runs the recurrent GEMM
// (H_{t-1} . R^T, accumulated onto that step's projections) and a few SFU
// layers for the gates and the state update. The state of step t is written
// straight into Y[t, dir]; sequence lengths (compile-time constants) become
// 0/1 masks that keep finished sequences' state and zero their outputs.
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

LogicalResult Lowering::lowerRecurrent(graph::RecurrentOp op) {
  using graph::RnnKind;
  std::vector<int64_t> xs = shapeOf(op.getX());
  const int64_t T = xs[0], B = xs[1], I = xs[2], H = op.getHiddenSize();
  const RnnKind kind = op.getKind();
  const int64_t G = kind == RnnKind::lstm ? 4 : kind == RnnKind::gru ? 3 : 1;
  const int64_t GH = G * H;
  const bool bidir = op.getDirection() == "bidirectional";
  const int64_t dirs = bidir ? 2 : 1;
  const int64_t nAct = kind == RnnKind::lstm ? 3 : kind == RnnKind::gru ? 2 : 1;
  auto acts = op.getActivations();
  auto alphas = op.getActivationAlpha(), betas = op.getActivationBeta();
  if (int64_t(acts.size()) != nAct * dirs)
    return op.emitOpError("expects ") << nAct * dirs << " activations";
  auto actParam = [&](ArrayAttr a, int64_t i) {
    return i < int64_t(a.size()) ? cast<FloatAttr>(a[i]).getValueAsDouble()
                                 : 0.0;
  };
  std::optional<float> clip;
  if (op.getClip())
    clip = op.getClip()->convertToFloat();

  // Sequence lengths: compile-time constants -> per-step 0/1 masks [B].
  std::vector<int64_t> lens(B, T);
  if (Value sl = op.getSequenceLens()) {
    DenseElementsAttr values;
    if (auto c = sl.getDefiningOp<arith::ConstantOp>())
      values = dyn_cast<DenseElementsAttr>(c.getValue());
    if (!values)
      return op.emitOpError("sequence_lens must be a compile-time constant "
                            "(bind it with --bind)");
    int64_t b = 0;
    for (const APInt &v : values.getValues<APInt>())
      lens[b++] = std::clamp<int64_t>(v.getSExtValue(), 0, T);
  }
  bool masked = llvm::any_of(lens, [&](int64_t l) { return l < T; });

  const uint64_t x = bufferFor(op.getX()), w = bufferFor(op.getW()),
                 r = bufferFor(op.getR());
  const uint64_t y = bufferFor(op.getY()), yh = bufferFor(op.getYH()),
                 yc = bufferFor(op.getYC());
  const bool lbr = kind == RnnKind::gru && op.getLinearBeforeReset();

  auto sfu = [&](ElementwiseLayer ew) { return emitSfu(op, ew); };
  auto dense2 = [&](uint64_t base, int64_t rowStride) {
    return View{base, {rowStride, 1}};
  };
  auto gemm = [&](Mat2D a, Mat2D b, Mat2D c, int64_t m, int64_t n, int64_t k,
                  std::optional<Mat2D> init) {
    gemmMapping_.reset(); // no select-tiling decision for these products
    std::vector<Mat2D> inits;
    if (init)
      inits.push_back(*init);
    // No accel.mapping on the recurrent op: the dealt kernel, which cannot
    // fail.
    (void)emitMatmuls(op, {{a, b, c}}, m, n, k, inits, GemmEpilogue{});
  };
  // One SFU layer over a [B, H] tile: inputs are [B, H] views (row stride
  // given), the result is written to `out`.
  auto bhLayer = [&](std::vector<View> inputs, View out, int scratch,
                     std::vector<ElementwiseStep> steps) {
    ElementwiseLayer ew;
    ew.shape = {B, H};
    ew.inputs = std::move(inputs);
    ew.output = out;
    ew.scratch = scratch;
    ew.steps = std::move(steps);
    return sfu(ew);
  };
  auto clipSteps = [&](int operand, std::vector<ElementwiseStep> &steps) {
    if (clip) {
      steps.push_back(onOperand(SfuFunc::MaxImm, operand, -*clip));
      steps.push_back(onOperand(SfuFunc::MinImm, operand, *clip));
    }
  };

  for (int64_t d = 0; d < dirs; ++d) {
    const bool reverse = op.getDirection() == "reverse" || d == 1;
    auto act = [&](int64_t which, int operand,
                   std::vector<ElementwiseStep> &steps) {
      int64_t i = d * nAct + which;
      if (!activationSteps(cast<StringAttr>(acts[i]).getValue(),
                           float(actParam(alphas, i)),
                           float(actParam(betas, i)), operand, steps))
        return LogicalResult(op.emitOpError("unsupported activation '")
                             << cast<StringAttr>(acts[i]).getValue() << "'");
      return success();
    };
    const uint64_t wd = w + uint64_t(d * GH * I * 4),
                   rd = r + uint64_t(d * GH * H * 4);

    // Biases folded into the projections: Wb + Rb (GRU with
    // linear_before_reset keeps Rb of the h gate for the recurrent product).
    std::optional<Mat2D> biasInit;
    uint64_t rbh = 0;
    if (Value bv = op.getB()) {
      uint64_t bb = bufferFor(bv) + uint64_t(d * 2 * GH * 4);
      uint64_t sum = allocate(GH);
      std::vector<float> keep(size_t(GH), 1.0f);
      if (lbr)
        std::fill(keep.begin() + 2 * H, keep.end(), 0.0f);
      ElementwiseLayer ew;
      ew.shape = {GH};
      ew.inputs = {View{bb, {1}}, View{bb + uint64_t(GH * 4), {1}},
                   View{addConstant(keep), {1}}};
      ew.output = View{sum, {1}};
      ew.steps = {binary(SfuFunc::Mul, 1, 2, 1), binary(SfuFunc::Add, 0, 1, 0)};
      if (failed(sfu(ew)))
        return failure();
      biasInit = Mat2D{sum, 0, 1};
      rbh = bb + uint64_t((GH + 2 * H) * 4);
    }
    // Projections of all steps: XW[t*B + b, g] = X[t, b] . W[g]^T (+ bias).
    const uint64_t xw = allocate(T * B * GH);
    gemm(Mat2D{x, I, 1}, Mat2D{wd, 1, I}, Mat2D{xw, GH, 1}, T * B, GH, I,
         biasInit);

    // Initial state.
    uint64_t hPrev = allocate(B * H), cPrev = 0;
    if (Value h0 = op.getInitialH())
      emitCopyLayer(sb_, {B, H},
                    View{bufferFor(h0) + uint64_t(d * B * H * 4), {H, 1}},
                    View{hPrev, {H, 1}});
    if (kind == RnnKind::lstm) {
      cPrev = allocate(B * H);
      if (Value c0 = op.getInitialC())
        emitCopyLayer(sb_, {B, H},
                      View{bufferFor(c0) + uint64_t(d * B * H * 4), {H, 1}},
                      View{cPrev, {H, 1}});
    }
    const uint64_t p =
        op.getP() ? bufferFor(op.getP()) + uint64_t(d * 3 * H * 4) : 0;

    for (int64_t s = 0; s < T; ++s) {
      const int64_t t = reverse ? T - 1 - s : s;
      const uint64_t xwt = xw + uint64_t(t * B * GH * 4);
      const uint64_t yt = y + uint64_t(((t * dirs + d) * B * H) * 4);
      uint64_t hNew = masked ? allocate(B * H) : yt, cNew = 0;
      // Gates of this step: XW[t] + H_{t-1} . R^T (GRU: z and r only).
      const int64_t nRec = kind == RnnKind::gru ? 2 * H : GH;
      const uint64_t g = allocate(B * GH);
      gemm(Mat2D{hPrev, H, 1}, Mat2D{rd, 1, H}, Mat2D{g, GH, 1}, B, nRec, H,
           Mat2D{xwt, GH, 1});
      auto gate = [&](int64_t k) {
        return dense2(g + uint64_t(k * H * 4), GH);
      };
      std::vector<ElementwiseStep> st;

      if (kind == RnnKind::rnn) {
        clipSteps(0, st);
        if (failed(act(0, 0, st)) ||
            failed(bhLayer({gate(0)}, dense2(hNew, H), 0, st)))
          return failure();
      } else if (kind == RnnKind::gru) {
        // z, r = f(gates); h~ = g(XWh + (r . H) Rh^T + Rbh) or, with
        // linear_before_reset, g(XWh + r . (H Rh^T + Rbh)).
        const uint64_t z = allocate(B * H), rr = allocate(B * H),
                       ht = allocate(B * H);
        for (auto [k, dst] : {std::pair<int64_t, uint64_t>{0, z}, {1, rr}}) {
          st.clear();
          clipSteps(0, st);
          if (failed(act(0, 0, st)) ||
              failed(bhLayer({gate(k)}, dense2(dst, H), 0, st)))
            return failure();
        }
        const uint64_t rdh = rd + uint64_t(2 * H * H * 4);
        if (!lbr) {
          const uint64_t rh = allocate(B * H);
          if (failed(bhLayer({dense2(rr, H), dense2(hPrev, H)}, dense2(rh, H),
                             0, {binary(SfuFunc::Mul, 0, 1, 0)})))
            return failure();
          gemm(Mat2D{rh, H, 1}, Mat2D{rdh, 1, H}, Mat2D{ht, H, 1}, B, H, H,
               Mat2D{xwt + uint64_t(2 * H * 4), GH, 1});
          st.clear();
          clipSteps(0, st);
          if (failed(act(1, 0, st)) ||
              failed(bhLayer({dense2(ht, H)}, dense2(ht, H), 0, st)))
            return failure();
        } else {
          const uint64_t hr = allocate(B * H);
          std::optional<Mat2D> rbInit;
          if (rbh)
            rbInit = Mat2D{rbh, 0, 1};
          gemm(Mat2D{hPrev, H, 1}, Mat2D{rdh, 1, H}, Mat2D{hr, H, 1}, B, H, H,
               rbInit);
          st = {binary(SfuFunc::Mul, 1, 2, 1), binary(SfuFunc::Add, 0, 1, 0)};
          clipSteps(0, st);
          if (failed(act(1, 0, st)) ||
              failed(bhLayer({dense2(xwt + uint64_t(2 * H * 4), GH),
                              dense2(rr, H), dense2(hr, H)},
                             dense2(ht, H), 0, st)))
            return failure();
        }
        // H = h~ + z . (H_{t-1} - h~)  (= (1 - z) h~ + z H_{t-1}).
        if (failed(bhLayer({dense2(ht, H), dense2(z, H), dense2(hPrev, H)},
                           dense2(hNew, H), 0,
                           {binary(SfuFunc::Sub, 2, 0, 2),
                            binary(SfuFunc::Mul, 1, 2, 1),
                            binary(SfuFunc::Add, 0, 1, 0)})))
          return failure();
      } else {
        // LSTM, gates in ONNX order i, o, f, c.
        const uint64_t gi = allocate(B * H), gf = allocate(B * H),
                       gc = allocate(B * H), go = allocate(B * H);
        cNew = allocate(B * H);
        auto peepGate = [&](int64_t k, int64_t pk, uint64_t c, uint64_t dst) {
          std::vector<View> in{gate(k)};
          st.clear();
          if (p) {
            in.push_back(View{c, {H, 1}});
            in.push_back(View{p + uint64_t(pk * H * 4), {0, 1}});
            st = {binary(SfuFunc::Mul, 1, 2, 1), binary(SfuFunc::Add, 0, 1, 0)};
          }
          clipSteps(0, st);
          if (failed(act(0, 0, st)))
            return failure();
          return bhLayer(in, dense2(dst, H), 0, st);
        };
        if (failed(peepGate(0, 0, cPrev, gi)))
          return failure();
        if (op.getInputForget()) {
          if (failed(bhLayer({dense2(gi, H)}, dense2(gf, H), 0,
                             {onOperand(SfuFunc::Scale, 0, -1.0f),
                              onOperand(SfuFunc::AddImm, 0, 1.0f)})))
            return failure();
        } else if (failed(peepGate(2, 2, cPrev, gf))) {
          return failure();
        }
        st.clear();
        clipSteps(0, st);
        if (failed(act(1, 0, st)) ||
            failed(bhLayer({gate(3)}, dense2(gc, H), 0, st)))
          return failure();
        // C = f . C_{t-1} + i . c~
        if (failed(bhLayer({dense2(gf, H), dense2(cPrev, H)}, dense2(cNew, H),
                           0, {binary(SfuFunc::Mul, 0, 1, 0)})) ||
            failed(bhLayer({dense2(cNew, H), dense2(gi, H), dense2(gc, H)},
                           dense2(cNew, H), 0,
                           {binary(SfuFunc::Mul, 1, 2, 1),
                            binary(SfuFunc::Add, 0, 1, 0)})))
          return failure();
        if (failed(peepGate(1, 1, cNew, go)))
          return failure();
        // H = o . h(C)
        st.clear();
        if (failed(act(2, 1, st)))
          return failure();
        st.push_back(binary(SfuFunc::Mul, 0, 1, 0));
        if (failed(bhLayer({dense2(go, H), dense2(cNew, H)}, dense2(hNew, H), 0,
                           st)))
          return failure();
      }

      if (masked) {
        // m[b] = t < len[b]: finished sequences keep their state, output 0.
        std::vector<float> m(static_cast<size_t>(B), 0.0f);
        for (int64_t b = 0; b < B; ++b)
          m[size_t(b)] = t < lens[size_t(b)] ? 1.0f : 0.0f;
        View mv{addConstant(m), {1, 0}};
        auto select = [&](uint64_t fresh, uint64_t old, uint64_t dst) {
          return bhLayer({mv, dense2(fresh, H), dense2(old, H)}, dense2(dst, H),
                         0,
                         {binary(SfuFunc::MaskKeep, 0, 1, 1),
                          binary(SfuFunc::MaskDrop, 0, 2, 2),
                          binary(SfuFunc::Add, 1, 2, 0)});
        };
        const uint64_t hKeep = allocate(B * H);
        if (failed(select(hNew, hPrev, hKeep)) ||
            failed(bhLayer({mv, dense2(hNew, H)}, dense2(yt, H), 0,
                           {binary(SfuFunc::MaskKeep, 0, 1, 0)})))
          return failure();
        hNew = hKeep;
        if (kind == RnnKind::lstm) {
          const uint64_t cKeep = allocate(B * H);
          if (failed(select(cNew, cPrev, cKeep)))
            return failure();
          cNew = cKeep;
        }
      }
      hPrev = hNew;
      if (kind == RnnKind::lstm)
        cPrev = cNew;
    }
    emitCopyLayer(sb_, {B, H}, View{hPrev, {H, 1}},
                  View{yh + uint64_t(d * B * H * 4), {H, 1}});
    emitCopyLayer(sb_, {B, H},
                  View{kind == RnnKind::lstm ? cPrev : hPrev, {H, 1}},
                  View{yc + uint64_t(d * B * H * 4), {H, 1}});
  }
  return success();
}
