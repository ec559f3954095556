//===- TosaLinalgToGraph.cpp - tosa / linalg named ops -> graph dialect ---===//
//
// `convert-tosa-linalg-to-graph`: legalises ONNX-lowered MLIR (TOSA 1.0 ops
// and linalg named ops on tensors, as produced by onnx-mlir / torch-mlir /
// tosa-to-linalg) into the graph dialect, so that it meets the ONNX importer.
//
// Every supported op has one "convert" function that first analyses the op
// (returning failure and a reason without touching the IR) and, when given a
// rewriter, then rewrites it. The same function backs the rewrite pattern
// (greedy driver) and the final diagnostic: any tosa / linalg / tensor op
// left after the rewrite is an error naming the op and, when the op kind is
// known, why it could not be converted. See
// docs/passes/convert-tosa-linalg-to-graph.md.
//
//===----------------------------------------------------------------------===//
#include "accel/Conversion/Passes.h"

#include "TosaResize.h"

#include "Graph/GraphDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cfloat>

namespace accel {
#define GEN_PASS_DEF_CONVERTTOSALINALGTOGRAPH
#include "accel/Conversion/Passes.h.inc"
} // namespace accel

using namespace mlir;
namespace graph = accel::graph;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Signature of every conversion: analyse `op`; on success and with a
/// rewriter, replace it. On failure `why` says what is not supported and the
/// IR is untouched.
using ConvertFn = LogicalResult (*)(Operation *op, PatternRewriter *rw,
                                    std::string &why);

LogicalResult reject(std::string &why, const llvm::Twine &msg) {
  why = msg.str();
  return failure();
}

std::string str(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

std::string shapeStr(ArrayRef<int64_t> s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i)
    r += (i ? "," : "") + std::to_string(s[i]);
  return r + "]";
}

RankedTensorType staticF32(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  if (!rt || !rt.hasStaticShape() || !rt.getElementType().isF32())
    return nullptr;
  return rt;
}

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

RankedTensorType f32Tensor(MLIRContext *ctx, ArrayRef<int64_t> shape) {
  return RankedTensorType::get(shape, Float32Type::get(ctx));
}

/// Every tensor operand and result must be a statically shaped f32 tensor
/// (what the graph dialect holds).
LogicalResult checkTensorTypes(Operation *op, std::string &why) {
  for (auto [i, v] : llvm::enumerate(op->getOperands()))
    if (isa<TensorType>(v.getType()) && !staticF32(v.getType()))
      return reject(why, "operand #" + llvm::Twine(i) + " has type " +
                             str(v.getType()) +
                             " (only statically shaped f32 tensors are "
                             "supported)");
  for (auto [i, v] : llvm::enumerate(op->getResults()))
    if (isa<TensorType>(v.getType()) && !staticF32(v.getType()))
      return reject(why, "result #" + llvm::Twine(i) + " has type " +
                             str(v.getType()) +
                             " (only statically shaped f32 tensors are "
                             "supported)");
  return success();
}

/// A tensor that is all zeros: a splat-zero constant (arith.constant,
/// tosa.const) or a linalg.fill of a zero scalar.
bool isZeroTensor(Value v) {
  if (matchPattern(v, m_AnyZeroFloat()))
    return true;
  DenseElementsAttr attr;
  if (matchPattern(v, m_Constant(&attr))) {
    if (isa<FloatType>(attr.getElementType()))
      return llvm::all_of(attr.getValues<APFloat>(),
                          [](const APFloat &f) { return f.isZero(); });
    if (isa<IntegerType>(attr.getElementType()))
      return llvm::all_of(attr.getValues<APInt>(),
                          [](const APInt &i) { return i.isZero(); });
  }
  if (auto fill = v.getDefiningOp<linalg::FillOp>())
    return matchPattern(fill.getInputs()[0], m_AnyZeroFloat());
  return false;
}

/// x >= FLT_MAX (the upper bound of a ReLU-as-clamp).
bool isAtLeastFloatMax(const APFloat &x) {
  if (x.isNaN() || x.isNegative())
    return false;
  if (x.isInfinity())
    return true;
  bool lost = false;
  APFloat v = x;
  v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return v.convertToDouble() >= (double)FLT_MAX;
}

bool isFloatConstant(Value v, bool (*pred)(const APFloat &)) {
  FloatAttr f;
  if (matchPattern(v, m_Constant(&f)))
    return pred(f.getValue());
  DenseElementsAttr d;
  if (matchPattern(v, m_Constant(&d)) && d.isSplat() &&
      isa<FloatType>(d.getElementType()))
    return pred(d.getSplatValue<APFloat>());
  return false;
}

/// `perm`-transposed `v`: constants are transposed at compile time (weights
/// stay constants for the binary), anything else gets a graph.transpose.
Value transpose(PatternRewriter &rw, Location loc, Value v,
                ArrayRef<int64_t> perm) {
  auto ty = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(ty.getDimSize(p));
  auto outTy = RankedTensorType::get(shape, ty.getElementType());
  DenseElementsAttr attr;
  if (matchPattern(v, m_Constant(&attr)) && ty.getElementType().isF32()) {
    if (attr.isSplat())
      return arith::ConstantOp::create(
          rw, loc, outTy,
          DenseElementsAttr::get(outTy, attr.getSplatValue<Attribute>()));
    SmallVector<float> in(attr.getValues<float>());
    int64_t rank = shape.size();
    SmallVector<int64_t> inStride(rank, 1);
    for (int64_t d = rank - 2; d >= 0; --d)
      inStride[d] = inStride[d + 1] * ty.getDimSize(d + 1);
    SmallVector<float> out(in.size());
    SmallVector<int64_t> idx(rank, 0); // index into the output
    for (size_t o = 0; o < out.size(); ++o) {
      int64_t src = 0;
      for (int64_t d = 0; d < rank; ++d)
        src += idx[d] * inStride[perm[d]];
      out[o] = in[src];
      for (int64_t d = rank - 1; d >= 0; --d) {
        if (++idx[d] < shape[d])
          break;
        idx[d] = 0;
      }
    }
    return arith::ConstantOp::create(
        rw, loc, outTy, DenseElementsAttr::get(outTy, ArrayRef<float>(out)));
  }
  return graph::TransposeOp::create(rw, loc, outTy, v, perm);
}

SmallVector<int64_t> permuted(ArrayRef<int64_t> shape, ArrayRef<int64_t> perm) {
  SmallVector<int64_t> out;
  for (int64_t p : perm)
    out.push_back(shape[p]);
  return out;
}

LogicalResult checkShape(std::string &why, StringRef what,
                         const std::optional<SmallVector<int64_t>> &inferred,
                         const std::string &helperWhy,
                         ArrayRef<int64_t> expected) {
  if (!inferred)
    return reject(why, what + ": " + helperWhy);
  if (ArrayRef<int64_t>(*inferred) != expected)
    return reject(why, what + ": the graph op would have shape " +
                           shapeStr(*inferred) + ", not " + shapeStr(expected));
  return success();
}

//===----------------------------------------------------------------------===//
// TOSA
//===----------------------------------------------------------------------===//

LogicalResult convertTosaConst(Operation *op, PatternRewriter *rw,
                               std::string &why) {
  auto c = cast<tosa::ConstOp>(op);
  auto value = dyn_cast<TypedAttr>(c.getValuesAttr());
  if (!value || value.getType() != c.getType())
    return reject(why, "the constant's value is not a typed attribute");
  if (!rw)
    return success();
  rw->replaceOpWithNewOp<arith::ConstantOp>(op, c.getType(), value);
  return success();
}

LogicalResult convertTosaMatmul(Operation *op, PatternRewriter *rw,
                                std::string &why) {
  auto mm = cast<tosa::MatMulOp>(op);
  if (failed(checkTensorTypes(op, why)))
    return failure();
  if (!isZeroTensor(mm.getAZp()) || !isZeroTensor(mm.getBZp()))
    return reject(why, "zero points must be constant 0 for f32");
  auto resTy = cast<RankedTensorType>(mm.getType());
  std::string hw;
  if (failed(checkShape(
          why, "matmul",
          graph::matmulShape(shapeOf(mm.getA()), shapeOf(mm.getB()), hw), hw,
          resTy.getShape())))
    return failure();
  if (!rw)
    return success();
  rw->replaceOpWithNewOp<graph::MatMulOp>(op, resTy, mm.getA(), mm.getB());
  return success();
}

/// NHWC <-> NCHW and OHWI -> OIHW permutations.
constexpr int64_t kNhwcToNchw[] = {0, 3, 1, 2};
constexpr int64_t kNchwToNhwc[] = {0, 2, 3, 1};
constexpr int64_t kOhwiToOihw[] = {0, 3, 1, 2};
constexpr int64_t kHwcfToOihw[] = {3, 2, 0, 1};
constexpr int64_t kIdentity4[] = {0, 1, 2, 3};

