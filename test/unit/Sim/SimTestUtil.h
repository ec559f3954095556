//===- SimTestUtil.h - Building Programs by hand for simulator tests ------===//
#ifndef ACCEL_TEST_UNIT_SIM_SIMTESTUTIL_H
#define ACCEL_TEST_UNIT_SIM_SIMTESTUTIL_H

#include "accel/Sim/Simulator.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace accel::test {

/// A program skeleton for `hw`: grid, fingerprint, one empty stream per
/// cluster, `dramSize` bytes of DRAM.
Program makeProgram(const HardwareDesc &hw, uint64_t dramSize);

OperandRecord rec(uint32_t addr, uint32_t rows, uint32_t cols,
                  int32_t rowStride, int32_t colStride = 1, uint32_t peRows = 0,
                  uint32_t depth = 0);

Instruction ldActs(uint8_t slot, OperandRecord r);
Instruction ldWeights(OperandRecord r);
Instruction ldPsums(uint8_t acc, OperandRecord r);
Instruction mac(uint8_t slot, uint8_t acc, OperandRecord r);
Instruction stAcc(uint8_t acc, OperandRecord r, SfuFunc f = SfuFunc::None);
Instruction stInbuf(uint8_t slot, OperandRecord r, SfuFunc f = SfuFunc::None);
Instruction spu(SpuType type, uint8_t in, uint8_t out, OperandRecord r,
                SfuFunc f, float imm = 0.0f);

Command config(uint8_t ibuf, std::vector<Instruction> instrs);
Command execute(uint8_t ibuf, bool shift, bool last,
                std::vector<RegPatch> patches = {});
Command dma(DmaDir dir, uint8_t tag, uint64_t src, uint64_t dst,
            std::array<uint32_t, 4> shape, std::array<int64_t, 4> srcStride,
            std::array<int64_t, 4> dstStride);
/// Dense rows x cols f32 matrix transfer with row strides in elements.
Command dma2d(DmaDir dir, uint8_t tag, uint64_t src, uint64_t dst,
              uint32_t rows, uint32_t cols, int64_t srcRowStride,
              int64_t dstRowStride);
Command waitCmd(uint8_t tags, bool pe = false);
/// One tile of Y = X W on a cluster: X (M x K) from DRAM `xAddr` to storage
/// 0 and W (K x N) from DRAM `wAddr` to storage `wStorage` (DMA tag 0), the
/// rows over 2 PEs, the product left at storage `yStorage`; the last
/// command waits for the PE array (the caller stores the result).
std::vector<Command> tileMatmul(uint32_t M, uint32_t K, uint32_t N,
                                uint64_t xAddr, uint64_t wAddr,
                                uint32_t wStorage, uint32_t yStorage);
Command barrier(uint32_t id);
/// SEND `bytes` from storage `src` to storage `dst` of every target.
Command sendCmd(std::vector<uint32_t> targets, uint32_t src, uint32_t dst,
                uint32_t bytes, uint32_t sem, uint8_t tag);
Command signalCmd(std::vector<uint32_t> targets, uint32_t sem);
Command recvCmd(uint32_t sem, uint32_t count = 1);
/// DMA remote_load of a dense rows x cols f32 matrix from cluster
/// `fromCluster`'s storage at `src` to this cluster's storage at `dst`.
Command remoteLoad(uint8_t tag, uint32_t fromCluster, uint64_t src,
                   uint64_t dst, uint32_t rows, uint32_t cols);

Symbol sym(const std::string &name, bool input, std::vector<int64_t> shape,
           uint64_t addr);

/// Simulates `prog` with every timing hazard an error (a missing WAIT or
/// BARRIER fails); the run's statistics into `stats` when given.
bool simulateStrict(const Program &prog, const HardwareDesc &hw,
                    const std::map<std::string, Tensor> &in,
                    std::map<std::string, Tensor> &out, std::string &err,
                    SimStats *stats = nullptr);

/// Deterministic non-trivial values in [-1, 1).
std::vector<float> pattern(size_t n, unsigned seed);
/// The bytes of `v` (a constant segment's contents).
std::vector<uint8_t> bytesOf(const std::vector<float> &v);
Tensor tensor(std::vector<int64_t> shape, unsigned seed);

/// Reference row-major matmul (M x K) * (K x N).
std::vector<float> matmul(const std::vector<float> &a,
                          const std::vector<float> &b, size_t m, size_t k,
                          size_t n);

/// A small machine with round numbers for hand-computed cycle counts.
HardwareDesc tinyHardware(uint32_t rows = 1, uint32_t cols = 1);

/// simulate() with default options; returns the error ("" on success).
std::string run(const Program &p, const HardwareDesc &hw,
                const std::map<std::string, Tensor> &in,
                std::map<std::string, Tensor> &out, SimStats &stats,
                const SimOptions &opts = SimOptions{});

} // namespace accel::test

#endif
