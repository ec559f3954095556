//===- EpilogueSteps.h - Fused epilogue over a stored C tile ----*- C++ -*-===//
//
// Private to lib/Codegen: the instruction sequence that applies the steps
// of a fused epilogue (GemmEpilogue::post) to a C tile already in storage,
// shared by the dealt and the mapped GEMM kernels.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_CODEGEN_EPILOGUESTEPS_H
#define ACCEL_LIB_CODEGEN_EPILOGUESTEPS_H

#include "accel/Codegen/Kernels.h"

namespace accel::codegen::detail {

/// Input-buffer slot of the residual tile: after the C tile of a PE
/// (peRows x cols floats); -1 when both do not fit the input buffer.
int residualSlot(const HardwareDesc &hw, int64_t peRows, int64_t cols);
/// Whether the steps can run on C tiles of peRows (per PE) x cols.
bool postFits(const HardwareDesc &hw, const std::vector<EpilogueStep> &post,
              int64_t peRows, int64_t cols);
bool hasResidual(const std::vector<EpilogueStep> &post);
/// The most rows per PE, at most `peRows`, whose C tile part (and residual
/// part) of `cols` columns fit a PE's input buffer (postFits): the mapped
/// kernel runs the steps on a C tile in parts of that many rows per PE. 0
/// when not even one row fits.
int64_t postPeRows(const HardwareDesc &hw,
                   const std::vector<EpilogueStep> &post, int64_t peRows,
                   int64_t cols);

/// LD acts (C tile -> slot 0), [LD acts (residual tile -> residual slot)],
/// SPU steps in place on slot 0, ST inbuf slot 0 back to the C tile with the
/// last unary step as its chained function. Records are filled per tile by
/// postRecords.
std::vector<Instruction> postSequence(const HardwareDesc &hw,
                                      const std::vector<EpilogueStep> &post,
                                      int64_t peRows, int64_t cols);
/// The records of `seq` for a C tile of `rows` x `cols` at storage `c` (row
/// stride `rowStride` floats) and its residual tile at `residual`.
std::vector<OperandRecord> postRecords(const std::vector<Instruction> &seq,
                                       uint32_t c, uint32_t residual,
                                       int64_t rows, int64_t cols,
                                       int64_t rowStride);
/// The residual tile's DRAM box: the C tile's box moved by `delta` bytes.
DramBox residualBox(DramBox c, uint64_t delta);
/// Storage bytes of a fused residual's tile (the C tile's peRows x PEs x nc
/// floats; 0 without a residual).
int64_t residualTileBytes(const HardwareDesc &hw, const GemmTiling &t,
                          const GemmEpilogue &epi);
/// Rows per PE of one part of a fused residual that the mapped kernel may
/// load into the ping-pong half the final step has just read, instead of
/// into a region of its own (docs/mapping.md, "The fused epilogue in row
/// parts, and the residual tile in parts"): the A and B tiles' bytes of a
/// half hold a part of partPeRows x PEs rows of nc floats. 0 when the steps
/// have no residual, the loop nest is not output stationary (stationary A /
/// B reload partial sums into the halves) or not one row per PE fits.
int64_t residualPartPeRows(const HardwareDesc &hw, const GemmTiling &t,
                           const GemmEpilogue &epi, StationaryOperand st);
/// Storage bytes a staging region for the compact loads of a residual read
/// through a view that repeats its elements would take (loadResidual): twice
/// the tile over the repeats, at most the tile; 0 without repeats.
int64_t residualStagingBytes(const HardwareDesc &hw, const GemmTiling &t,
                             const GemmEpilogue &epi);
/// Loads the residual tile of the C tile `cBox` into storage `addr` (row
/// stride `rowStride`): one DMA of residualBox, or viewTilePieces' DMAs when
/// `epi` reads the residual through a view. With a staging region
/// (`stagingBytes` at `stagingAddr`), pieces that repeat residual elements
/// are loaded compact into it and expanded into the tile by local copies
/// (stageRepeatedReads) when their compact elements fit; all with `tag`,
/// waited for in between.
void loadResidual(StreamBuilder &sb, uint32_t cluster, uint8_t tag,
                  const DramBox &cBox, const GemmEpilogue &epi, uint32_t addr,
                  int64_t rowStride, uint32_t stagingAddr = 0,
                  int64_t stagingBytes = 0);

} // namespace accel::codegen::detail

#endif
