//===- GemmCommon.h - Shared pieces of the GEMM kernels ----------*- C++
//-*-===//
//
// Internal to lib/Codegen: the instruction sequence and per-step operand
// records shared by the dealt GEMM kernel (GemmKernel.cpp) and the mapped
// one (MappedGemm.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_CODEGEN_GEMMCOMMON_H
#define ACCEL_LIB_CODEGEN_GEMMCOMMON_H

#include "accel/Codegen/Kernels.h"
#include <cstdint>
#include <vector>

namespace accel::codegen::detail {

/// Storage addresses of the tiles of one step.
struct Regions {
  uint32_t a, b, c, init;
  uint32_t ones = 0; ///< a per-row init region's 1.0 (after its values)
};

/// Bytes of one ping-pong half (A tile, B tile, and unless t.sharedC the C
/// tile and the init tile).
int64_t halfBytes(const HardwareDesc &hw, const GemmTiling &t, bool init);
/// Bytes of the C and init regions outside the halves (t.sharedC), else 0.
int64_t sharedCBytes(const HardwareDesc &hw, const GemmTiling &t, bool init);
/// Bytes at the bottom of the storage unit that every layer takes: both
/// halves and the shared C region (docs/passes.md, "Compact kernel
/// storage"); the residual tile, band slots and resident strips follow.
int64_t fixedTileBytes(const HardwareDesc &hw, const GemmTiling &t, bool init);
/// The tiles of ping-pong half h, the halves from address 0 (`half` bytes
/// each): A, B, then C and init in the half, or (t.sharedC) C and init in
/// the shared region after both halves.
Regions halfRegions(const HardwareDesc &hw, const GemmTiling &t, int64_t half,
                    int h);
/// Columns one accumulation buffer holds for `peRows` rows per PE.
int64_t accCols(const HardwareDesc &hw, int64_t peRows);
/// How a step's sequence uses the PE input buffers: the slot its A tile's
/// LD acts writes and its MACs read, whether the step loads it (a step
/// whose A tile the buffers still hold from the step before has no LD acts,
/// nor the alpha scale: the held tile is scaled already), and the slot of
/// the per-row bias values of a depth-1 bias MAC (-1: none).
struct InputBufferUse {
  uint8_t actsSlot = 0;
  bool loadActs = true;
  int biasSlot = -1;
};
/// [init], [LD acts, [SPU scale]], (LD weights, MAC) x G, ST x G; `sparse`
/// loads the weights as LD sparse_weights lists. The init (`withInit`): LD
/// psums x G, or, with `rowInit` (the init region holds one value per C
/// row, GemmTiles::initRows), the bias added by a depth-1 MAC when
/// `ib.biasSlot` >= 0 (LD acts of the values into that slot, then per group
/// LD weights of a row of ones, the region's 1.0 broadcast with column
/// stride 0, and MAC depth 1: acc = 0 + bias * 1, exactly what LD psums
/// leaves) or LD psums broadcasting the values along the columns (column
/// stride 0, row stride 1).
std::vector<Instruction> gemmSequence(const GemmTiling &t,
                                      const GemmEpilogue &epi, bool withInit,
                                      int groups, bool sparse = false,
                                      bool rowInit = false,
                                      InputBufferUse ib = {});
/// One accumulation group's sparse weight list inside a B tile region:
/// byte offset from the region start and pair count (LD rows).
struct SparseGroup {
  uint32_t offset = 0, pairs = 1;
};
/// The operand records of one step (mc x kc x nc) with tiles at `l`;
/// `sparse` (one entry per group) when the sequence loads sparse weights;
/// `biasMac` when it starts with the depth-1 bias MAC (gemmSequence).
std::vector<OperandRecord>
stepRecords(const std::vector<Instruction> &seq, const Regions &l, int64_t mc,
            int64_t kc, int64_t nc, int64_t groupCols,
            const std::vector<SparseGroup> *sparse = nullptr,
            bool biasMac = false);

/// What the init regions of one cluster's storage hold. A broadcast init box
/// (a bias: a zero stride) reads DRAM the layer does not write, so when the
/// region already holds the same box (an earlier tile of the same rows and
/// shape) the load is skipped; any other box is always loaded.
class InitRegions {
public:
  /// Whether `box` has to be DMA'd into the region at `addr`; records it.
  /// `readOnly`: the box is DRAM no layer writes (a bias vector), so the
  /// region holding the same box is reused like a broadcast.
  bool needsLoad(uint32_t addr, const DramBox &box, bool readOnly = false);

private:
  struct Held {
    uint32_t addr;
    DramBox box;
  };
  std::vector<Held> held_;
};

/// The zero pieces (PadWindow.h) each tile region of one cluster still
/// holds. A tile loaded as pieces into a region whose previous load had
/// the same zero pieces skips them when nothing has written the region
/// since: a block of whole output rows of a 3x3 pad-1 conv then loads only
/// its input boxes whenever its half held the same chunk's tile before.
class HeldZeros {
public:
  /// The pieces of `pieces` to DMA into the region at byte `addr`;
  /// records what the region then holds.
  std::vector<TilePiece> toLoad(uint32_t addr,
                                const std::vector<TilePiece> &pieces);
  /// A plain load wrote storage bytes [lo, hi): the regions it overlaps
  /// are forgotten.
  void wrote(uint64_t lo, uint64_t hi);
  /// wrote() for `box` loaded densely at `addr` with row stride
  /// `rowStride`.
  void wroteBox(uint32_t addr, const DramBox &box, int64_t rowStride);

private:
  struct Held {
    uint32_t addr;
    uint64_t lo, hi;
    std::vector<TilePiece> zeros;
  };
  std::vector<Held> held_;
};

} // namespace accel::codegen::detail

#endif
