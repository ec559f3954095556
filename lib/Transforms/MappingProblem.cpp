//===- MappingProblem.cpp - The cost model's view of a GEMM op ------------===//
#include "MappingProblem.h"
#include "Accel/AccelDialect.h"
#include "Accel/GemmProblem.h"
#include "Graph/GraphDialect.h"
#include "accel/Codegen/Kernels.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Transforms/Passes.h"

using namespace mlir;
using namespace accel;

bool accel::transforms::mappingProblemOf(Operation *op, const HardwareDesc &hw,
                                         tiling::MappingProblem &mp) {
  bool withInit = false;
  if (!problemOf(op, tiling::computeElemBytes(hw), mp.gemm, withInit))
    return false;
  mp.withInit = withInit;
  mp.activationIsA = !isa<graph::Conv2DOp>(op);
  // A convolution's init is its bias, one value per output channel (row).
  mp.rowInit = withInit && !mp.activationIsA;
  // A batched matmul lowers one GEMM per batch instance; a cluster can take
  // whole instances (LowerMapped.cpp, emitMappedMatmuls).
  mp.batchSplit = isa<graph::MatMulOp>(op) && mp.gemm.count > 1;
  // The lowering fuses a ReLU that is the result's only user.
  Value res = op->getResult(0);
  mp.fusedFunc = res.hasOneUse() && isa<graph::ReluOp>(*res.getUsers().begin());
  // The tiles the kernel realises for accel.tiling (gemmTilingFor: the
  // decision, narrowed to the accumulators and the storage halves), as the
  // lowering will use them.
  std::optional<tiling::Mapping> tiles =
      readTilingAttr(op->getAttr(kTilingAttrName));
  int64_t chunkK = mp.gemm.k;
  if (auto conv = dyn_cast<graph::Conv2DOp>(op))
    chunkK = cast<RankedTensorType>(conv.getWeight().getType()).getDimSize(1);
  codegen::GemmTiling gt = codegen::gemmTilingFor(hw, mp.gemm, chunkK, withInit,
                                                  tiles ? &*tiles : nullptr);
  mp.tileM = gt.peRows * int64_t(hw.pesPerCluster);
  mp.tileN = gt.nc;
  mp.tileK = gt.kc;
  mp.outerM = gt.outerM;
  mp.sharedC = gt.sharedC;
  return true;
}