LogicalResult convertTosaConv2D(Operation *op, PatternRewriter *rw,
                                std::string &why) {
  auto conv = cast<tosa::Conv2DOp>(op);
  if (failed(checkTensorTypes(op, why)))
    return failure();
  if (!isZeroTensor(conv.getInputZp()) || !isZeroTensor(conv.getWeightZp()))
    return reject(why, "zero points must be constant 0 for f32");
  if (!conv.getAccType().isF32())
    return reject(why, "acc_type " + str(conv.getAccType()) +
                           " is not supported (f32 only)");
  ArrayRef<int64_t> pad = conv.getPad(); // top, bottom, left, right
  SmallVector<int64_t> pads{pad[0], pad[2], pad[1], pad[3]};
  SmallVector<int64_t> strides(conv.getStride()), dil(conv.getDilation());
  auto in = permuted(shapeOf(conv.getInput()), kNhwcToNchw);
  auto w = permuted(shapeOf(conv.getWeight()), kOhwiToOihw);
  auto resTy = cast<RankedTensorType>(conv.getType());
  Value bias = conv.getBias();
  int64_t outC = w[0];
  bool zeroBias = isZeroTensor(bias);
  bool channelBias = !zeroBias && shapeOf(bias)[0] == outC;
  ArrayRef<int64_t> biasShape = shapeOf(bias);
  std::string hw;
  if (failed(checkShape(why, "conv2d",
                        graph::conv2dShape(in, w,
                                           channelBias ? &biasShape : nullptr,
                                           strides, pads, dil, 1, hw),
                        hw, permuted(resTy.getShape(), kNhwcToNchw))))
    return failure();
  if (!rw)
    return success();

  Location loc = op->getLoc();
  Value x = transpose(*rw, loc, conv.getInput(), kNhwcToNchw);
  Value wt = transpose(*rw, loc, conv.getWeight(), kOhwiToOihw);
  auto nchwTy =
      f32Tensor(op->getContext(), permuted(resTy.getShape(), kNhwcToNchw));
  Value y = graph::Conv2DOp::create(*rw, loc, nchwTy, x, wt,
                                    channelBias ? bias : Value(), strides, pads,
                                    dil, 1);
  Value out = transpose(*rw, loc, y, kNchwToNhwc);
  if (!zeroBias && !channelBias) // a single bias value: broadcast add
    out = graph::AddOp::create(*rw, loc, resTy, out, bias);
  rw->replaceOp(op, out);
  return success();
}

LogicalResult convertTosaAdd(Operation *op, PatternRewriter *rw,
                             std::string &why) {
  auto add = cast<tosa::AddOp>(op);
  if (failed(checkTensorTypes(op, why)))
    return failure();
  auto resTy = cast<RankedTensorType>(add.getType());
  std::string hw;
  if (failed(checkShape(why, "add",
                        graph::broadcastShapes(shapeOf(add.getInput1()),
                                               shapeOf(add.getInput2()), hw),
                        hw, resTy.getShape())))
    return failure();
  if (!rw)
    return success();
  rw->replaceOpWithNewOp<graph::AddOp>(op, resTy, add.getInput1(),
                                       add.getInput2());
  return success();
}

LogicalResult convertTosaClamp(Operation *op, PatternRewriter *rw,
                               std::string &why) {
  auto clamp = cast<tosa::ClampOp>(op);
  if (failed(checkTensorTypes(op, why)))
    return failure();
  auto lo = dyn_cast<FloatAttr>(clamp.getMinValAttr());
  auto hi = dyn_cast<FloatAttr>(clamp.getMaxValAttr());
  if (!lo || !hi)
    return reject(why, "min_val / max_val must be f32 attributes");
  if (!rw)
    return success();
  // [0, >= FLT_MAX] is a ReLU; anything else a clip.
  if (lo.getValue().isZero() && isAtLeastFloatMax(hi.getValue())) {
    rw->replaceOpWithNewOp<graph::ReluOp>(op, clamp.getType(),
                                          clamp.getInput());
    return success();
  }
  rw->replaceOpWithNewOp<graph::UnaryOp>(op, clamp.getType(),
                                         graph::UnaryFn::clip, clamp.getInput(),
                                         lo.getValue(), hi.getValue());
  return success();
}

/// max(x, 0) / max(0, x) with a zero operand of any broadcastable shape is
/// a ReLU; any other maximum a graph.binary max.
LogicalResult convertMaxAsRelu(Operation *op, Value a, Value b,
                               PatternRewriter *rw, std::string &why) {
  if (failed(checkTensorTypes(op, why)))
    return failure();
  auto resTy = cast<RankedTensorType>(op->getResult(0).getType());
  Value x = isZeroTensor(b) ? a : isZeroTensor(a) ? b : Value();
  if (x && x.getType() == resTy) {
    if (!rw)
      return success();
    rw->replaceOpWithNewOp<graph::ReluOp>(op, x.getType(), x);
    return success();
  }
  std::string hw;
  if (failed(checkShape(why, "maximum",
                        graph::broadcastShapes(shapeOf(a), shapeOf(b), hw), hw,
                        resTy.getShape())))
    return failure();
  if (!rw)
    return success();
  rw->replaceOpWithNewOp<graph::BinaryOp>(op, resTy, graph::BinaryFn::max, a,
                                          b);
  return success();
}

LogicalResult convertTosaMaximum(Operation *op, PatternRewriter *rw,
                                 std::string &why) {
  auto m = cast<tosa::MaximumOp>(op);
  return convertMaxAsRelu(op, m.getInput1(), m.getInput2(), rw, why);
}

LogicalResult convertTosaTranspose(Operation *op, PatternRewriter *rw,
                                   std::string &why) {
  auto t = cast<tosa::TransposeOp>(op);
  if (failed(checkTensorTypes(op, why)))
    return failure();
  SmallVector<int64_t> perm(t.getPerms().begin(), t.getPerms().end());
  if (!rw)
    return success();
  rw->replaceOp(op, transpose(*rw, op->getLoc(), t.getInput1(), perm));
  return success();
}

LogicalResult convertTosaReshape(Operation *op, PatternRewriter *rw,
                                 std::string &why) {
  auto r = cast<tosa::ReshapeOp>(op);
  if (failed(checkTensorTypes(op, why)))
    return failure();
  if (!rw)
    return success();
  rw->replaceOpWithNewOp<graph::ReshapeOp>(op, r.getType(), r.getInput1());
  return success();
}

LogicalResult convertTosaIdentity(Operation *op, PatternRewriter *rw,
                                  std::string &why) {
  if (op->getNumOperands() != 1 || op->getNumResults() != 1 ||
      op->getOperand(0).getType() != op->getResult(0).getType())
    return reject(why, "identity with a type change");
  if (!rw)
    return success();
  rw->replaceOp(op, op->getOperand(0));
  return success();
}

//===----------------------------------------------------------------------===//
// linalg
//===----------------------------------------------------------------------===//

LogicalResult convertLinalgFill(Operation *op, PatternRewriter *rw,
                                std::string &why) {
  auto fill = cast<linalg::FillOp>(op);
  if (!fill.hasPureTensorSemantics())
    return reject(why, "only fills on tensors are supported");
  if (failed(checkTensorTypes(op, why)))
    return failure();
  FloatAttr value;
  if (!matchPattern(fill.getInputs()[0], m_Constant(&value)) ||
      !value.getType().isF32())
    return reject(why, "only fills with a constant f32 value are supported");
  if (!rw)
    return success();
  auto ty = cast<RankedTensorType>(fill.getResult(0).getType());
  rw->replaceOpWithNewOp<arith::ConstantOp>(
      op, ty, DenseElementsAttr::get(ty, value.getValue()));
  return success();
}

/// Replaces a destination-style `op` computing `value` (which overwrote the
/// zero init) so that the init is accumulated: a non-zero init is added.
void replaceAccumulating(PatternRewriter &rw, Operation *op, Value value,
                         Value init) {
  if (!isZeroTensor(init))
    value = graph::AddOp::create(rw, op->getLoc(), init.getType(), value, init);
  rw.replaceOp(op, value);
}

/// linalg.matmul with user-defined indexing maps that only transpose A
/// and/or B (torch-mlir's matmul_transpose_b form): graph.gemm with
/// trans_a / trans_b and the init as C (beta = 1) unless it is zero.
LogicalResult convertTransposedMatmul(linalg::MatmulOp mm, PatternRewriter *rw,
                                      std::string &why) {
  MLIRContext *ctx = mm.getContext();
  auto map = [&](unsigned r0, unsigned r1) {
    return AffineMap::get(
        3, 0, {getAffineDimExpr(r0, ctx), getAffineDimExpr(r1, ctx)}, ctx);
  };
  auto maps = mm.getIndexingMapsArray();
  bool transA = maps[0] == map(2, 0), transB = maps[1] == map(1, 2);
  if ((!transA && maps[0] != map(0, 2)) || (!transB && maps[1] != map(2, 1)) ||
      maps[2] != map(0, 1))
    return reject(why, "only indexing_maps that transpose A and/or B are "
                       "supported (no broadcast operands)");
  Value a = mm.getDpsInputs()[0], b = mm.getDpsInputs()[1];
  Value init = mm.getDpsInits()[0];
  bool zeroInit = isZeroTensor(init);
  auto resTy = cast<RankedTensorType>(mm.getResult(0).getType());
  ArrayRef<int64_t> cShape = resTy.getShape();
  std::string hw;
  if (failed(checkShape(why, "matmul",
                        graph::gemmShape(shapeOf(a), shapeOf(b),
                                         zeroInit ? nullptr : &cShape, transA,
                                         transB, hw),
                        hw, resTy.getShape())))
    return failure();
  if (!rw)
    return success();
  rw->replaceOpWithNewOp<graph::GemmOp>(
      mm, resTy, a, b, zeroInit ? Value() : init, llvm::APFloat(1.0f),
      llvm::APFloat(1.0f), transA, transB);
  return success();
}

