//===- ElementwiseKernelTest.cpp - emitElementwiseLayer -------------------===//
//
// Inputs that repeat along some dimensions (zero strides: a nearest
// upsampling read as addressing) are loaded compact and expanded on chip by
// local copies: DRAM moves each of their elements once per tile, and the
// sums equal the reference under strict hazards. An input that is one row
// repeated over every row keeps the LD's row stride 0, and one that repeats
// along the columns only is read with zero strides (no expansion).
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/Kernels.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Sim/Simulator.h"
#include "accel/Target/Validate.h"

#include "../Sim/SimTestUtil.h"

#include <gtest/gtest.h>

using namespace accel;
using namespace accel::codegen;
using accel::test::simulateStrict;
using accel::test::sym;

namespace {

constexpr uint64_t kX = 0, kY = 1u << 20, kOut = 2u << 20;

/// How y is read.
enum class YView {
  Upsampled, ///< y[c, h, w] at out[c, 2h + i, 2w + j]: view [W, 0, 1, 0]
  PerColumn, ///< y[w] at out[r, w]: view [0, 1]
  PerRow,    ///< y[r] at out[r, w]: view [1, 0]
};

/// out = x + y on C x 2H x 2W (as the iteration space [C*H, 2, W, 2] when
/// upsampled, else [C*2H, 2W]), simulated under strict hazards against the
/// reference. Returns the bytes DMA'd from y and the local copies.
std::pair<uint64_t, size_t> runAdd(int64_t C, int64_t H, int64_t W, YView y) {
  const bool rowVector = y == YView::PerColumn, perRow = y == YView::PerRow;
  HardwareDesc hw = defaultHardware();
  Program prog;
  prog.dramSize = 4u << 20;
  StreamBuilder sb(prog, hw);
  ElementwiseLayer ew;
  if (rowVector || perRow) {
    ew.shape = {C * 2 * H, 2 * W};
    ew.inputs = {View{kX, {2 * W, 1}},
                 View{kY, {perRow ? 1 : 0, perRow ? 0 : 1}}};
    ew.output = View{kOut, {2 * W, 1}};
  } else {
    ew.shape = {C * H, 2, W, 2};
    ew.inputs = {View{kX, {4 * W, 2 * W, 2, 1}}, View{kY, {W, 0, 1, 0}}};
    ew.output = View{kOut, {4 * W, 2 * W, 2, 1}};
  }
  ew.steps.push_back({SpuType::Binary, SfuFunc::Add, 0.0f, 0, 1, 0});
  std::string err;
  EXPECT_TRUE(emitElementwiseLayer(sb, ew, err)) << err;
  const int64_t n = C * 4 * H * W, ny = rowVector ? 2 * W
                                        : perRow  ? 2 * C * H
                                                  : C * H * W;
  prog.symbols = {sym("x", true, {n}, kX), sym("y", true, {ny}, kY),
                  sym("out", false, {n}, kOut)};
  EXPECT_TRUE(validateProgram(prog, hw, err)) << err;

  std::map<std::string, Tensor> in, out;
  in["x"].shape = {n};
  in["y"].shape = {ny};
  for (int64_t i = 0; i < n; ++i)
    in["x"].data.push_back(float(i % 13) - 6.0f);
  for (int64_t i = 0; i < ny; ++i)
    in["y"].data.push_back(float(i % 7) * 0.5f);
  EXPECT_TRUE(simulateStrict(prog, hw, in, out, err)) << err;
  const std::vector<float> &o = out["out"].data;
  EXPECT_EQ(int64_t(o.size()), n);
  for (int64_t i = 0; i < n && int64_t(o.size()) == n; ++i) {
    const int64_t w2 = i % (2 * W), row = i / (2 * W);
    const int64_t yi =
        rowVector ? w2
        : perRow  ? row
                  : ((row / (2 * H)) * H + (row % (2 * H)) / 2) * W + w2 / 2;
    EXPECT_EQ(o[size_t(i)], in["x"].data[size_t(i)] + in["y"].data[size_t(yi)])
        << i;
  }

  uint64_t yBytes = 0;
  size_t copies = 0;
  for (const ClusterStream &cs : prog.clusters)
    for (const Command &c : cs.commands) {
      if (c.kind != CommandKind::Dma)
        continue;
      copies += c.dma.dir == DmaDir::LocalCopy;
      if (c.dma.dir == DmaDir::Load && c.dma.src >= kY && c.dma.src < kOut) {
        uint64_t e = 4;
        for (uint32_t d : c.dma.shape)
          e *= d;
        yBytes += e;
      }
    }
  return {yBytes, copies};
}

TEST(ElementwiseKernel, RepeatedInputIsExpandedOnChip) {
  // 8 channels of 16 x 16 upsampled to 32 x 32: y's 2048 elements are read
  // once (8 KiB), not once per output element (32 KiB).
  auto [yBytes, copies] = runAdd(8, 16, 16, YView::Upsampled);
  EXPECT_EQ(yBytes, 8u * 16 * 16 * 4);
  EXPECT_GT(copies, 0u);
}

TEST(ElementwiseKernel, OneRowForEveryRowIsNotExpanded) {
  // A per-column vector: one row DMA'd per tile, repeated by the LD (row
  // stride 0); no staging and no local copies.
  auto [yBytes, copies] = runAdd(8, 16, 16, YView::PerColumn);
  EXPECT_EQ(copies, 0u);
  EXPECT_GT(yBytes, 0u);
  EXPECT_LE(yBytes, 8u * 32 * 4); // one 32-float row per tile, <= 8 tiles
}

TEST(ElementwiseKernel, OneValuePerRowIsNotExpanded) {
  // A value per row repeats along the columns only: read with zero column
  // strides as before (each value once per column), no staging.
  auto [yBytes, copies] = runAdd(8, 16, 16, YView::PerRow);
  EXPECT_EQ(copies, 0u);
  EXPECT_EQ(yBytes, 8u * 32 * 32 * 4);
}

} // namespace
