//===- FuseLayersChains.cpp - Epilogue chains after GEMM-shaped ops -------===//
//
// Follows the result of every graph.conv2d / graph.gemm / graph.matmul /
// graph.conv_transpose2d through operators the SFU can apply per element on the
// way out of the PE array (docs/passes.md, "fuse-layers"): each is translated
// into SFU steps, marked accel.fused, and the steps and names are recorded in
// the producer's #accel.fusion. The chain stops at the first value with more
// than one user (it must reach memory anyway) or an operator the epilogue
// cannot apply.
//
//===----------------------------------------------------------------------===//
#include "FuseLayers.h"
#include "Graph/GraphDialect.h"
#include "accel/Target/Sfu.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include <cmath>
#include <optional>

using namespace mlir;
using namespace accel;
using namespace accel::graph;
using Steps = llvm::SmallVector<FusionStep>;

namespace {
FusionStep sfu(SfuFunc f, float imm = 0.0f) {
  FusionStep s;
  s.func = uint8_t(f);
  s.imm = imm;
  return s;
}

/// The SFU steps of a graph.unary, or nullopt when the epilogue cannot
/// apply it (selu's two parameters are two steps; clip's infinite bounds
/// are no step).
std::optional<Steps> unarySteps(UnaryOp op) {
  float a = op.getAlpha().convertToFloat(), b = op.getBeta().convertToFloat();
  switch (op.getFn()) {
  case UnaryFn::neg:
    return Steps{sfu(SfuFunc::Neg)};
  case UnaryFn::abs:
    return Steps{sfu(SfuFunc::Abs)};
  case UnaryFn::relu:
    return Steps{sfu(SfuFunc::Relu)};
  case UnaryFn::sigmoid:
    return Steps{sfu(SfuFunc::Sigmoid)};
  case UnaryFn::tanh:
    return Steps{sfu(SfuFunc::Tanh)};
  case UnaryFn::softplus:
    return Steps{sfu(SfuFunc::Softplus)};
  case UnaryFn::softsign:
    return Steps{sfu(SfuFunc::Softsign)};
  case UnaryFn::hard_swish:
    return Steps{sfu(SfuFunc::HardSwish)};
  case UnaryFn::leaky_relu:
    return Steps{sfu(SfuFunc::LeakyRelu, a)};
  case UnaryFn::elu:
    return Steps{sfu(SfuFunc::Elu, a)};
  case UnaryFn::celu:
    return Steps{sfu(SfuFunc::Celu, a)};
  case UnaryFn::thresholded_relu:
    return Steps{sfu(SfuFunc::ThresholdedRelu, a)};
  case UnaryFn::selu:
    return Steps{sfu(SfuFunc::Elu, a), sfu(SfuFunc::Scale, b)};
  case UnaryFn::hard_sigmoid:
    return Steps{sfu(SfuFunc::Scale, a), sfu(SfuFunc::AddImm, b),
                 sfu(SfuFunc::MaxImm, 0.0f), sfu(SfuFunc::MinImm, 1.0f)};
  case UnaryFn::affine:
    return Steps{sfu(SfuFunc::Scale, a), sfu(SfuFunc::AddImm, b)};
  case UnaryFn::clip: {
    Steps s;
    if (!std::isinf(a))
      s.push_back(sfu(SfuFunc::MaxImm, a));
    if (!std::isinf(b))
      s.push_back(sfu(SfuFunc::MinImm, b));
    if (s.empty() || std::isnan(a) || std::isnan(b))
      return std::nullopt;
    return s;
  }
  default:
    return std::nullopt;
  }
}

/// The f32 value of a splat constant `v`, when v is one.
std::optional<float> scalarConstant(Value v) {
  DenseElementsAttr dense;
  if (!matchPattern(v, m_Constant(&dense)) || !dense.isSplat() ||
      !dense.getElementType().isF32())
    return std::nullopt;
  return dense.getSplatValue<APFloat>().convertToFloat();
}

/// The SFU steps of `x op c` / `c op x` (c a scalar constant that does
/// not widen x), or nullopt.
std::optional<Steps> scalarSteps(BinaryFn fn, Value x, Value lhs, Value rhs,
                                 Type resultType) {
  if (x.getType() != resultType)
    return std::nullopt;
  bool xLeft = lhs == x;
  std::optional<float> c = scalarConstant(xLeft ? rhs : lhs);
  if (!c || (lhs == rhs))
    return std::nullopt;
  switch (fn) {
  case BinaryFn::add:
    return Steps{sfu(SfuFunc::AddImm, *c)};
  case BinaryFn::mul:
    return Steps{sfu(SfuFunc::Scale, *c)};
  case BinaryFn::sub:
    if (xLeft)
      return Steps{sfu(SfuFunc::AddImm, -*c)};
    return Steps{sfu(SfuFunc::Neg), sfu(SfuFunc::AddImm, *c)};
  case BinaryFn::div:
    if (xLeft) {
      if (*c == 0.0f)
        return std::nullopt;
      return Steps{sfu(SfuFunc::Scale, 1.0f / *c)};
    }
    return Steps{sfu(SfuFunc::Reciprocal), sfu(SfuFunc::Scale, *c)};
  case BinaryFn::max:
    return Steps{sfu(SfuFunc::MaxImm, *c)};
  case BinaryFn::min:
    return Steps{sfu(SfuFunc::MinImm, *c)};
  default:
    return std::nullopt;
  }
}

/// Whether `v` is available where `producer` runs: a block argument of its
/// block, or the result of an op before it in that block.
bool availableAt(Value v, Operation *producer) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getOwner() == producer->getBlock();
  Operation *def = v.getDefiningOp();
  return def->getBlock() == producer->getBlock() &&
         def->isBeforeInBlock(producer);
}

