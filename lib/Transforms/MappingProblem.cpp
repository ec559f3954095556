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

namespace {
/// The value `op`'s layer produces: its result, or the end of the epilogue
/// fuse-layers fused into it (single-use accel.fused ops).
Value fusedResult(Operation *op) {
  Value end = op->getResult(0);
  while (end.hasOneUse()) {
    Operation *user = *end.getUsers().begin();
    if (!user->hasAttr(kFusedAttrName) || user->getNumResults() != 1)
      break;
    end = user->getResult(0);
  }
  return end;
}

/// A convolution whose result (after its fused epilogue) a depthwise
/// convolution reads, and which is larger than a third of all storage units
/// together. The depthwise kernel reads runs of planes (output channels),
/// so DRAM placement cuts such a result into channel pieces on both memory
/// channels, and an N split's interleaved stores spread over them
/// (MappingProblem::outputReadByRows). A smaller result may stay resident
/// where an M split's clusters wrote it, next to the planes each cluster's
/// depthwise run reads. A third was measured on the zoo (docs/mapping.md,
/// "Interleaved output stores"): a quarter slowed MobileNetV2 on
/// hw/bandwidth-starved.json by 4.3 %, a half left MobileNetV3-Small's
/// 56 x 56 expansion (903 KB) with the M split.
bool readByRowsOffChip(Operation *op, const HardwareDesc &hw) {
  Value result = fusedResult(op);
  auto type = cast<RankedTensorType>(result.getType());
  if (!type.hasStaticShape() ||
      3 * double(type.getNumElements()) * 4 <=
          double(hw.numClusters()) * double(hw.storageBytes))
    return false;
  return llvm::any_of(result.getUsers(), [](Operation *u) {
    auto dw = dyn_cast<graph::Conv2DOp>(u);
    return dw && dw.isDepthwise();
  });
}
} // namespace

bool accel::transforms::mappingProblemOf(Operation *op, const HardwareDesc &hw,
                                         tiling::MappingProblem &mp) {
  bool withInit = false;
  if (!problemOf(op, tiling::computeElemBytes(hw), mp.gemm, withInit))
    return false;
  mp.withInit = withInit;
  mp.activationIsA = !isa<graph::Conv2DOp>(op);
  // A convolution's init is its bias, one value per output channel (row).
  mp.rowInit = withInit && !mp.activationIsA;
  mp.outputReadByRows = !mp.activationIsA && readByRowsOffChip(op, hw);
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