template <typename MatmulT>
LogicalResult convertLinalgMatmul(Operation *op, PatternRewriter *rw,
                                  std::string &why) {
  auto mm = cast<MatmulT>(op);
  if (!mm.hasPureTensorSemantics())
    return reject(why, "only matmuls on tensors are supported");
  if (failed(checkTensorTypes(op, why)))
    return failure();
  if (mm.hasUserDefinedMaps()) {
    if constexpr (std::is_same_v<MatmulT, linalg::MatmulOp>)
      return convertTransposedMatmul(mm, rw, why);
    return reject(why, "user-defined indexing_maps are not supported");
  }
  Value a = mm.getDpsInputs()[0], b = mm.getDpsInputs()[1];
  Value init = mm.getDpsInits()[0];
  auto resTy = cast<RankedTensorType>(op->getResult(0).getType());
  std::string hw;
  if (failed(checkShape(why, "matmul",
                        graph::matmulShape(shapeOf(a), shapeOf(b), hw), hw,
                        resTy.getShape())))
    return failure();
  if (!rw)
    return success();
  Value prod = graph::MatMulOp::create(*rw, op->getLoc(), resTy, a, b);
  replaceAccumulating(*rw, op, prod, init);
  return success();
}

/// If `init` broadcasts a 1-D tensor along every dimension except
/// `channelDim` (linalg.broadcast, or the linalg.generic copy that
/// tosa-to-linalg emits for a conv bias), returns that 1-D tensor.
Value matchChannelBroadcast(Value init, int64_t channelDim) {
  auto initTy = cast<RankedTensorType>(init.getType());
  int64_t rank = initTy.getRank();
  if (auto bc = init.getDefiningOp<linalg::BroadcastOp>()) {
    SmallVector<int64_t> expect;
    for (int64_t d = 0; d < rank; ++d)
      if (d != channelDim)
        expect.push_back(d);
    if (bc.getDimensions() == ArrayRef<int64_t>(expect) &&
        staticF32(bc.getInput().getType()))
      return bc.getInput();
    return nullptr;
  }
  auto gen = init.getDefiningOp<linalg::GenericOp>();
  if (!gen || !gen.hasPureTensorSemantics() || gen.getNumDpsInputs() != 1 ||
      gen.getNumDpsInits() != 1 ||
      gen.getNumParallelLoops() != gen.getNumLoops())
    return nullptr;
  Block &body = gen.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (body.getOperations().size() != 1 || yield.getNumOperands() != 1 ||
      yield.getOperand(0) != body.getArgument(0))
    return nullptr;
  auto maps = gen.getIndexingMapsArray();
  MLIRContext *ctx = gen.getContext();
  if (!maps[1].isIdentity() ||
      maps[0] != AffineMap::get(rank, 0, getAffineDimExpr(channelDim, ctx)))
    return nullptr;
  Value b = gen.getDpsInputs()[0];
  if (!staticF32(b.getType()))
    return nullptr;
  return b;
}

enum class ConvLayout { NchwFchw, NhwcFhwc, NhwcHwcf };

template <typename ConvT, ConvLayout layout>
LogicalResult convertLinalgConv(Operation *op, PatternRewriter *rw,
                                std::string &why) {
  auto conv = cast<ConvT>(op);
  if (!conv.hasPureTensorSemantics())
    return reject(why, "only convolutions on tensors are supported");
  if (failed(checkTensorTypes(op, why)))
    return failure();
  bool nchw = layout == ConvLayout::NchwFchw;
  int64_t hDim = nchw ? 2 : 1, wDim = nchw ? 3 : 2, cDim = nchw ? 1 : 3;
  Value input = conv.getDpsInputs()[0], filter = conv.getDpsInputs()[1];
  Value init = conv.getDpsInits()[0];

  // Fold a preceding zero tensor.pad of the spatial dimensions into pads.
  SmallVector<int64_t> pads{0, 0, 0, 0}; // top, left, bottom, right
  if (auto pad = input.getDefiningOp<tensor::PadOp>()) {
    ArrayRef<int64_t> lo = pad.getStaticLow(), hi = pad.getStaticHigh();
    bool spatialOnly = lo.size() == 4 && lo[0] == 0 && hi[0] == 0 &&
                       lo[cDim] == 0 && hi[cDim] == 0;
    bool staticPads = llvm::none_of(lo, ShapedType::isDynamic) &&
                      llvm::none_of(hi, ShapedType::isDynamic);
    Value padValue = pad.getConstantPaddingValue();
    if (staticPads && spatialOnly && padValue &&
        matchPattern(padValue, m_AnyZeroFloat()) &&
        staticF32(pad.getSource().getType())) {
      pads = {lo[hDim], lo[wDim], hi[hDim], hi[wDim]};
      input = pad.getSource();
    }
  }
  SmallVector<int64_t> strides(conv.getStrides().template getValues<int64_t>());
  SmallVector<int64_t> dil(conv.getDilations().template getValues<int64_t>());

  ArrayRef<int64_t> toNchw(nchw ? kIdentity4 : kNhwcToNchw);
  ArrayRef<int64_t> filterToOihw(layout == ConvLayout::NchwFchw ? kIdentity4
                                 : layout == ConvLayout::NhwcFhwc
                                     ? kOhwiToOihw
                                     : kHwcfToOihw);
  auto in = permuted(shapeOf(input), toNchw);
  auto w = permuted(shapeOf(filter), filterToOihw);
  auto resTy = cast<RankedTensorType>(op->getResult(0).getType());
  Value bias = isZeroTensor(init) ? Value() : matchChannelBroadcast(init, cDim);
  ArrayRef<int64_t> biasShape;
  if (bias)
    biasShape = shapeOf(bias);
  std::string hw;
  if (failed(checkShape(why, "conv2d",
                        graph::conv2dShape(in, w, bias ? &biasShape : nullptr,
                                           strides, pads, dil, 1, hw),
                        hw, permuted(resTy.getShape(), toNchw))))
    return failure();
  if (!rw)
    return success();

  Location loc = op->getLoc();
  Value x = nchw ? input : transpose(*rw, loc, input, kNhwcToNchw);
  Value wt = nchw ? filter : transpose(*rw, loc, filter, filterToOihw);
  auto nchwTy = f32Tensor(op->getContext(), permuted(resTy.getShape(), toNchw));
  Value y = graph::Conv2DOp::create(*rw, loc, nchwTy, x, wt, bias, strides,
                                    pads, dil, 1);
  if (!nchw)
    y = transpose(*rw, loc, y, kNchwToNhwc);
  if (bias)
    rw->replaceOp(op, y);
  else
    replaceAccumulating(*rw, op, y, init);
  return success();
}

LogicalResult convertLinalgAdd(Operation *op, PatternRewriter *rw,
                               std::string &why) {
  auto add = cast<linalg::AddOp>(op);
  if (!add.hasPureTensorSemantics())
    return reject(why, "only adds on tensors are supported");
  if (failed(checkTensorTypes(op, why)))
    return failure();
  Value a = add.getDpsInputs()[0], b = add.getDpsInputs()[1];
  auto resTy = cast<RankedTensorType>(op->getResult(0).getType());
  if (a.getType() != resTy || b.getType() != resTy)
    return reject(why, "operand and result shapes differ");
  if (!rw)
    return success();
  rw->replaceOpWithNewOp<graph::AddOp>(op, resTy, a, b);
  return success();
}

LogicalResult convertLinalgMax(Operation *op, PatternRewriter *rw,
                               std::string &why) {
  auto max = cast<linalg::MaxOp>(op);
  if (!max.hasPureTensorSemantics())
    return reject(why, "only maxima on tensors are supported");
  return convertMaxAsRelu(op, max.getDpsInputs()[0], max.getDpsInputs()[1], rw,
                          why);
}

LogicalResult convertLinalgTranspose(Operation *op, PatternRewriter *rw,
                                     std::string &why) {
  auto t = cast<linalg::TransposeOp>(op);
  if (!t.hasPureTensorSemantics())
    return reject(why, "only transposes on tensors are supported");
  if (failed(checkTensorTypes(op, why)))
    return failure();
  if (!rw)
    return success();
  rw->replaceOp(op,
                transpose(*rw, op->getLoc(), t.getInput(), t.getPermutation()));
  return success();
}

