//===- LowerFusion.cpp - Fused epilogues (#accel.fusion) ------------------===//
//
// fuse-layers records on a GEMM-shaped op the SFU steps that replace the
// elementwise operators after it (docs/passes.md, "fuse-layers"). Here the
// chain is taken: the fused operators get no layer (their results alias the
// producer's buffer), the first unary step is the chained function of the
// accumulator store, the rest run on the stored tile before its DMA store
// (GemmEpilogue::post, dealt GEMM kernel) or, for kernels that cannot, as
// one SFU pass over the output (the tail layer).
//
//===----------------------------------------------------------------------===//
#include "Accel/AccelDialect.h"
#include "Lowering.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace accel;
using namespace accel::codegen;
using namespace accel::lowering;

FusedChain accel::lowering::fusedChain(Operation *producer) {
  FusedChain chain;
  Value v = producer->getResult(0);
  while (v.hasOneUse()) {
    Operation *user = *v.getUsers().begin();
    if (!user->hasAttr(kFusedAttrName) || user->getNumResults() != 1)
      break;
    if (auto add = dyn_cast<graph::AddOp>(user)) {
      Value other = add.getLhs() == v ? add.getRhs() : add.getLhs();
      DenseElementsAttr c;
      if (!(matchPattern(other, m_Constant(&c)) && c.isSplat())) {
        Operation *def = other.getDefiningOp();
        bool before = !def || (def->getBlock() == producer->getBlock() &&
                               def->isBeforeInBlock(producer));
        if (!before || chain.residual)
          break;
        chain.residual = other;
        chain.residualAdd = add;
      }
    }
    chain.ops.push_back(user);
    v = user->getResult(0);
  }
  return chain;
}

LogicalResult Lowering::takeEpilogue(Operation *producer, GemmEpilogue &epi) {
  Value v = producer->getResult(0);
  auto fusion = producer->getAttrOfType<FusionAttr>(kFusionAttrName);
  if (!fusion || fusion.getSteps().empty()) {
    epi.func = fuseRelu(v);
    return success();
  }
  // The chain's results alias the producer's buffer.
  uint64_t out = bufferFor(v);
  FusedChain chain = fusedChain(producer);
  Value residual = chain.residual;
  for (Operation *user : chain.ops) {
    fused_.insert(user);
    addr_[user->getResult(0)] = out;
  }
  if (chain.ops.empty())
    return producer->emitOpError(kFusionAttrName)
           << " lists epilogue steps but no accel.fused operator follows it";
  std::vector<EpilogueStep> steps;
  bool residualStep = false;
  for (const FusionStep &s : fusion.getSteps()) {
    EpilogueStep e;
    e.residual = s.residual;
    e.func = SfuFunc(s.func);
    e.imm = s.imm;
    residualStep |= s.residual;
    steps.push_back(e);
  }
  if (residualStep != bool(residual))
    return producer->emitOpError(kFusionAttrName)
           << (residualStep ? " has a residual step but its fused chain has "
                              "no residual operand"
                            : " has no residual step but its fused chain "
                              "reads another tensor");
  std::vector<int64_t> space;
  if (residual) {
    space = shapeOf(chain.residualAdd->getResult(0));
    std::string why;
    auto shape = graph::broadcastShapes(shapeOf(residual), space, why);
    if (numElements(space) != numElements(shapeOf(producer->getResult(0))) ||
        !shape || !llvm::equal(*shape, space))
      return producer->emitOpError("residual operand of shape mismatch");
  }
  size_t first = 0;
  if (!steps.front().residual) {
    epi.func = steps.front().func;
    epi.funcImm = steps.front().imm;
    first = 1;
  }
  epi.post.assign(steps.begin() + first, steps.end());
  tailResidual_ = residual;
  tailResidualSpace_ = space;
  if (residual && shapeOf(residual) == space) {
    epi.residualDelta = bufferFor(residual) - out;
  } else if (residual) {
    // Read through a broadcast (a nearest upsampling as addressing): the
    // kernels load each C tile's residual by the view.
    epi.residualView.base = bufferFor(residual);
    epi.residualView.output = out;
    epi.residualView.shape = space;
    epi.residualView.strides = broadcastStrides(shapeOf(residual), space);
  }
  return success();
}

LogicalResult Lowering::takeChainedEpilogue(Operation *producer, SfuFunc &func,
                                            float &imm) {
  GemmEpilogue epi;
  if (failed(takeEpilogue(producer, epi)))
    return failure();
  keepChainedOnly(epi);
  func = epi.func;
  imm = epi.funcImm;
  return success();
}

void Lowering::keepChainedOnly(GemmEpilogue &epi) {
  tail_.insert(tail_.end(), epi.post.begin(), epi.post.end());
  epi.post.clear();
}

LogicalResult Lowering::emitEpilogueTail(Operation *producer) {
  std::vector<EpilogueStep> tail = std::move(tail_);
  Value residual = tailResidual_;
  std::vector<int64_t> space = std::move(tailResidualSpace_);
  tail_.clear();
  tailResidual_ = nullptr;
  tailResidualSpace_.clear();
  if (tail.empty())
    return success();
  Value result = producer->getResult(0);
  ElementwiseLayer ew;
  // With a residual, the layer runs over the fused add's shape, where the
  // residual broadcasts (the producer's result has the same elements).
  ew.shape = residual ? space : shapeOf(result);
  View out{bufferFor(result), denseStrides(ew.shape)};
  ew.inputs = {out};
  if (residual)
    ew.inputs.push_back(
        View{bufferFor(residual), broadcastStrides(shapeOf(residual), space)});
  ew.output = out;
  for (const EpilogueStep &s : tail)
    ew.steps.push_back(
        s.residual
            ? ElementwiseStep{SpuType::Binary, SfuFunc::Add, 0.0f, 0, 1, 0}
            : ElementwiseStep{SpuType::Unary, s.func, s.imm, 0, 0, 0});
  return emitSfu(producer, ew);
}