struct ChainOptions {
  bool activations, residual;
};

/// The steps `user` applies to the chain value `x`, or nullopt. Sets
/// `isResidual` for a residual add.
std::optional<Steps> stepsOf(Operation *user, Value x, Operation *producer,
                             const ChainOptions &o, bool haveResidual,
                             bool &isResidual) {
  isResidual = false;
  if (auto r = dyn_cast<ReluOp>(user))
    return o.activations ? std::optional<Steps>(Steps{sfu(SfuFunc::Relu)})
                         : std::nullopt;
  if (auto u = dyn_cast<UnaryOp>(user))
    return o.activations ? unarySteps(u) : std::nullopt;
  if (auto b = dyn_cast<BinaryOp>(user))
    return o.activations
               ? scalarSteps(b.getFn(), x, b.getLhs(), b.getRhs(), b.getType())
               : std::nullopt;
  auto add = dyn_cast<AddOp>(user);
  if (!add)
    return std::nullopt;
  if (std::optional<Steps> s = scalarSteps(BinaryFn::add, x, add.getLhs(),
                                           add.getRhs(), add.getType()))
    return o.activations ? s : std::nullopt;
  Value other = add.getLhs() == x ? add.getRhs() : add.getLhs();
  if (!o.residual || haveResidual || other == x ||
      other.getType() != x.getType() || add.getType() != x.getType() ||
      !availableAt(other, producer))
    return std::nullopt;
  isResidual = true;
  FusionStep r;
  r.residual = true;
  return Steps{r};
}

/// A graph.gemm whose C is scaled by beta != 0, 1 is lowered through a
/// temporary (the epilogue would run before the C term): no chain.
bool hasEpilogue(Operation *op) {
  if (auto g = dyn_cast<GemmOp>(op)) {
    float beta = g.getBeta().convertToFloat();
    return !g.getC() || beta == 0.0f || beta == 1.0f;
  }
  return isa<Conv2DOp, MatMulOp, ConvTranspose2DOp>(op);
}

void fuseChain(Operation *producer, const ChainOptions &o) {
  fuse::FusionFields f = fuse::fusionFields(producer);
  if (!f.steps.empty() || !hasEpilogue(producer))
    return; // already decided
  Value x = producer->getResult(0);
  bool haveResidual = false;
  size_t before = f.fused.size();
  while (x.hasOneUse()) {
    Operation *user = *x.getUsers().begin();
    if (user->getBlock() != producer->getBlock() || user->getNumResults() != 1)
      break;
    bool isResidual = false;
    std::optional<Steps> s =
        stepsOf(user, x, producer, o, haveResidual, isResidual);
    if (!s)
      break;
    haveResidual |= isResidual;
    f.steps.append(s->begin(), s->end());
    for (const std::string &name : fuse::layerNames(user))
      f.fused.push_back(StringAttr::get(producer->getContext(), name));
    user->setAttr(kFusedAttrName, UnitAttr::get(producer->getContext()));
    x = user->getResult(0);
  }
  if (f.fused.size() != before)
    fuse::setFusion(producer, f);
}
} // namespace

void fuse::fuseEpilogueChains(Operation *root, bool activations,
                              bool residual) {
  ChainOptions o{activations, residual};
  root->walk([&](Operation *op) {
    if (isa<Conv2DOp, GemmOp, MatMulOp, ConvTranspose2DOp>(op))
      fuseChain(op, o);
  });
}