/// Strips min(v, c) with c >= FLT_MAX (the upper half of a ReLU clamp).
Value stripUpperClamp(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || !isa<arith::MinimumFOp, arith::MinNumFOp>(def))
    return v;
  auto atLeastMax = [](const APFloat &f) { return isAtLeastFloatMax(f); };
  if (isFloatConstant(def->getOperand(1), atLeastMax))
    return def->getOperand(0);
  if (isFloatConstant(def->getOperand(0), atLeastMax))
    return def->getOperand(1);
  return v;
}

/// The block argument whose ReLU `v` is, or null.
Value matchReluBody(Value v) {
  v = stripUpperClamp(v);
  Operation *def = v.getDefiningOp();
  if (!def || !isa<arith::MaximumFOp, arith::MaxNumFOp>(def))
    return nullptr;
  auto zero = [](const APFloat &f) { return f.isZero(); };
  Value x = isFloatConstant(def->getOperand(1), zero)   ? def->getOperand(0)
            : isFloatConstant(def->getOperand(0), zero) ? def->getOperand(1)
                                                        : Value();
  if (!x)
    return nullptr;
  x = stripUpperClamp(x);
  return isa<BlockArgument>(x) ? x : Value();
}

/// Whether `map` reads an operand of shape `shape` the way numpy
/// broadcasting would against an output of rank map.getNumDims():
/// right-aligned dimensions, each either the loop dimension or a constant 0
/// on a size-1 operand dimension.
bool isNumpyBroadcastMap(AffineMap map, ArrayRef<int64_t> shape) {
  unsigned n = map.getNumDims(), k = map.getNumResults();
  if (k > n || shape.size() != k)
    return false;
  for (unsigned j = 0; j < k; ++j) {
    AffineExpr e = map.getResult(j);
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      if (d.getPosition() != n - k + j)
        return false;
    } else if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      if (c.getValue() != 0 || shape[j] != 1)
        return false;
    } else {
      return false;
    }
  }
  return true;
}

/// Elementwise linalg.generic: ReLU (max(x, 0), optionally clamped at
/// >= FLT_MAX) and addition with numpy-style broadcast operands.
LogicalResult convertLinalgGeneric(Operation *op, PatternRewriter *rw,
                                   std::string &why) {
  auto gen = cast<linalg::GenericOp>(op);
  if (!gen.hasPureTensorSemantics())
    return reject(why, "only generics on tensors are supported");
  if (failed(checkTensorTypes(op, why)))
    return failure();
  if (gen.getNumDpsInits() != 1 ||
      gen.getNumParallelLoops() != gen.getNumLoops())
    return reject(why, "only elementwise generics (all loops parallel, one "
                       "result) are recognised");
  auto maps = gen.getIndexingMapsArray();
  if (!maps.back().isIdentity())
    return reject(why, "the output indexing map is not the identity");
  Block &body = gen.getRegion().front();
  Value yielded = cast<linalg::YieldOp>(body.getTerminator()).getOperand(0);
  auto resTy = cast<RankedTensorType>(gen.getResult(0).getType());
  unsigned numIn = gen.getNumDpsInputs();

  // ReLU.
  if (numIn == 1) {
    Value arg = matchReluBody(yielded);
    if (arg && arg == body.getArgument(0)) {
      Value x = gen.getDpsInputs()[0];
      if (!maps[0].isIdentity() || x.getType() != resTy)
        return reject(why, "a ReLU generic must read its input with the "
                           "identity map");
      if (!rw)
        return success();
      rw->replaceOpWithNewOp<graph::ReluOp>(op, resTy, x);
      return success();
    }
  }
  // Addition.
  if (numIn == 2) {
    auto addf = yielded.getDefiningOp<arith::AddFOp>();
    if (addf && addf->getBlock() == &body &&
        ((addf.getLhs() == body.getArgument(0) &&
          addf.getRhs() == body.getArgument(1)) ||
         (addf.getLhs() == body.getArgument(1) &&
          addf.getRhs() == body.getArgument(0)))) {
      Value a = gen.getDpsInputs()[0], b = gen.getDpsInputs()[1];
      if (!isNumpyBroadcastMap(maps[0], shapeOf(a)) ||
          !isNumpyBroadcastMap(maps[1], shapeOf(b)))
        return reject(why, "an operand's indexing map is not a numpy-style "
                           "broadcast");
      std::string hw;
      if (failed(checkShape(why, "add",
                            graph::broadcastShapes(shapeOf(a), shapeOf(b), hw),
                            hw, resTy.getShape())))
        return failure();
      if (!rw)
        return success();
      rw->replaceOpWithNewOp<graph::AddOp>(op, resTy, a, b);
      return success();
    }
  }
  return reject(why, "the body is not a recognised elementwise ReLU or "
                     "addition (a broadcast copy is only supported as the "
                     "bias of a convolution)");
}

//===----------------------------------------------------------------------===//
// tensor
//===----------------------------------------------------------------------===//

LogicalResult convertReassociativeReshape(Operation *op, PatternRewriter *rw,
                                          std::string &why) {
  if (failed(checkTensorTypes(op, why)))
    return failure();
  if (!rw)
    return success();
  rw->replaceOpWithNewOp<graph::ReshapeOp>(op, op->getResult(0).getType(),
                                           op->getOperand(0));
  return success();
}

LogicalResult explainPad(Operation *op, PatternRewriter *rw, std::string &why) {
  return reject(why, "tensor.pad is only supported as the padding of the "
                     "spatial dimensions of a convolution (zero) or pooling "
                     "(neutral value) input");
}

LogicalResult explainEmpty(Operation *op, PatternRewriter *rw,
                           std::string &why) {
  return reject(why, "tensor.empty is only supported as the init of a "
                     "converted op");
}

LogicalResult explainBroadcast(Operation *op, PatternRewriter *rw,
                               std::string &why) {
  return reject(why, "linalg.broadcast is only supported as the bias of a "
                     "convolution");
}

//===----------------------------------------------------------------------===//
// Cleanup of the transposes the layout changes introduce
//===----------------------------------------------------------------------===//

