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
  if (auto conv = dyn_cast<graph::Conv2DOp>(op)) {
    auto wt = cast<RankedTensorType>(conv.getWeight().getType());
    chunkK = wt.getDimSize(1);
    // The window the kernel's input bands cover (conv-bands).
    auto ot = cast<RankedTensorType>(conv.getResult().getType());
    ArrayRef<int64_t> st = conv.getStrides(), dil = conv.getDilations();
    auto it = cast<RankedTensorType>(conv.getInput().getType());
    // An intermediate input the residency may keep on chip is read from
    // the storage units: no bands (LowerMapped.cpp, the same rule).
    bool onChip =
        !isa<BlockArgument>(conv.getInput()) && it.hasStaticShape() &&
        tiling::convInputMayStayOnChip(uint64_t(it.getNumElements()) * 4, hw,
                                       hw.storageBytes);
    if (wt.hasStaticShape() && ot.hasStaticShape() && st.size() == 2 &&
        dil.size() == 2 && !onChip) {
      mp.conv.Cg = wt.getDimSize(1);
      mp.conv.KH = wt.getDimSize(2), mp.conv.KW = wt.getDimSize(3);
      mp.conv.OW = ot.getDimSize(3);
      mp.conv.sh = st[0], mp.conv.sw = st[1];
      mp.conv.dh = dil[0], mp.conv.dw = dil[1];
    }
  }
  codegen::GemmTiling gt = codegen::gemmTilingFor(hw, mp.gemm, chunkK, withInit,
                                                  tiles ? &*tiles : nullptr);
  mp.tileM = gt.peRows * int64_t(hw.pesPerCluster);
  mp.tileN = gt.nc;
  mp.tileK = gt.kc;
  mp.outerM = gt.outerM;
  mp.sharedC = gt.sharedC;
  return true;
}
