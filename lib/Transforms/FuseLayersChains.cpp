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
  bool activations, residual, broadcastResidual;
};

/// Whether the producer can move down to `add` so that `other` is
/// available to its epilogue: `other` is computed later in the same block
/// (it cannot depend on the chain, whose values have one user each).
bool sinkable(Value other, Operation *producer, Operation *add) {
  Operation *def = other.getDefiningOp();
  return def && def->getBlock() == producer->getBlock() &&
         add->getBlock() == producer->getBlock() && def->isBeforeInBlock(add);
}

/// Whether `other` broadcasts (numpy rules) to the type of `x` without
/// being of that type, with at least 1/16 of its elements.
bool broadcastsInto(Value other, Value x) {
  auto o = dyn_cast<RankedTensorType>(other.getType());
  auto t = dyn_cast<RankedTensorType>(x.getType());
  if (!o || !t || o == t || o.getElementType() != t.getElementType() ||
      !o.hasStaticShape() || !t.hasStaticShape())
    return false;
  // An upsampled map (each residual element read at most 16 times), not a
  // bias row or a per-channel value: those would be re-read per tile row
  // through zero strides (BERT's bias adds: +3.6 % cycles, measured).
  if (o.getNumElements() * 16 < t.getNumElements())
    return false;
  std::string why;
  auto shape = broadcastShapes(o.getShape(), t.getShape(), why);
  return shape && llvm::equal(*shape, t.getShape());
}

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
  if (!o.residual || haveResidual || other == x || add.getType() != x.getType())
    return std::nullopt;
  if (other.getType() != x.getType() &&
      !(o.broadcastResidual && broadcastsInto(other, x)))
    return std::nullopt;
  // Only a broadcast residual moves the producer: a same-shape add computed
  // later is taken by that later producer instead (a ResNet block's
  // downsample conv takes its add with the main path's result).
  if (!availableAt(other, producer) &&
      (other.getType() == x.getType() || !sinkable(other, producer, user)))
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

/// The graph.reshape ops from `user` on (each the only user of the one
/// before) when they lead to a residual add with a broadcast operand, which
/// then reads the producer's elements in their order; empty otherwise.
llvm::SmallVector<Operation *> reshapesToResidual(Operation *user,
                                                  Operation *producer,
                                                  const ChainOptions &o,
                                                  bool haveResidual) {
  llvm::SmallVector<Operation *> reshapes;
  if (!o.broadcastResidual || haveResidual)
    return {};
  while (auto r = dyn_cast<ReshapeOp>(user)) {
    if (!r.getResult().hasOneUse())
      return {};
    reshapes.push_back(r);
    user = *r.getResult().getUsers().begin();
    if (user->getBlock() != producer->getBlock())
      return {};
  }
  bool isResidual = false;
  Value x = reshapes.empty() ? Value() : reshapes.back()->getResult(0);
  if (!x || !isa<AddOp>(user) ||
      !stepsOf(user, x, producer, o, haveResidual, isResidual) || !isResidual)
    return {};
  return reshapes;
}

void fuseChain(Operation *producer, const ChainOptions &o) {
  fuse::FusionFields f = fuse::fusionFields(producer);
  if (!f.steps.empty() || !hasEpilogue(producer))
    return; // already decided
  Value x = producer->getResult(0);
  bool haveResidual = false;
  size_t before = f.fused.size();
  llvm::SmallVector<Operation *> chain;
  Operation *sinkTo = nullptr;
  auto take = [&](Operation *user) {
    for (const std::string &name : fuse::layerNames(user)) {
      auto attr = StringAttr::get(producer->getContext(), name);
      // A reshape is addressing: named only if no other fused op is.
      if (!isa<ReshapeOp>(user) || !llvm::is_contained(f.fused, attr))
        f.fused.push_back(attr);
    }
    user->setAttr(kFusedAttrName, UnitAttr::get(producer->getContext()));
    chain.push_back(user);
    x = user->getResult(0);
  };
  while (x.hasOneUse()) {
    Operation *user = *x.getUsers().begin();
    if (user->getBlock() != producer->getBlock() ||
        user->getNumResults() != 1 || user->hasAttr(kFusedAttrName))
      break;
    // Reshapes are free (the epilogue sees the producer's elements in
    // order); taken only on the way to a broadcast residual.
    if (isa<ReshapeOp>(user)) {
      llvm::SmallVector<Operation *> reshapes =
          reshapesToResidual(user, producer, o, haveResidual);
      if (reshapes.empty())
        break;
      for (Operation *r : reshapes)
        take(r);
      continue;
    }
    bool isResidual = false;
    std::optional<Steps> s =
        stepsOf(user, x, producer, o, haveResidual, isResidual);
    if (!s)
      break;
    if (isResidual) {
      auto add = cast<AddOp>(user);
      Value other = add.getLhs() == x ? add.getRhs() : add.getLhs();
      if (!availableAt(other, producer))
        sinkTo = user;
    }
    haveResidual |= isResidual;
    f.steps.append(s->begin(), s->end());
    take(user);
  }
  if (f.fused.size() == before)
    return;
  fuse::setFusion(producer, f);
  if (!sinkTo)
    return;
  // The residual is computed after the producer (a pyramid's upper level,
  // added to this level's lateral conv): the producer and the chain before
  // the add run just before it. Their operands come earlier still.
  producer->moveBefore(sinkTo);
  for (Operation *op : chain) {
    if (op == sinkTo)
      break;
    op->moveBefore(sinkTo);
  }
}
} // namespace

void fuse::fuseEpilogueChains(Operation *root, bool activations, bool residual,
                              bool broadcastResidual) {
  ChainOptions o{activations, residual, broadcastResidual};
  // Collected first: fuseChain may move a producer down its block.
  llvm::SmallVector<Operation *> producers;
  root->walk([&](Operation *op) {
    if (isa<Conv2DOp, GemmOp, MatMulOp, ConvTranspose2DOp>(op))
      producers.push_back(op);
  });
  for (Operation *op : producers)
    fuseChain(op, o);
}