/// transpose(transpose(x, p1), p2) -> transpose(x, p1 o p2); an identity
/// permutation disappears. Layout round trips (NCHW -> NHWC -> conv -> NCHW)
/// vanish this way.
struct ComposeTransposes : OpRewritePattern<graph::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(graph::TransposeOp op,
                                PatternRewriter &rw) const override {
    ArrayRef<int64_t> outer = op.getPerm();
    if (llvm::equal(outer, llvm::seq<int64_t>(0, outer.size()))) {
      rw.replaceOp(op, op.getInput());
      return success();
    }
    auto inner = op.getInput().getDefiningOp<graph::TransposeOp>();
    if (!inner)
      return failure();
    SmallVector<int64_t> perm;
    for (int64_t p : outer)
      perm.push_back(inner.getPerm()[p]);
    if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
      rw.replaceOp(op, inner.getInput());
    else
      rw.replaceOpWithNewOp<graph::TransposeOp>(op, op.getType(),
                                                inner.getInput(), perm);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Elementwise, reductions, pooling, layout (issue 3)
//===----------------------------------------------------------------------===//

/// Like checkTensorTypes, but i1 tensors are allowed too (conditions and
/// comparison results).
LogicalResult checkTensorTypesI1(Operation *op, std::string &why) {
  auto ok = [](Type t) {
    auto rt = dyn_cast<RankedTensorType>(t);
    return rt && rt.hasStaticShape() &&
           (rt.getElementType().isF32() || rt.getElementType().isInteger(1));
  };
  for (auto [i, v] : llvm::enumerate(op->getOperands()))
    if (isa<TensorType>(v.getType()) && !ok(v.getType()))
      return reject(why, "operand #" + llvm::Twine(i) + " has type " +
                             str(v.getType()) +
                             " (only statically shaped f32 / i1 tensors are "
                             "supported)");
  for (auto [i, v] : llvm::enumerate(op->getResults()))
    if (isa<TensorType>(v.getType()) && !ok(v.getType()))
      return reject(why, "result #" + llvm::Twine(i) + " has type " +
                             str(v.getType()) +
                             " (only statically shaped f32 / i1 tensors are "
                             "supported)");
  return success();
}

/// The values of a `tosa.const_shape` operand.
std::optional<SmallVector<int64_t>> constShape(Value v) {
  auto cs = v.getDefiningOp<tosa::ConstShapeOp>();
  if (!cs)
    return std::nullopt;
  SmallVector<int64_t> out;
  for (const APInt &x : cs.getValues().getValues<APInt>())
    out.push_back(x.getSExtValue());
  return out;
}

/// Elementwise unary op (one operand, same type) -> graph.unary `fn`.
LogicalResult convertUnaryTo(Operation *op, Value x, graph::UnaryFn fn,
                             PatternRewriter *rw, std::string &why) {
  if (failed(checkTensorTypes(op, why)))
    return failure();
  Type resTy = op->getResult(0).getType();
  if (x.getType() != resTy)
    return reject(why, "operand and result types differ");
  if (!rw)
    return success();
  // One spelling per operation: a ReLU is graph.relu.
  if (fn == graph::UnaryFn::relu) {
    rw->replaceOpWithNewOp<graph::ReluOp>(op, resTy, x);
    return success();
  }
  rw->replaceOpWithNewOp<graph::UnaryOp>(op, resTy, fn, x, llvm::APFloat(0.0f),
                                         llvm::APFloat(0.0f));
  return success();
}

/// Elementwise binary op with numpy broadcasting -> graph.binary `fn`.
LogicalResult convertBinaryTo(Operation *op, Value a, Value b,
                              graph::BinaryFn fn, PatternRewriter *rw,
                              std::string &why) {
  auto staticTensor = [](Type t) {
    auto rt = dyn_cast<RankedTensorType>(t);
    return rt && rt.hasStaticShape();
  };
  for (Value v : SmallVector<Value>{a, b, op->getResult(0)})
    if (!staticTensor(v.getType()))
      return reject(why, "type " + str(v.getType()) +
                             " is not a statically shaped tensor");
  bool cmp = fn == graph::BinaryFn::equal || fn == graph::BinaryFn::less ||
             fn == graph::BinaryFn::greater ||
             fn == graph::BinaryFn::less_equal ||
             fn == graph::BinaryFn::greater_equal;
  auto resTy = cast<RankedTensorType>(op->getResult(0).getType());
  auto elem = [](Value v) {
    return cast<RankedTensorType>(v.getType()).getElementType();
  };
  if (!elem(a).isF32() || !elem(b).isF32())
    return reject(why, "operands have types " + str(a.getType()) + " and " +
                           str(b.getType()) +
                           " (only f32 tensors are supported)");
  if (cmp != resTy.getElementType().isInteger(1))
    return reject(why, cmp ? "a comparison must produce i1"
                           : "the result must be f32");
  std::string hw;
  if (failed(checkShape(why, "binary",
                        graph::broadcastShapes(shapeOf(a), shapeOf(b), hw), hw,
                        resTy.getShape())))
    return failure();
  if (!rw)
    return success();
  // One spelling per operation: an f32 sum is graph.add.
  if (fn == graph::BinaryFn::add) {
    rw->replaceOpWithNewOp<graph::AddOp>(op, resTy, a, b);
    return success();
  }
  rw->replaceOpWithNewOp<graph::BinaryOp>(op, resTy, fn, a, b);
  return success();
}

template <typename OpT, graph::UnaryFn fn>
LogicalResult convertTosaUnary(Operation *op, PatternRewriter *rw,
                               std::string &why) {
  // Activation-like ops name their operand `input`, the others `input1`.
  return convertUnaryTo(op, op->getOperand(0), fn, rw, why);
}

template <typename OpT, graph::BinaryFn fn>
LogicalResult convertTosaBinary(Operation *op, PatternRewriter *rw,
                                std::string &why) {
  auto b = cast<OpT>(op);
  return convertBinaryTo(op, b.getInput1(), b.getInput2(), fn, rw, why);
}

LogicalResult convertTosaMul(Operation *op, PatternRewriter *rw,
                             std::string &why) {
  auto mul = cast<tosa::MulOp>(op);
  if (!isZeroTensor(mul.getShift()))
    return reject(why, "the shift must be a constant 0 (f32 multiply)");
  return convertBinaryTo(op, mul.getInput1(), mul.getInput2(),
                         graph::BinaryFn::mul, rw, why);
}

LogicalResult convertTosaNegate(Operation *op, PatternRewriter *rw,
                                std::string &why) {
  auto neg = cast<tosa::NegateOp>(op);
  if (!isZeroTensor(neg.getInput1Zp()) || !isZeroTensor(neg.getOutputZp()))
    return reject(why, "zero points must be constant 0 for f32");
  return convertUnaryTo(op, neg.getInput1(), graph::UnaryFn::neg, rw, why);
}

/// rsqrt(x) = reciprocal(sqrt(x)).
LogicalResult convertTosaRsqrt(Operation *op, PatternRewriter *rw,
                               std::string &why) {
  auto r = cast<tosa::RsqrtOp>(op);
  if (failed(convertUnaryTo(op, r.getInput1(), graph::UnaryFn::sqrt, nullptr,
                            why)))
    return failure();
  if (!rw)
    return success();
  Value s = graph::UnaryOp::create(*rw, op->getLoc(), r.getType(),
                                   graph::UnaryFn::sqrt, r.getInput1(),
                                   llvm::APFloat(0.0f), llvm::APFloat(0.0f));
  rw->replaceOpWithNewOp<graph::UnaryOp>(
      op, r.getType(), graph::UnaryFn::reciprocal, s, llvm::APFloat(0.0f),
      llvm::APFloat(0.0f));
  return success();
}

LogicalResult convertTosaMinimum(Operation *op, PatternRewriter *rw,
                                 std::string &why) {
  auto m = cast<tosa::MinimumOp>(op);
  return convertBinaryTo(op, m.getInput1(), m.getInput2(), graph::BinaryFn::min,
                         rw, why);
}

LogicalResult convertTosaSelect(Operation *op, PatternRewriter *rw,
                                std::string &why) {
  auto sel = cast<tosa::SelectOp>(op);
  if (failed(checkTensorTypesI1(op, why)))
    return failure();
  auto resTy = cast<RankedTensorType>(sel.getType());
  if (!cast<RankedTensorType>(sel.getPred().getType())
           .getElementType()
           .isInteger(1) ||
      !resTy.getElementType().isF32())
    return reject(why, "the predicate must be i1 and the values f32");
  std::string hw;
  auto xy = graph::broadcastShapes(shapeOf(sel.getOnTrue()),
                                   shapeOf(sel.getOnFalse()), hw);
  if (failed(checkShape(
          why, "select",
          xy ? graph::broadcastShapes(shapeOf(sel.getPred()), *xy, hw) : xy, hw,
          resTy.getShape())))
    return failure();
  if (!rw)
    return success();
  rw->replaceOpWithNewOp<graph::WhereOp>(op, resTy, sel.getPred(),
                                         sel.getOnTrue(), sel.getOnFalse());
  return success();
}

/// TOSA reductions keep the reduced dimension (size 1).
template <typename OpT, graph::ReduceFn fn>
LogicalResult convertTosaReduce(Operation *op, PatternRewriter *rw,
                                std::string &why) {
  auto r = cast<OpT>(op);
  if (failed(checkTensorTypes(op, why)))
    return failure();
  int64_t axis = r.getAxis();
  auto resTy = cast<RankedTensorType>(r.getType());
  std::string hw;
  if (failed(checkShape(
          why, "reduce",
          graph::reduceShape(shapeOf(r.getInput()), {axis}, true, hw), hw,
          resTy.getShape())))
    return failure();
  if (!rw)
    return success();
  rw->replaceOpWithNewOp<graph::ReduceOp>(op, resTy, fn, r.getInput(),
                                          ArrayRef<int64_t>{axis}, true, false);
  return success();
}

/// tosa.argmax drops the axis; the graph dialect's indices are i64.
LogicalResult convertTosaArgMax(Operation *op, PatternRewriter *rw,
                                std::string &why) {
  auto am = cast<tosa::ArgMaxOp>(op);
  if (!staticF32(am.getInput().getType()))
    return reject(why, "the input must be a statically shaped f32 tensor");
  auto resTy = cast<RankedTensorType>(am.getType());
  if (!resTy.getElementType().isInteger(64))
    return reject(why, "the result must be i64 (the graph dialect's index "
                       "type), got " +
                           str(resTy.getElementType()));
  int64_t axis = am.getAxis();
  std::string hw;
  if (failed(checkShape(
          why, "argmax",
          graph::reduceShape(shapeOf(am.getInput()), {axis}, false, hw), hw,
          resTy.getShape())))
    return failure();
  if (!rw)
    return success();
  rw->replaceOpWithNewOp<graph::ReduceOp>(
      op, resTy, graph::ReduceFn::argmax, am.getInput(),
      ArrayRef<int64_t>{axis}, false, false);
  return success();
}

/// NHWC pooling: transposes around graph.pool2d (pad [top, bottom, left,
/// right] -> pads [top, left, bottom, right]). TOSA's average excludes
/// the padding from the divisor.
template <typename OpT>
LogicalResult convertTosaPool(Operation *op, PatternRewriter *rw,
                              std::string &why) {
  auto pool = cast<OpT>(op);
  constexpr bool isAvg = std::is_same_v<OpT, tosa::AvgPool2dOp>;
  if (failed(checkTensorTypes(op, why)))
    return failure();
  if constexpr (isAvg) {
    if (!isZeroTensor(pool.getInputZp()) || !isZeroTensor(pool.getOutputZp()))
      return reject(why, "zero points must be constant 0 for f32");
    if (!pool.getAccType().isF32())
      return reject(why, "acc_type must be f32");
  }
  ArrayRef<int64_t> pad = pool.getPad();
  SmallVector<int64_t> pads{pad[0], pad[2], pad[1], pad[3]};
  SmallVector<int64_t> kernel(pool.getKernel()), strides(pool.getStride());
  auto in = permuted(shapeOf(pool.getInput()), kNhwcToNchw);
  auto resTy = cast<RankedTensorType>(pool.getType());
  SmallVector<int64_t> out{in[0], in[1], 0, 0};
  std::string hw;
  for (int i = 0; i < 2; ++i) {
    auto e = graph::poolExtent(in[2 + i], kernel[i], strides[i], pads[i],
                               pads[i + 2], 1, false, hw);
    if (!e)
      return reject(why, "pool2d: " + hw);
    out[2 + i] = *e;
  }
  if (permuted(out, kNchwToNhwc) != SmallVector<int64_t>(resTy.getShape()))
    return reject(why, "pool2d: the graph op would have shape " +
                           shapeStr(permuted(out, kNchwToNhwc)) + ", not " +
                           shapeStr(resTy.getShape()));
  if (!rw)
    return success();
  Location loc = op->getLoc();
  Value x = transpose(*rw, loc, pool.getInput(), kNhwcToNchw);
  Value y = graph::Pool2DOp::create(
      *rw, loc, f32Tensor(op->getContext(), out),
      isAvg ? graph::PoolKind::avg : graph::PoolKind::max, x, kernel, strides,
      pads, SmallVector<int64_t>{1, 1}, false, false);
  rw->replaceOp(op, transpose(*rw, loc, y, kNchwToNhwc));
  return success();
}

LogicalResult convertTosaConcat(Operation *op, PatternRewriter *rw,
                                std::string &why) {
  auto cat = cast<tosa::ConcatOp>(op);
  if (failed(checkTensorTypes(op, why)))
    return failure();
  if (!rw)
    return success();
  rw->replaceOpWithNewOp<graph::ConcatOp>(op, cat.getType(), cat.getInput1(),
                                          cat.getAxis());
  return success();
}

LogicalResult convertTosaSlice(Operation *op, PatternRewriter *rw,
                               std::string &why) {
  auto sl = cast<tosa::SliceOp>(op);
  if (failed(checkTensorTypes(op, why)))
    return failure();
  auto start = constShape(sl.getStart());
  if (!start)
    return reject(why, "start must be a tosa.const_shape");
  if (!rw)
    return success();
  SmallVector<int64_t> strides(start->size(), 1);
  rw->replaceOpWithNewOp<graph::SliceOp>(op, sl.getType(), sl.getInput1(),
                                         *start, strides);
  return success();
}

/// tosa.pad padding is [lo0, hi0, lo1, hi1, ...]; graph.pad wants begins
/// then ends.
LogicalResult convertTosaPad(Operation *op, PatternRewriter *rw,
                             std::string &why) {
  auto pad = cast<tosa::PadOp>(op);
  if (failed(checkTensorTypes(op, why)))
    return failure();
  auto padding = constShape(pad.getPadding());
  if (!padding)
    return reject(why, "padding must be a tosa.const_shape");
  DenseElementsAttr value;
  if (!matchPattern(pad.getPadConst(), m_Constant(&value)) ||
      !value.isSplat() || !isa<FloatType>(value.getElementType()))
    return reject(why, "pad_const must be a constant f32 value");
  size_t rank = padding->size() / 2;
  SmallVector<int64_t> pads(2 * rank);
  for (size_t d = 0; d < rank; ++d) {
    pads[d] = (*padding)[2 * d];
    pads[d + rank] = (*padding)[2 * d + 1];
  }
  if (llvm::any_of(pads, [](int64_t p) { return p < 0; }))
    return reject(why, "negative padding is not supported");
  if (!rw)
    return success();
  rw->replaceOpWithNewOp<graph::PadOp>(op, pad.getType(), pad.getInput1(), pads,
                                       graph::PadMode::constant,
                                       value.getSplatValue<APFloat>());
  return success();
}

/// tosa.reverse: a slice with stride -1 along the axis.
LogicalResult convertTosaReverse(Operation *op, PatternRewriter *rw,
                                 std::string &why) {
  auto rev = cast<tosa::ReverseOp>(op);
  if (failed(checkTensorTypes(op, why)))
    return failure();
  auto shape = shapeOf(rev.getInput1());
  int64_t axis = rev.getAxis();
  if (axis < 0 || axis >= (int64_t)shape.size())
    return reject(why, "axis out of range");
  if (!rw)
    return success();
  SmallVector<int64_t> offsets(shape.size(), 0), strides(shape.size(), 1);
  offsets[axis] = shape[axis] - 1;
  strides[axis] = -1;
  rw->replaceOpWithNewOp<graph::SliceOp>(op, rev.getType(), rev.getInput1(),
                                         offsets, strides);
  return success();
}

LogicalResult convertTosaTile(Operation *op, PatternRewriter *rw,
                              std::string &why) {
  auto tile = cast<tosa::TileOp>(op);
  if (failed(checkTensorTypes(op, why)))
    return failure();
  auto mult = constShape(tile.getMultiples());
  if (!mult)
    return reject(why, "multiples must be a tosa.const_shape");
  if (!rw)
    return success();
  rw->replaceOpWithNewOp<graph::TileOp>(op, tile.getType(), tile.getInput1(),
                                        *mult);
  return success();
}

/// tosa.resize (f32, NHWC): per axis the TOSA formula's interpolation
/// (TosaResize.h), on the NCHW view; a nearest resize that repeats rows and
/// columns a whole number of times becomes reshape / broadcast / reshape.
LogicalResult convertTosaResize(Operation *op, PatternRewriter *rw,
                                std::string &why) {
  auto rs = cast<tosa::ResizeOp>(op);
  if (failed(checkTensorTypes(op, why)))
    return failure();
  auto scale = constShape(rs.getScale());
  auto offset = constShape(rs.getOffset());
  if (!scale || !offset || !constShape(rs.getBorder()))
    return reject(why, "scale, offset and border must be tosa.const_shape");
  const SmallVector<int64_t> &sc = *scale;
  if (sc.size() != 4 || offset->size() != 2 ||
      llvm::any_of(sc, [](int64_t v) { return v <= 0; }))
    return reject(why, "scale must be four positive values [y_n, y_d, x_n, "
                       "x_d] and offset two");
  const bool bilinear = rs.getMode() == tosa::ResizeMode::BILINEAR;
  if (!bilinear && rs.getMode() != tosa::ResizeMode::NEAREST_NEIGHBOR)
    return reject(why, "mode must be NEAREST_NEIGHBOR or BILINEAR");
  auto in = permuted(shapeOf(rs.getInput()), kNhwcToNchw);
  auto out =
      permuted(cast<RankedTensorType>(rs.getType()).getShape(), kNhwcToNchw);
  if (!rw)
    return success();
  namespace tr = accel::tosa_resize;
  tr::Axis rows =
      tr::planAxis(in[2], out[2], sc[0], sc[1], (*offset)[0], bilinear);
  tr::Axis cols =
      tr::planAxis(in[3], out[3], sc[2], sc[3], (*offset)[1], bilinear);
  Location loc = op->getLoc();
  Value x = transpose(*rw, loc, rs.getInput(), kNhwcToNchw);
  Value y = tr::resizeNchw(*rw, loc, x, rows, cols);
  rw->replaceOp(op, transpose(*rw, loc, y, kNchwToNhwc));
  return success();
}

/// Named elementwise linalg ops on tensors: same-shape operands (no
/// broadcasting in the named forms); the init is overwritten.
template <typename OpT, graph::UnaryFn fn>
LogicalResult convertLinalgUnary(Operation *op, PatternRewriter *rw,
                                 std::string &why) {
  auto l = cast<OpT>(op);
  if (!l.hasPureTensorSemantics())
    return reject(why, "only elementwise ops on tensors are supported");
  return convertUnaryTo(op, l.getDpsInputs()[0], fn, rw, why);
}

template <typename OpT, graph::BinaryFn fn>
LogicalResult convertLinalgBinary(Operation *op, PatternRewriter *rw,
                                  std::string &why) {
  auto l = cast<OpT>(op);
  if (!l.hasPureTensorSemantics())
    return reject(why, "only elementwise ops on tensors are supported");
  Value a = l.getDpsInputs()[0], b = l.getDpsInputs()[1];
  Type resTy = op->getResult(0).getType();
  if (a.getType() != resTy || b.getType() != resTy)
    return reject(why, "operand and result shapes differ");
  return convertBinaryTo(op, a, b, fn, rw, why);
}

LogicalResult convertLinalgSelect(Operation *op, PatternRewriter *rw,
                                  std::string &why) {
  auto sel = cast<linalg::SelectOp>(op);
  if (!sel.hasPureTensorSemantics())
    return reject(why, "only selects on tensors are supported");
  if (failed(checkTensorTypesI1(op, why)))
    return failure();
  Value c = sel.getDpsInputs()[0], x = sel.getDpsInputs()[1],
        y = sel.getDpsInputs()[2];
  auto resTy = cast<RankedTensorType>(op->getResult(0).getType());
  if (!cast<RankedTensorType>(c.getType()).getElementType().isInteger(1) ||
      !resTy.getElementType().isF32() || x.getType() != resTy ||
      y.getType() != resTy || shapeOf(c) != resTy.getShape())
    return reject(why, "expected an i1 condition and f32 values of the "
                       "result's shape");
  if (!rw)
    return success();
  rw->replaceOpWithNewOp<graph::WhereOp>(op, resTy, c, x, y);
  return success();
}

LogicalResult convertLinalgMin(Operation *op, PatternRewriter *rw,
                               std::string &why) {
  return convertLinalgBinary<linalg::MinOp, graph::BinaryFn::min>(op, rw, why);
}

/// linalg.pooling_nchw_max / _sum: the window operand only gives the
/// kernel size. A preceding tensor.pad of the spatial dimensions (with
/// -inf / lowest for max, 0 for sum) folds into pads. Max: the init must be
/// a fill of -inf / lowest (else it is combined with graph.binary max);
/// sum = average including padding times the window size, plus a non-zero
/// init.
template <typename OpT>
LogicalResult convertLinalgPool(Operation *op, PatternRewriter *rw,
                                std::string &why) {
  auto pool = cast<OpT>(op);
  constexpr bool isMax = std::is_same_v<OpT, linalg::PoolingNchwMaxOp>;
  if (!pool.hasPureTensorSemantics())
    return reject(why, "only pooling on tensors are supported");
  Value input = pool.getDpsInputs()[0], window = pool.getDpsInputs()[1];
  Value init = pool.getDpsInits()[0];
  auto resTy = cast<RankedTensorType>(op->getResult(0).getType());
  if (!staticF32(input.getType()) || !staticF32(resTy) ||
      !staticF32(init.getType()))
    return reject(why, "only statically shaped f32 tensors are supported");
  auto winTy = dyn_cast<RankedTensorType>(window.getType());
  if (!winTy || !winTy.hasStaticShape() || winTy.getRank() != 2)
    return reject(why, "the window must be a static 2-D tensor");
  SmallVector<int64_t> kernel(winTy.getShape());
  SmallVector<int64_t> strides(pool.getStrides().template getValues<int64_t>());
  SmallVector<int64_t> dil(pool.getDilations().template getValues<int64_t>());
  SmallVector<int64_t> pads{0, 0, 0, 0};
  auto isLowest = [](const APFloat &f) {
    return f.isNegative() && (f.isInfinity() || isAtLeastFloatMax(-f));
  };
  auto isZero = [](const APFloat &f) { return f.isZero(); };
  if (auto pad = input.getDefiningOp<tensor::PadOp>()) {
    ArrayRef<int64_t> lo = pad.getStaticLow(), hi = pad.getStaticHigh();
    Value padValue = pad.getConstantPaddingValue();
    bool spatialOnly = lo.size() == 4 && lo[0] == 0 && hi[0] == 0 &&
                       lo[1] == 0 && hi[1] == 0 &&
                       llvm::none_of(lo, ShapedType::isDynamic) &&
                       llvm::none_of(hi, ShapedType::isDynamic);
    if (spatialOnly && padValue && staticF32(pad.getSource().getType()) &&
        isFloatConstant(padValue, isMax ? +isLowest : +isZero)) {
      pads = {lo[2], lo[3], hi[2], hi[3]};
      input = pad.getSource();
    }
  }
  auto in = shapeOf(input);
  SmallVector<int64_t> out{in[0], in[1], 0, 0};
  std::string hw;
  for (int i = 0; i < 2; ++i) {
    auto e = graph::poolExtent(in[2 + i], kernel[i], strides[i], pads[i],
                               pads[i + 2], dil[i], false, hw);
    if (!e)
      return reject(why, "pool2d: " + hw);
    out[2 + i] = *e;
  }
  if (ArrayRef<int64_t>(out) != resTy.getShape())
    return reject(why, "pool2d: the graph op would have shape " +
                           shapeStr(out) + ", not " +
                           shapeStr(resTy.getShape()));
  bool neutralInit = false;
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    neutralInit =
        isFloatConstant(fill.getInputs()[0], isMax ? +isLowest : +isZero);
  else
    neutralInit = isMax ? isFloatConstant(init, isLowest) : isZeroTensor(init);
  if (!rw)
    return success();
  Location loc = op->getLoc();
  Value y = graph::Pool2DOp::create(
      *rw, loc, resTy, isMax ? graph::PoolKind::max : graph::PoolKind::avg,
      input, kernel, strides, pads, dil, false, /*count_include_pad=*/true);
  if (!isMax)
    y = graph::UnaryOp::create(*rw, loc, resTy, graph::UnaryFn::affine, y,
                               llvm::APFloat((float)(kernel[0] * kernel[1])),
                               llvm::APFloat(0.0f));
  if (!neutralInit)
    y = isMax ? (Value)graph::BinaryOp::create(*rw, loc, resTy,
                                               graph::BinaryFn::max, y, init)
              : (Value)graph::AddOp::create(*rw, loc, resTy, y, init);
  rw->replaceOp(op, y);
  return success();
}

LogicalResult convertLinalgSoftmax(Operation *op, PatternRewriter *rw,
                                   std::string &why) {
  auto sm = cast<linalg::SoftmaxOp>(op);
  if (failed(checkTensorTypes(op, why)))
    return failure();
  Value x = sm.getInput();
  auto resTy = cast<RankedTensorType>(sm.getResult()[0].getType());
  if (x.getType() != resTy)
    return reject(why, "input and result types differ");
  if (!rw)
    return success();
  rw->replaceOpWithNewOp<graph::SoftmaxOp>(op, resTy, x,
                                           (int64_t)sm.getDimension(), false);
  return success();
}

//===----------------------------------------------------------------------===//
// Pattern / diagnostic registry
//===----------------------------------------------------------------------===//

struct FnPattern : RewritePattern {
  FnPattern(StringRef opName, ConvertFn fn, MLIRContext *ctx)
      : RewritePattern(opName, /*benefit=*/1, ctx), fn(fn) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rw) const override {
    std::string why;
    if (failed(fn(op, &rw, why)))
      return rw.notifyMatchFailure(op, why);
    return success();
  }
  ConvertFn fn;
};

