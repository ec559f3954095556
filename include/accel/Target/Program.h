//===- Program.h - In-memory form of an accelerator binary ------*- C++ -*-===//
//
// The contract between the compiler (ISA dialect -> Program), the binary
// container (Program <-> bytes) and the simulator (executes a Program).
// Field meanings are documented in docs/isa.md.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TARGET_PROGRAM_H
#define ACCEL_TARGET_PROGRAM_H

#include "accel/Hardware/HardwareDesc.h"
#include "accel/Support/HugePageAllocator.h"
#include "accel/Support/OutOfLine.h"
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace accel {

//===----------------------------------------------------------------------===//
// Instructions (12-bit words of spec/isa.md) and their register-file operands
//===----------------------------------------------------------------------===//

enum class Opcode : uint8_t { LD = 0, MAC = 1, ST = 2, SPU = 3 };
/// LD bits 3-4: which PE storage the data goes to.
enum class LoadStream : uint8_t {
  Activations = 0,
  Weights = 1,
  PartialSums = 2,
  /// Sparse weights: (f32 value, u32 index) pairs, layout in
  /// accel/Target/SparseWeights.h.
  SparseWeights = 3
};
/// ST bits 3-4: where the stored data comes from.
enum class StoreSource : uint8_t { AccBuffer = 0, InputBuffer = 1 };
/// SPU bits 3-4.
enum class SpuType : uint8_t { Unary = 0, Binary = 1, Reduce = 2, Copy = 3 };
/// Register-file queue mode of the weight queue (docs/isa.md, section 3).
enum class QueueMode : uint8_t { SQ = 0, RQ = 1, SW = 2 };
/// Control-unit pipeline type of an instruction.
enum class Pipeline : uint8_t {
  IdFo = 1,     ///< type 1: ID -> FO, operands never change
  IdFoSuWb = 2, ///< type 2: ID -> FO -> SU -> WB, the scalar unit advances
                ///< the operands after every loop-back iteration
};

/// SFU function numbers (operand record `func`); semantics and the
/// instruction kinds each may appear in are in accel/Target/Sfu.h.
enum class SfuFunc : uint8_t {
  None = 0,             ///< identity / no function
  Relu = 1,             ///< max(x, 0)
  Add = 2,              ///< x + y (reduce: sum)
  Sub = 3,              ///< x - y
  Mul = 4,              ///< x * y (reduce: product)
  Max = 5,              ///< max(x, y) (reduce: max)
  Min = 6,              ///< min(x, y) (reduce: min)
  Scale = 7,            ///< x * imm
  AddImm = 8,           ///< x + imm
  MaxImm = 9,           ///< max(x, imm)
  MinImm = 10,          ///< min(x, imm)
  Fill = 11,            ///< imm
  Neg = 12,             ///< -x
  Abs = 13,             ///< |x|
  Reciprocal = 14,      ///< 1 / x
  Sqrt = 15,            ///< sqrt(x)
  Exp = 16,             ///< e^x
  Log = 17,             ///< ln x
  Erf = 18,             ///< erf(x)
  Floor = 19,           ///< floor(x)
  Ceil = 20,            ///< ceil(x)
  Sign = 21,            ///< -1, 0 or 1
  Sin = 22,             ///< sin x
  Cos = 23,             ///< cos x
  Tan = 24,             ///< tan x
  Sigmoid = 25,         ///< 1 / (1 + e^-x)
  Tanh = 26,            ///< tanh x
  Softplus = 27,        ///< ln(1 + e^x)
  Softsign = 28,        ///< x / (1 + |x|)
  LeakyRelu = 29,       ///< x < 0 ? imm * x : x
  Elu = 30,             ///< x < 0 ? imm * (e^x - 1) : x
  Celu = 31,            ///< max(0, x) + min(0, imm * (e^(x/imm) - 1))
  HardSwish = 32,       ///< x * clamp(x/6 + 1/2, 0, 1)
  ThresholdedRelu = 33, ///< x > imm ? x : 0
  Round = 34,           ///< round half to even
  Square = 35,          ///< x * x
  PowImm = 36,          ///< x ^ imm
  Div = 40,             ///< x / y
  Pow = 41,             ///< x ^ y
  Prelu = 42,           ///< x < 0 ? y * x : x
  Equal = 43,           ///< x == y (1.0 / 0.0)
  Less = 44,            ///< x < y
  Greater = 45,         ///< x > y
  LessEqual = 46,       ///< x <= y
  GreaterEqual = 47,    ///< x >= y
  MaskKeep = 48,        ///< x != 0 ? y : 0 (x is a 0/1 mask)
  MaskDrop = 49,        ///< x == 0 ? y : 0
  AddRow = 56,          ///< x + y[row] (y is one value per row)
  SubRow = 57,          ///< x - y[row]
  MulRow = 58,          ///< x * y[row]
  DivRow = 59,          ///< x / y[row]
  ArgMax = 60,          ///< column index of the maximum (imm != 0: last one)
  ArgMin = 61,          ///< column index of the minimum (imm != 0: last one)
};
const char *sfuFuncName(SfuFunc f);

/// Decoded fields of one 12-bit instruction. Fields not used by an opcode
/// are zero.
struct InstrFields {
  Opcode op = Opcode::LD;
  uint8_t sub = 0;          ///< bits 3-4: LD stream / ST source / SPU type
  bool loadBalance = false; ///< MAC bit 3
  bool sfuActive = false;   ///< MAC bit 4
  uint8_t slot = 0;         ///< bits 5-8: input-buffer slot (0..15)
  uint8_t accId = 0;        ///< MAC/ST bits 9-10; LD PartialSums uses slot&3
  uint8_t outSlot = 0;      ///< SPU bits 9-12

  /// Whether the operand's per-PE addresses (OperandRecord::peAddrs) mean
  /// anything for this instruction: LD activations / partial sums and ST.
  bool usesPeAddrs() const {
    return op == Opcode::ST ||
           (op == Opcode::LD && (sub == uint8_t(LoadStream::Activations) ||
                                 sub == uint8_t(LoadStream::PartialSums)));
  }
};

/// One register-file entry: the operands of one instruction. A tile is a
/// `rows` x `cols` matrix; in the storage unit element (r, c) is at byte
/// addr + (r*rowStride + c*colStride) * elemBytes.
struct OperandRecord {
  uint32_t addr = 0;     ///< storage-unit byte address (LD source, ST dest)
  uint32_t rows = 1;     ///< tile rows for the whole cluster
  uint32_t cols = 1;     ///< tile columns
  int32_t rowStride = 0; ///< storage elements between rows (0 = broadcast)
  int32_t colStride = 1; ///< storage elements between columns (0 = broadcast)
  /// Per-PE operand derivation: PE p owns rows [p*peRows, (p+1)*peRows) of
  /// the tile. 0 = every PE sees all rows (broadcast, e.g. weights).
  uint32_t peRows = 0;
  uint32_t depth = 0;  ///< MAC: reduction length K; SPU binary: 2nd slot
  uint32_t repeat = 1; ///< loop-back repeat count (>= 1)
  QueueMode queueMode = QueueMode::SQ;
  SfuFunc func = SfuFunc::None; ///< SPU function / ST chained SFU function
  float imm = 0.0f;             ///< SFU scalar parameter
  /// MAC index compare: weight index k meets activation column base + k
  /// (input index = weight index + base). Type-2 pipelines advance it.
  uint32_t base = 0;
  /// Scalar unit (pipeline type 2 only): after each loop-back iteration the
  /// scalar unit adds `step` to `addr` (LD / ST, and to every `peAddrs`
  /// entry) or to `base` (MAC) and writes it back to the register file, so
  /// the next iteration and the next EXECUTE see the advanced operand.
  int32_t step = 0;
  Pipeline pipeline = Pipeline::IdFo;
  /// SPU reduce only: decoupled SFU mode, reduce the PEs' tiles elementwise
  /// across the cluster (partial results tagged with their source PE).
  bool acrossPes = false;
  /// Per-PE operand derivation precomputed by the compiler (LD acts / psums,
  /// ST): PE p's rows start at storage byte peAddrs[p] instead of
  /// addr + p*peRows*rowStride*4. Empty = derived by the parser (peRows).
  std::vector<uint32_t> peAddrs;
  bool operator==(const OperandRecord &o) const;
};

/// Operand record after `iterations` loop-back iterations of a type-2
/// pipeline (the scalar unit's write-back); type 1 returns `r` unchanged.
OperandRecord advancedOperands(const OperandRecord &r, const InstrFields &f,
                               uint64_t iterations);

struct Instruction {
  InstrFields fields;
  OperandRecord operands;
};

//===----------------------------------------------------------------------===//
// Commands of one cluster's stream
//===----------------------------------------------------------------------===//

/// Which register-file field an EXECUTE patch overwrites.
enum class PatchField : uint8_t {
  Addr = 0,
  Rows = 1,
  Cols = 2,
  Depth = 3,
  Base = 4 ///< MAC index-compare base (resets a scalar-unit-advanced base)
};
struct RegPatch {
  uint8_t instr = 0; ///< index of the instruction in the buffer
  PatchField field = PatchField::Addr;
  uint32_t value = 0;
};

enum class DmaDir : uint8_t {
  Load = 0,     ///< DRAM -> storage unit
  Store = 1,    ///< storage unit -> DRAM
  DramCopy = 2, ///< DRAM -> DRAM (used for padding / layout copies)
  /// Another cluster's storage unit (DmaDesc::srcCluster) -> this cluster's
  /// storage unit, over the mesh at the NUMA cost (docs/mesh.md).
  RemoteLoad = 3,
  /// This cluster's storage unit -> this cluster's storage unit at the
  /// storage bandwidth, no DRAM bytes (an intermediate kept on chip,
  /// docs/passes.md "On-chip residency").
  LocalCopy = 4,
};

/// Whether a DMA in direction `d` reads DRAM (its source side: a load, a
/// DRAM copy).
constexpr bool readsDram(DmaDir d) {
  return d == DmaDir::Load || d == DmaDir::DramCopy;
}
/// Whether a DMA in direction `d` writes DRAM (its destination side: a
/// store, a DRAM copy).
constexpr bool writesDram(DmaDir d) {
  return d == DmaDir::Store || d == DmaDir::DramCopy;
}
/// Whether the source (`srcSide`) or the destination side of a DMA in
/// direction `d` is in DRAM.
constexpr bool dramSide(DmaDir d, bool srcSide) {
  return srcSide ? readsDram(d) : writesDram(d);
}

/// A 4-D strided box transfer. Element (i0..i3) moves between
/// src + sum(i_d * srcStride_d) * elemBytes and dst + sum(i_d * dstStride_d)
/// * elemBytes. A source stride of 0 broadcasts.
struct DmaDesc {
  DmaDir dir = DmaDir::Load;
  uint8_t tag = 0; ///< completion tag (0..7) for WAIT
  uint32_t elemBytes = 4;
  uint64_t src = 0, dst = 0; ///< DRAM or storage byte addresses per `dir`
  /// RemoteLoad only: row-major index of the cluster whose storage unit is
  /// read (must differ from the issuing cluster).
  uint32_t srcCluster = 0;
  uint32_t shape[4] = {1, 1, 1, 1};
  int64_t srcStride[4] = {0, 0, 0, 0};
  int64_t dstStride[4] = {0, 0, 0, 0};
  uint64_t numElements() const {
    return uint64_t(shape[0]) * shape[1] * shape[2] * shape[3];
  }
};

enum class CommandKind : uint8_t {
  Config = 0,  ///< 8-bit CONFIG: store instructions + operands in a buffer
  Execute = 1, ///< 8-bit EXECUTE: run a buffer with new data (patches)
  Dma = 2,     ///< command-processor DMA (asynchronous, tagged)
  Wait = 3,    ///< stall until DMA tags complete and/or the PEs are idle
  Barrier = 4, ///< all clusters meet here
  /// Mesh transfer: storage bytes of this cluster -> the storage units of
  /// one or more clusters (multicast), then signals their semaphore.
  Send = 5,
  /// Increments a semaphore of one or more clusters (no data).
  Signal = 6,
  /// Blocks until this cluster's semaphore reaches a count, then takes it.
  Recv = 7,
  /// One RNN task on the cluster's PE array as the column-wise engine
  /// (spec/rnn-multithreading.md, docs/rnn.md): asynchronous, tagged.
  Recur = 8,
};

/// Recurrent cell of a RECUR task (the order of graph::RnnKind).
enum class RecurCell : uint8_t { Rnn = 0, Gru = 1, Lstm = 2 };

/// ONNX recurrent activation functions (with activation_alpha / _beta).
enum class RecurAct : uint8_t {
  Sigmoid = 0,
  Tanh = 1,
  Relu = 2,
  Affine = 3,
  LeakyRelu = 4,
  ThresholdedRelu = 5,
  ScaledTanh = 6,
  HardSigmoid = 7,
  Elu = 8,
  Softsign = 9,
  Softplus = 10,
};
constexpr unsigned kRecurActs = 11;
const char *recurActName(RecurAct a); ///< ONNX spelling ("Sigmoid")
/// The activation of an ONNX spelling; nullopt for an unknown name.
std::optional<RecurAct> recurActNamed(std::string_view name);
float recurActivation(RecurAct a, float alpha, float beta, float x);

/// One operand range of a RECUR task (RecurDesc::operands).
struct RecurOperand {
  const char *name;
  uint64_t addr = 0, bytes = 0; ///< bytes 0: the task has no such operand
  bool write = false;
  bool inDram = false;   ///< the weights with weightsInDram
  bool readOnce = false; ///< h0, c0: read before the first step only
};

/// RECUR: `steps` time steps of one direction of one batch row of a
/// recurrent layer on the column-wise engine (docs/rnn.md, "RECUR").
/// Every address is a byte address in the cluster's storage unit except
/// `weights` when `weightsInDram`. Layouts (f32, row-major):
///   weights  merged gate matrix [rows, inputs + hidden], rows interleaved
///            (row r = gate r % G, unit r / G; ONNX gate order), and for a
///            GRU the candidate matrix [hidden, inputs + hidden] after it
///   bias     one value per packed row (Wb + Rb), a GRU then the
///            candidate's Wb_h and Rb_h ([hidden] each)
///   peephole LSTM [3 * hidden] (i, o, f) when `peephole`
///   x        [steps, inputs] in sequence order (row t = x_t)
///   h0, c0   [hidden] initial state (c0: LSTM)
///   y        [steps, hidden] (row t = h_t, sequence order)
///   hT, cT   [hidden] final state
/// A reverse task walks t = steps-1 .. 0. `tag` completes when the last
/// element of hT is written back.
struct RecurDesc {
  uint8_t tag = 0;    ///< completion tag (0..7), shared with DMA / SEND
  uint8_t thread = 0; ///< hardware thread context (< instruction buffers)
  RecurCell cell = RecurCell::Lstm;
  bool reverse = false, linearBeforeReset = false, inputForget = false;
  bool peephole = false, hasClip = false, weightsInDram = false;
  /// The sequence length is a run-time value: one f32 at storage `seqLen`
  /// (an integer < 2^24, clamped to [0, steps]); steps past it output 0.
  bool hasSeqLen = false;
  uint32_t hidden = 1, inputs = 1, steps = 1;
  uint32_t ep = 1, vp = 1, candidateVp = 1;
  float clip = 0;
  RecurAct act[3] = {RecurAct::Sigmoid, RecurAct::Tanh, RecurAct::Tanh};
  float alpha[3] = {0, 0, 0}, beta[3] = {0, 0, 0};
  uint64_t weights = 0;
  uint32_t bias = 0, peepholes = 0, x = 0, h0 = 0, c0 = 0, y = 0, hT = 0,
           cT = 0, seqLen = 0;
  /// The task's arrival (cycles from the start of the run): its first block
  /// issues no earlier (a multi-model plan's arrival times; 0 = at once).
  uint64_t arrival = 0;
  uint32_t gates() const {
    return cell == RecurCell::Lstm ? 4 : cell == RecurCell::Gru ? 2 : 1;
  }
  /// Rows of the merged matrix (GRU: z and r).
  uint64_t rows() const { return uint64_t(gates()) * hidden; }
  uint64_t cols() const { return uint64_t(inputs) + hidden; }
  /// f32 elements of `weights` / `bias`.
  uint64_t weightElems() const {
    return (rows() + (cell == RecurCell::Gru ? hidden : 0)) * cols();
  }
  uint64_t biasElems() const {
    return rows() + (cell == RecurCell::Gru ? 2ull * hidden : 0);
  }
  /// Products of one step (the engine's useful MACs).
  uint64_t macsPerStep() const { return weightElems(); }
  /// Every operand range of the task, the weights first, then what it
  /// reads, then what it writes (Program.cpp). The one list validation,
  /// the simulator's bounds checks and hazard windows, and the storage
  /// high-water mark of the residency planner all read.
  std::vector<RecurOperand> operands() const;
  /// One past the highest storage byte the task touches.
  uint64_t storageEnd() const;
};

/// A RecurDesc held out of line: only RECUR commands carry one, and held
/// inline it made every command 120 bytes larger (a compiled CNN is
/// hundreds of thousands of DMA / EXECUTE commands). Copies are deep; an
/// empty slot reads as a default RecurDesc.
using RecurSlot = OutOfLine<RecurDesc>;

/// Semaphores per cluster (ids 0 .. kNumSemaphores-1). The compiler uses the
/// producing cluster's row-major index as the id, so one id per possible
/// cluster of the largest grid (64 x 64).
constexpr uint32_t kNumSemaphores = 4096;

/// SEND / SIGNAL operands (docs/mesh.md). SEND copies `bytes` contiguous
/// bytes from this cluster's storage unit at `src` to storage address `dst`
/// of every cluster in `targets` (XY routes over the mesh, a multicast shares
/// the links its routes have in common) and, when the data has arrived,
/// increments semaphore `sem` of that target by one. The source bytes may be
/// overwritten once DMA tag `tag` completes (WAIT). SIGNAL uses only
/// `targets` and `sem` and arrives after the hop latency of the route.
struct MeshOp {
  std::vector<uint32_t> targets; ///< row-major cluster indices, ascending
  uint32_t src = 0, dst = 0, bytes = 0;
  uint32_t sem = 0;
  uint8_t tag = 0;
};

/// One command of a cluster's stream. A compiled network holds hundreds of
/// thousands, nearly all DMA, EXECUTE or WAIT, so the payloads of the rare
/// kinds (CONFIG's instructions, SEND / SIGNAL's operands, RECUR's task)
/// are held out of line and the small fields come first: 184 bytes a
/// command instead of 248 (docs/simulator.md, "Eleventh round").
struct Command {
  CommandKind kind = CommandKind::Config;
  // Config / Execute
  uint8_t ibuf = 0;
  bool shift = false, last = false; ///< Execute bits 2 and 3
  // Wait
  uint8_t waitTags = 0; ///< bit t = wait for DMA tag t
  bool waitPe = false;  ///< wait until the PE array is idle
  // Barrier
  uint32_t barrierId = 0;
  // Recv: wait until semaphore `sem` >= `count`, then subtract `count`.
  uint32_t sem = 0;
  uint32_t count = 1;
  /// Index into Program::layers of the network layer this command works
  /// for (per-layer attribution, docs/simulator.md "Per-layer statistics");
  /// kNoLayer for commands of no layer (hand-written programs).
  uint32_t layer = kNoLayer;
  static constexpr uint32_t kNoLayer = 0xFFFFFFFFu;
  OutOfLineVector<Instruction> instrs; ///< Config
  std::vector<RegPatch> patches;       ///< Execute
  // Send / Signal
  OutOfLine<MeshOp> mesh;
  // Recur
  RecurSlot recur;
  // Dma
  DmaDesc dma;
};

/// Applies EXECUTE patches to a configured buffer's register file (the
/// records persist). On an unknown instruction index or field returns false
/// and sets `err`; patches before the bad one stay applied.
bool applyPatches(std::vector<Instruction> &buffer,
                  const std::vector<RegPatch> &patches, std::string &err);

/// A cluster's commands: megabytes for a compiled network, on huge pages
/// (accel/Support/HugePageAllocator.h says why).
using CommandList = std::vector<Command, HugePageAllocator<Command>>;

struct ClusterStream {
  CommandList commands;
};

//===----------------------------------------------------------------------===//
// The whole program
//===----------------------------------------------------------------------===//

/// Bytes [offset, offset + bytes) of a symbol's dense row-major image, held
/// at `dramAddr` (docs/passes.md "Memory planning on channels": a tensor cut
/// into pieces on several channels, or replicated on each reading channel).
struct DramPiece {
  uint64_t offset = 0;
  uint64_t bytes = 0;
  uint64_t dramAddr = 0;
  bool operator==(const DramPiece &o) const {
    return offset == o.offset && bytes == o.bytes && dramAddr == o.dramAddr;
  }
};

struct Symbol {
  std::string name;
  bool isInput = true; ///< false = output
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  /// Dense row-major at this address when `pieces` is empty; otherwise the
  /// address of the first piece.
  uint64_t dramAddr = 0;
  /// Empty: the whole image at dramAddr. Otherwise, in ascending offset
  /// order, pieces that together cover every byte of the image exactly once
  /// per copy: an input is written to every piece (replicas of a range are
  /// pieces with equal offsets), an output is read from the first piece
  /// covering each byte.
  std::vector<DramPiece> pieces{};
  uint64_t numElements() const;
};

/// Constant data (weights) placed in DRAM before the run.
struct ConstSegment {
  uint64_t dramAddr = 0;
  /// The bytes, owned. Empty when the segment borrows them (`borrowed`).
  std::vector<uint8_t> bytes;
  /// Further DRAM addresses that hold the same bytes (one copy per memory
  /// channel whose clusters read them); loaded like dramAddr.
  std::vector<uint64_t> replicas{};
  /// A segment read by readBinaryFile points into the binary's image in
  /// memory (Program::backing keeps it alive) instead of a copy in
  /// `bytes`: `borrowedSize` bytes at `borrowed`. Read the bytes through
  /// data() / size(), which serve both.
  const uint8_t *borrowed = nullptr;
  uint64_t borrowedSize = 0;

  const uint8_t *data() const { return borrowed ? borrowed : bytes.data(); }
  uint64_t size() const { return borrowed ? borrowedSize : bytes.size(); }
  bool empty() const { return size() == 0; }
  /// Bytes [offset, offset + n) as a segment at `addr` (no replicas): it
  /// borrows them when this segment borrows, else owns a copy.
  ConstSegment slice(uint64_t offset, uint64_t n, uint64_t addr) const {
    ConstSegment s;
    s.dramAddr = addr;
    if (borrowed) {
      s.borrowed = borrowed + offset;
      s.borrowedSize = n;
    } else {
      s.bytes.assign(bytes.begin() + int64_t(offset),
                     bytes.begin() + int64_t(offset + n));
    }
    return s;
  }
};

/// A constant packet of one core (spec/labels-and-splits.md [0112]-[0125],
/// docs/labels-and-splits.md "Constant packets"): the blocks of the split
/// constants the core computes with (already in `constants`; listed here
/// with their DRAM addresses) and the marker area (constant total, block
/// sizes and offsets, hidden-tensor sizes, input / output address table),
/// written at `markerAddr` in the core's local channel before execution.
struct PacketBlockRef {
  std::string name; ///< constant name (e.g. "w")
  uint64_t dramAddr = 0;
  uint64_t bytes = 0;
};
struct ConstPacket {
  uint32_t cluster = 0; ///< row-major cluster index
  uint32_t core = 0;    ///< PE index inside the cluster
  std::vector<PacketBlockRef> blocks;
  uint64_t markerAddr = 0;
  std::vector<uint8_t> marker; ///< marker-area bytes
};

/// One network layer of the layer table: an operator of the source model
/// (an ONNX node, or an op of TOSA / linalg input) as lowered, with the
/// operators fused into it. Commands point at it through Command::layer.
struct LayerInfo {
  std::string name;   ///< ONNX node name / MLIR location name
  std::string opKind; ///< ONNX op type / op name (e.g. "Conv", "tosa.add")
  uint64_t macs = 0;  ///< multiply-adds of the layer (dense)
  /// Bytes the layer must move at least: its constant operands (weights)
  /// plus the network inputs it reads and the network outputs it writes,
  /// each once.
  uint64_t compulsoryBytes = 0;
  /// The part of compulsoryBytes that is constants no earlier layer of the
  /// table reads: Σ weightBytes counts each weight of the network once (the
  /// bands of depth-first-rows all read their chain's weights, which the
  /// network moves once), as the network's ideal bound needs.
  uint64_t weightBytes = 0;
  /// Names of the source operators fused into this layer (fuse-layers).
  std::vector<std::string> fused{};
  /// The data flow between layers, for process formation (accel-compile
  /// --networks --emit=plan). Known at compile time only: the binary does
  /// not carry them. The layers whose results it reads, the program inputs
  /// it reads and the outputs it writes (by symbol name), and the bytes of
  /// its result.
  std::vector<uint32_t> inputs{};
  std::vector<std::string> inputSymbols{}, outputSymbols{};
  uint64_t outputBytes = 0;
};

struct Program {
  static constexpr uint32_t kFormatVersion = 5;
  uint64_t hwFingerprint = 0; ///< HardwareDesc::fingerprint() compiled for
  uint32_t gridRows = 1, gridCols = 1;
  uint64_t dramSize = 0; ///< bytes of DRAM the program uses (zeroed)
  std::vector<Symbol> symbols;
  std::vector<ConstSegment> constants;
  std::vector<ConstPacket> packets;    ///< one per core that holds constants
  std::vector<ClusterStream> clusters; ///< row-major, gridRows*gridCols
  /// Layer table (empty for hand-written programs); Command::layer indexes
  /// it.
  std::vector<LayerInfo> layers{};
  /// What borrowed constant segments point into (the binary file's image);
  /// null when every segment owns its bytes. Copies of the Program share it.
  std::shared_ptr<const void> backing{};
};

/// One instruction with its operand record (fields the opcode does not use
/// stay zero).
inline Instruction makeInstruction(Opcode op, uint8_t sub, uint8_t slot,
                                   uint8_t acc, const OperandRecord &r) {
  Instruction in;
  in.fields.op = op;
  in.fields.sub = sub;
  in.fields.slot = slot;
  in.fields.accId = acc;
  in.operands = r;
  return in;
}

/// A DMA command from `src` to `dst`; its box is DmaDesc's default (one
/// element) until the caller sets shape and strides.
inline Command makeDma(DmaDir dir, uint8_t tag, uint64_t src, uint64_t dst) {
  Command c;
  c.kind = CommandKind::Dma;
  c.dma.dir = dir;
  c.dma.tag = tag;
  c.dma.src = src;
  c.dma.dst = dst;
  return c;
}

/// A DMA command moving a rows x cols box of 4-byte elements whose rows
/// are `srcRowStride` / `dstRowStride` elements apart on each side
/// (elements contiguous within a row).
inline Command makeDmaRows(DmaDir dir, uint8_t tag, uint64_t src, uint64_t dst,
                           uint32_t rows, uint32_t cols, int64_t srcRowStride,
                           int64_t dstRowStride) {
  Command c = makeDma(dir, tag, src, dst);
  c.dma.shape[2] = rows;
  c.dma.shape[3] = cols;
  c.dma.srcStride[2] = srcRowStride;
  c.dma.dstStride[2] = dstRowStride;
  c.dma.srcStride[3] = c.dma.dstStride[3] = 1;
  return c;
}

/// Command names as messages and statistics print them: "CONFIG",
/// "EXECUTE", "DMA", "WAIT", "BARRIER".
const char *commandKindName(CommandKind k);
/// DMA directions: "load", "store", "dram_copy", "remote_load",
/// "local_copy".
const char *dmaDirName(DmaDir d);
/// Decimal text of a 128-bit integer (the validator and the simulator do
/// address arithmetic in 128 bits so that no product overflows).
std::string int128String(__int128 v);

} // namespace accel

#endif