struct Entry {
  ConvertFn fn;
  bool rewrites;  // false: only explains why the op is left over
  bool auxiliary; // reported only when something outside the leftovers uses it
};

const llvm::StringMap<Entry> &registry() {
  static const llvm::StringMap<Entry> table = [] {
    llvm::StringMap<Entry> t;
    auto add = [&](StringRef name, ConvertFn fn, bool rewrites = true,
                   bool aux = false) { t[name] = Entry{fn, rewrites, aux}; };
    // tosa
    add(tosa::ConstOp::getOperationName(), convertTosaConst);
    add(tosa::MatMulOp::getOperationName(), convertTosaMatmul);
    add(tosa::Conv2DOp::getOperationName(), convertTosaConv2D);
    add(tosa::AddOp::getOperationName(), convertTosaAdd);
    add(tosa::ClampOp::getOperationName(), convertTosaClamp);
    add(tosa::MaximumOp::getOperationName(), convertTosaMaximum);
    add(tosa::TransposeOp::getOperationName(), convertTosaTranspose);
    add(tosa::ReshapeOp::getOperationName(), convertTosaReshape);
    add(tosa::IdentityOp::getOperationName(), convertTosaIdentity);
    using UF = graph::UnaryFn;
    using BF = graph::BinaryFn;
    using RF = graph::ReduceFn;
    add(tosa::SubOp::getOperationName(),
        convertTosaBinary<tosa::SubOp, BF::sub>);
    add(tosa::MulOp::getOperationName(), convertTosaMul);
    add(tosa::PowOp::getOperationName(),
        convertTosaBinary<tosa::PowOp, BF::pow>);
    add(tosa::MinimumOp::getOperationName(), convertTosaMinimum);
    add(tosa::EqualOp::getOperationName(),
        convertTosaBinary<tosa::EqualOp, BF::equal>);
    add(tosa::GreaterOp::getOperationName(),
        convertTosaBinary<tosa::GreaterOp, BF::greater>);
    add(tosa::GreaterEqualOp::getOperationName(),
        convertTosaBinary<tosa::GreaterEqualOp, BF::greater_equal>);
    add(tosa::NegateOp::getOperationName(), convertTosaNegate);
    add(tosa::AbsOp::getOperationName(),
        convertTosaUnary<tosa::AbsOp, UF::abs>);
    add(tosa::ReciprocalOp::getOperationName(),
        convertTosaUnary<tosa::ReciprocalOp, UF::reciprocal>);
    add(tosa::RsqrtOp::getOperationName(), convertTosaRsqrt);
    add(tosa::ExpOp::getOperationName(),
        convertTosaUnary<tosa::ExpOp, UF::exp>);
    add(tosa::LogOp::getOperationName(),
        convertTosaUnary<tosa::LogOp, UF::log>);
    add(tosa::ErfOp::getOperationName(),
        convertTosaUnary<tosa::ErfOp, UF::erf>);
    add(tosa::FloorOp::getOperationName(),
        convertTosaUnary<tosa::FloorOp, UF::floor>);
    add(tosa::CeilOp::getOperationName(),
        convertTosaUnary<tosa::CeilOp, UF::ceil>);
    add(tosa::SinOp::getOperationName(),
        convertTosaUnary<tosa::SinOp, UF::sin>);
    add(tosa::CosOp::getOperationName(),
        convertTosaUnary<tosa::CosOp, UF::cos>);
    add(tosa::TanhOp::getOperationName(),
        convertTosaUnary<tosa::TanhOp, UF::tanh>);
    add(tosa::SigmoidOp::getOperationName(),
        convertTosaUnary<tosa::SigmoidOp, UF::sigmoid>);
    add(tosa::SelectOp::getOperationName(), convertTosaSelect);
    add(tosa::ReduceSumOp::getOperationName(),
        convertTosaReduce<tosa::ReduceSumOp, RF::sum>);
    add(tosa::ReduceMaxOp::getOperationName(),
        convertTosaReduce<tosa::ReduceMaxOp, RF::max>);
    add(tosa::ReduceMinOp::getOperationName(),
        convertTosaReduce<tosa::ReduceMinOp, RF::min>);
    add(tosa::ReduceProductOp::getOperationName(),
        convertTosaReduce<tosa::ReduceProductOp, RF::prod>);
    add(tosa::ArgMaxOp::getOperationName(), convertTosaArgMax);
    add(tosa::AvgPool2dOp::getOperationName(),
        convertTosaPool<tosa::AvgPool2dOp>);
    add(tosa::MaxPool2dOp::getOperationName(),
        convertTosaPool<tosa::MaxPool2dOp>);
    add(tosa::ConcatOp::getOperationName(), convertTosaConcat);
    add(tosa::SliceOp::getOperationName(), convertTosaSlice);
    add(tosa::PadOp::getOperationName(), convertTosaPad);
    add(tosa::TileOp::getOperationName(), convertTosaTile);
    add(tosa::ResizeOp::getOperationName(), convertTosaResize);
    add(tosa::ReverseOp::getOperationName(), convertTosaReverse);
    // linalg
    add(linalg::FillOp::getOperationName(), convertLinalgFill, true, true);
    add(linalg::MatmulOp::getOperationName(),
        convertLinalgMatmul<linalg::MatmulOp>);
    add(linalg::BatchMatmulOp::getOperationName(),
        convertLinalgMatmul<linalg::BatchMatmulOp>);
    add(linalg::Conv2DNchwFchwOp::getOperationName(),
        convertLinalgConv<linalg::Conv2DNchwFchwOp, ConvLayout::NchwFchw>);
    add(linalg::Conv2DNhwcFhwcOp::getOperationName(),
        convertLinalgConv<linalg::Conv2DNhwcFhwcOp, ConvLayout::NhwcFhwc>);
    add(linalg::Conv2DNhwcHwcfOp::getOperationName(),
        convertLinalgConv<linalg::Conv2DNhwcHwcfOp, ConvLayout::NhwcHwcf>);
    add(linalg::AddOp::getOperationName(), convertLinalgAdd);
    add(linalg::MaxOp::getOperationName(), convertLinalgMax);
    add(linalg::TransposeOp::getOperationName(), convertLinalgTranspose);
    add(linalg::SubOp::getOperationName(),
        convertLinalgBinary<linalg::SubOp, BF::sub>);
    add(linalg::MulOp::getOperationName(),
        convertLinalgBinary<linalg::MulOp, BF::mul>);
    add(linalg::DivOp::getOperationName(),
        convertLinalgBinary<linalg::DivOp, BF::div>);
    add(linalg::MinOp::getOperationName(), convertLinalgMin);
    add(linalg::ExpOp::getOperationName(),
        convertLinalgUnary<linalg::ExpOp, UF::exp>);
    add(linalg::LogOp::getOperationName(),
        convertLinalgUnary<linalg::LogOp, UF::log>);
    add(linalg::AbsOp::getOperationName(),
        convertLinalgUnary<linalg::AbsOp, UF::abs>);
    add(linalg::CeilOp::getOperationName(),
        convertLinalgUnary<linalg::CeilOp, UF::ceil>);
    add(linalg::FloorOp::getOperationName(),
        convertLinalgUnary<linalg::FloorOp, UF::floor>);
    add(linalg::NegFOp::getOperationName(),
        convertLinalgUnary<linalg::NegFOp, UF::neg>);
    add(linalg::SqrtOp::getOperationName(),
        convertLinalgUnary<linalg::SqrtOp, UF::sqrt>);
    add(linalg::TanhOp::getOperationName(),
        convertLinalgUnary<linalg::TanhOp, UF::tanh>);
    add(linalg::ErfOp::getOperationName(),
        convertLinalgUnary<linalg::ErfOp, UF::erf>);
    add(linalg::ReciprocalOp::getOperationName(),
        convertLinalgUnary<linalg::ReciprocalOp, UF::reciprocal>);
    add(linalg::SelectOp::getOperationName(), convertLinalgSelect);
    add(linalg::PoolingNchwMaxOp::getOperationName(),
        convertLinalgPool<linalg::PoolingNchwMaxOp>);
    add(linalg::PoolingNchwSumOp::getOperationName(),
        convertLinalgPool<linalg::PoolingNchwSumOp>);
    add(linalg::SoftmaxOp::getOperationName(), convertLinalgSoftmax);
    add(linalg::GenericOp::getOperationName(), convertLinalgGeneric, true,
        true);
    add(linalg::BroadcastOp::getOperationName(), explainBroadcast, false, true);
    // tensor
    add(tensor::ExpandShapeOp::getOperationName(), convertReassociativeReshape);
    add(tensor::CollapseShapeOp::getOperationName(),
        convertReassociativeReshape);
    add(tensor::PadOp::getOperationName(), explainPad, false, true);
    add(tensor::EmptyOp::getOperationName(), explainEmpty, false, true);
    return t;
  }();
  return table;
}

bool isFrontEndOp(Operation *op) {
  StringRef ns = op->getName().getDialectNamespace();
  if (ns == "tosa")
    return !isa<tosa::ConstShapeOp>(op); // its users are what matters
  return ns == "linalg" || ns == "tensor";
}

/// The location a front-end op passes on to the graph ops it becomes:
/// NameLoc(name, NameLoc(op name, loc)), the importer's convention, so that
/// the layer table (docs/passes.md "Layer table") names the layer after the
/// source op and records its kind. The name is the op's own NameLoc name,
/// else "file:line:col" (the file's base name), else "<op name>_<ordinal>"
/// (`ordinal` counts the front-end ops in walk order).
Location sourceLocation(Operation *op, unsigned ordinal) {
  MLIRContext *ctx = op->getContext();
  Location loc = op->getLoc();
  auto named = dyn_cast<NameLoc>(loc);
  if (named && isa<NameLoc>(named.getChildLoc()))
    return loc; // already name + kind
  std::string name;
  if (named)
    name = named.getName().str();
  else if (auto f = dyn_cast<FileLineColLoc>(loc))
    name = llvm::sys::path::filename(f.getFilename().getValue()).str() + ":" +
           std::to_string(f.getLine()) + ":" + std::to_string(f.getColumn());
  else
    name = op->getName().getStringRef().str() + "_" + std::to_string(ordinal);
  auto kind = NameLoc::get(op->getName().getIdentifier(),
                           named ? named.getChildLoc() : loc);
  return NameLoc::get(StringAttr::get(ctx, name), kind);
}

struct ConvertTosaLinalgToGraphPass
    : accel::impl::ConvertTosaLinalgToGraphBase<ConvertTosaLinalgToGraphPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    unsigned ordinal = 0;
    getOperation().walk([&](Operation *op) {
      Operation *parent = op->getParentOp();
      if (isFrontEndOp(op) && !(parent && isFrontEndOp(parent)))
        op->setLoc(sourceLocation(op, ordinal++));
    });
    RewritePatternSet patterns(ctx);
    for (const auto &kv : registry())
      if (kv.second.rewrites)
        patterns.add<FnPattern>(kv.first(), kv.second.fn, ctx);
    patterns.add<ComposeTransposes>(ctx);
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);

    // Whatever front-end op is left could not be converted.
    llvm::SmallPtrSet<Operation *, 16> leftovers;
    getOperation().walk([&](Operation *op) {
      if (!isFrontEndOp(op))
        return;
      for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
        if (isFrontEndOp(p))
          return; // inside a region of a leftover op (linalg.yield, ...)
      leftovers.insert(op);
    });
    bool failedAny = false;
    getOperation().walk([&](Operation *op) {
      if (!leftovers.count(op))
        return;
      auto it = registry().find(op->getName().getStringRef());
      if (it != registry().end() && it->second.auxiliary &&
          llvm::all_of(op->getUsers(),
                       [&](Operation *u) { return leftovers.count(u); }) &&
          !op->use_empty())
        return; // the op using it is reported instead
      std::string why;
      if (it == registry().end())
        why = "no graph-dialect equivalent";
      else if (succeeded(it->second.fn(op, nullptr, why)))
        why = "its operands could not be converted"; // should not happen
      op->emitError() << "cannot convert '" << op->getName()
                      << "' to the graph dialect: " << why;
      failedAny = true;
    });
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
