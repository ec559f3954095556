//===- IsaDialect.cpp - ISA dialect registration and verifiers ------------===//
#include "Isa/IsaDialect.h"
#include "accel/Target/Program.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include <set>

using namespace mlir;
using namespace accel::isa;

#include "Isa/IsaEnums.cpp.inc"
#include "Isa/IsaOpsDialect.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "Isa/IsaAttrs.cpp.inc"

void IsaDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Isa/IsaAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "Isa/IsaOps.cpp.inc"
      >();
}

namespace {
// Field widths fixed by the 8-bit command / 12-bit instruction encodings.
constexpr int kNumIbufs = 32, kNumSlots = 16, kNumAccs = 4, kNumTags = 8;

LogicalResult checkRange(Operation *op, StringRef what, int64_t v, int64_t n) {
  if (v < 0 || v >= n)
    return op->emitOpError()
           << what << " " << v << " out of range [0, " << n << ")";
  return success();
}
/// What an instruction may use of the control-unit fields.
struct RecordUse {
  bool base = false, peAddrs = false, acrossPes = false;
};
LogicalResult checkRecord(Operation *op, OperandsAttr rec, RecordUse use = {}) {
  if (rec.getRepeat() < 1)
    return op->emitOpError("operand record repeat must be >= 1");
  if (rec.getRows() < 1 || rec.getCols() < 1)
    return op->emitOpError("operand record rows and cols must be >= 1");
  if (rec.getPipeline() != 1 && rec.getPipeline() != 2)
    return op->emitOpError("operand record pipeline ")
           << rec.getPipeline() << " is invalid (1 = ID-FO, 2 = ID-FO-SU-WB)";
  if (rec.getStep() != 0 && rec.getPipeline() != 2)
    return op->emitOpError(
        "operand record step needs pipeline 2 (the scalar unit)");
  if (rec.getBase() != 0 && !use.base)
    return op->emitOpError("operand record base is only used by MAC");
  if (rec.getAcrossPes() && !use.acrossPes)
    return op->emitOpError("operand record across_pes is only used by SPU "
                           "reduce");
  if (auto a = rec.getPeAddrs()) {
    if (!use.peAddrs)
      return op->emitOpError("operand record pe_addrs is only used by LD "
                             "acts / psums and ST");
    if (a.empty())
      return op->emitOpError("operand record pe_addrs must not be empty");
    for (int64_t v : a.asArrayRef())
      if (v < 0 || v > int64_t(UINT32_MAX))
        return op->emitOpError("operand record pe_addrs value ")
               << v << " out of range [0, 2^32)";
  }
  return success();
}

/// The grid of the enclosing isa.program (nullopt outside one).
std::optional<std::pair<uint32_t, uint32_t>> gridOf(Operation *op) {
  if (auto prog = op->getParentOfType<ProgramOp>())
    return std::make_pair(prog.getRows(), prog.getCols());
  return std::nullopt;
}

LogicalResult checkInGrid(Operation *op, StringRef what, ClusterAttr c) {
  auto grid = gridOf(op);
  if (grid && (c.getRow() >= grid->first || c.getCol() >= grid->second))
    return op->emitOpError() << what << " (" << c.getRow() << ", " << c.getCol()
                             << ") is outside the " << grid->first << "x"
                             << grid->second << " grid";
  return success();
}

/// SEND / SIGNAL targets: at least one, inside the grid, ascending in
/// row-major order without repeats (the binary's canonical list).
LogicalResult checkTargets(Operation *op, ArrayAttr targets) {
  if (targets.empty())
    return op->emitOpError("needs at least one target cluster");
  ClusterAttr prev;
  for (Attribute a : targets) {
    auto c = cast<ClusterAttr>(a);
    if (failed(checkInGrid(op, "target", c)))
      return failure();
    if (prev && std::make_pair(c.getRow(), c.getCol()) <=
                    std::make_pair(prev.getRow(), prev.getCol()))
      return op->emitOpError("targets must be in ascending row-major order "
                             "without repeats: (")
             << c.getRow() << ", " << c.getCol() << ") follows ("
             << prev.getRow() << ", " << prev.getCol() << ")";
    prev = c;
  }
  return success();
}
} // namespace

/// elemBytes * the element count of `shape`, or nullopt when it does not
/// fit 64 bits.
static std::optional<uint64_t> extentBytes(ArrayRef<int64_t> shape,
                                           uint64_t elemBytes) {
  uint64_t bytes = elemBytes;
  for (int64_t d : shape)
    if (d < 0 || __builtin_mul_overflow(bytes, uint64_t(d), &bytes))
      return std::nullopt;
  return bytes;
}

/// Bytes per element in DRAM: i1 / i64 I/O values are held as f32 words.
static uint64_t elementBytes(Type et, bool io) {
  if (io && (et.isInteger(1) || et.isInteger(64)))
    return 4;
  return (et.getIntOrFloatBitWidth() + 7) / 8;
}

/// Bytes of a dense constant (isa.data value, isa.packet marker) in DRAM;
/// nullopt for a dynamic shape, a non-numeric element type or an overflow.
static std::optional<uint64_t> denseBytes(Type type) {
  auto t = cast<ShapedType>(type);
  if (!t.hasStaticShape() || !t.getElementType().isIntOrFloat())
    return std::nullopt;
  return extentBytes(t.getShape(), elementBytes(t.getElementType(), false));
}

/// I/O tensors and constant data lie inside [0, dram_size): a byte size that
/// overflows 64 bits (a huge tensor type) is an error here, so every tool
/// that produces or reads an isa.program refuses it.
static LogicalResult verifyDramExtents(ProgramOp program) {
  uint64_t dram = program.getDramSize();
  auto inside = [&](Operation *op, const Twine &what, uint64_t addr,
                    uint64_t bytes) -> LogicalResult {
    if (addr <= dram && bytes <= dram - addr)
      return success();
    return op->emitOpError()
           << what << ": " << bytes << " bytes at address " << addr
           << " lie outside the program's DRAM [0, " << dram << ")";
  };
  for (Operation &op : program.getBody().front()) {
    if (auto io = dyn_cast<IoOp>(op)) {
      if (ArrayAttr pieces = io.getPiecesAttr()) {
        // The image is only in its pieces; validateProgram checks that they
        // cover it.
        for (auto [i, a] : llvm::enumerate(pieces)) {
          auto piece = cast<DramPieceAttr>(a);
          if (failed(inside(io, "'" + io.getSymName() + "' piece " + Twine(i),
                            piece.getAddr(), piece.getBytes())))
            return failure();
        }
        continue;
      }
      auto t = cast<RankedTensorType>(io.getType());
      if (!t.hasStaticShape() || !t.getElementType().isIntOrFloat())
        continue; // programFromIsa names the unsupported type
      std::optional<uint64_t> bytes =
          extentBytes(t.getShape(), elementBytes(t.getElementType(), true));
      if (!bytes)
        return io.emitOpError("'") << io.getSymName() << "' of type " << t
                                   << " needs more than 2^64 bytes";
      if (failed(inside(io, "'" + io.getSymName() + "'", io.getAddr(), *bytes)))
        return failure();
    } else if (auto data = dyn_cast<DataOp>(op)) {
      std::optional<uint64_t> bytes = denseBytes(data.getValue().getType());
      if (bytes &&
          failed(inside(data, "constant data", data.getAddr(), *bytes)))
        return failure();
      if (auto replicas = data.getReplicasAttr())
        for (auto [i, addr] : llvm::enumerate(replicas.asArrayRef()))
          if (bytes && failed(inside(data, "constant data replica " + Twine(i),
                                     uint64_t(addr), *bytes)))
            return failure();
    } else if (auto packet = dyn_cast<PacketOp>(op)) {
      std::optional<uint64_t> bytes = denseBytes(packet.getMarker().getType());
      if (bytes &&
          failed(inside(packet, "marker area", packet.getMarkerAddr(), *bytes)))
        return failure();
      for (auto block : packet.getBody().front().getOps<BlockOp>())
        if (failed(inside(block, "block '" + block.getName() + "'",
                          block.getAddr(), block.getBytes())))
          return failure();
    }
  }
  return success();
}

LogicalResult ProgramOp::verify() {
  if (failed(verifyDramExtents(*this)))
    return failure();
  std::set<std::pair<int32_t, int32_t>> seen;
  for (auto c : getBody().front().getOps<ClusterOp>()) {
    if (c.getRow() >= getRows() || c.getCol() >= getCols()) // unsigned
      return c.emitOpError("cluster (")
             << c.getRow() << ", " << c.getCol() << ") is outside the "
             << getRows() << "x" << getCols() << " grid";
    if (!seen.insert({c.getRow(), c.getCol()}).second)
      return c.emitOpError("duplicate stream for cluster (")
             << c.getRow() << ", " << c.getCol() << ")";
  }
  // One constant packet per core.
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> cores;
  for (auto packet : getBody().front().getOps<PacketOp>()) {
    ClusterAttr c = packet.getCluster();
    if (failed(checkInGrid(packet, "cluster", c)))
      return failure();
    if (!cores.insert({c.getRow(), c.getCol(), packet.getCore()}).second)
      return packet.emitOpError("duplicate packet for core ")
             << packet.getCore() << " of cluster (" << c.getRow() << ", "
             << c.getCol() << ")";
  }
  return success();
}

LogicalResult ConfigOp::verify() {
  if (failed(checkRange(*this, "ibuf", getIbuf(), kNumIbufs)))
    return failure();
  if (getBody().front().empty())
    return emitOpError("instruction sequence is empty");
  return success();
}

LogicalResult ExecuteOp::verify() {
  return checkRange(*this, "ibuf", getIbuf(), kNumIbufs);
}

LogicalResult RecurOp::verify() {
  if (failed(checkRange(*this, "tag", getTag(), kNumTags)))
    return failure();
  if (getEp() < 1 || !llvm::isPowerOf2_32(getEp()))
    return emitOpError("ep must be a power of two, got ") << getEp();
  for (auto [name, v] : {std::pair<StringRef, uint32_t>{"hidden", getHidden()},
                         {"inputs", getInputs()},
                         {"steps", getSteps()},
                         {"vp", getVp()},
                         {"candidate_vp", getCandidateVp()}})
    if (v < 1)
      return emitOpError() << name << " must be >= 1";
  if (getActivations().size() != 3 || getAlpha().size() != 3 ||
      getBeta().size() != 3)
    return emitOpError("activations, alpha and beta hold three entries "
                       "(f, g, h)");
  for (Attribute a : getActivations()) {
    StringRef name = cast<StringAttr>(a).getValue();
    if (!accel::recurActNamed(name))
      return emitOpError("unknown recurrent activation '") << name << "'";
  }
  if (getInputForget() && getCell() != isa::RecurCell::lstm)
    return emitOpError("input_forget applies to an LSTM only");
  if (getPeepholes() && getCell() != isa::RecurCell::lstm)
    return emitOpError("peepholes apply to an LSTM only");
  if (getLinearBeforeReset() && getCell() != isa::RecurCell::gru)
    return emitOpError("linear_before_reset applies to a GRU only");
  return success();
}

LogicalResult DmaOp::verify() {
  size_t n = getShape().size();
  if (n < 1 || n > 4)
    return emitOpError("shape must have 1 to 4 dimensions");
  if (getSrcStrides().size() != n || getDstStrides().size() != n)
    return emitOpError("shape and both stride lists must have the same length");
  for (int64_t d : getShape())
    if (d < 1)
      return emitOpError("shape extents must be >= 1");
  if (getElemBytes() != 1 && getElemBytes() != 2 && getElemBytes() != 4)
    return emitOpError("elem_bytes must be 1, 2 or 4");
  if (failed(checkRange(*this, "tag", getTag(), kNumTags)))
    return failure();
  std::optional<ClusterAttr> from = getSrcCluster();
  if (getDir() != DmaDir::remote_load) {
    if (from)
      return emitOpError("only remote_load reads another cluster (")
             << stringifyDmaDir(getDir()) << " has no source cluster)";
    return success();
  }
  if (!from)
    return emitOpError("remote_load needs a source cluster: remote_load from "
                       "(row, col)");
  if (failed(checkInGrid(*this, "source cluster", *from)))
    return failure();
  auto own = (*this)->getParentOfType<ClusterOp>();
  if (own && own.getRow() == from->getRow() && own.getCol() == from->getCol())
    return emitOpError("remote_load reads its own cluster (")
           << from->getRow() << ", " << from->getCol()
           << "); a SEND to itself copies inside the storage unit";
  return success();
}

LogicalResult WaitOp::verify() {
  for (int32_t t : getTags())
    if (failed(checkRange(*this, "tag", t, kNumTags)))
      return failure();
  return success();
}

LogicalResult LdOp::verify() {
  if (failed(checkRange(*this, "slot", getSlot(), kNumSlots)))
    return failure();
  if (getStream() == LoadStream::psums &&
      failed(checkRange(*this, "accumulation buffer", getSlot(), kNumAccs)))
    return failure();
  if (getStream() == LoadStream::sparse_weights && getOperands().getDepth() < 1)
    return emitOpError("LD sparse_weights needs depth (dense rows K) >= 1");
  RecordUse use;
  use.peAddrs =
      getStream() == LoadStream::acts || getStream() == LoadStream::psums;
  return checkRecord(*this, getOperands(), use);
}

LogicalResult MacOp::verify() {
  if (failed(checkRange(*this, "slot", getSlot(), kNumSlots)) ||
      failed(checkRange(*this, "acc", getAcc(), kNumAccs)))
    return failure();
  if (getOperands().getDepth() < 1)
    return emitOpError("MAC needs depth (K) >= 1");
  RecordUse use;
  use.base = true;
  return checkRecord(*this, getOperands(), use);
}

LogicalResult StOp::verify() {
  if (failed(checkRange(*this, "slot", getSlot(), kNumSlots)) ||
      failed(checkRange(*this, "acc", getAcc(), kNumAccs)))
    return failure();
  RecordUse use;
  use.peAddrs = true;
  return checkRecord(*this, getOperands(), use);
}

LogicalResult SpuOp::verify() {
  if (failed(checkRange(*this, "in slot", getInSlot(), kNumSlots)) ||
      failed(checkRange(*this, "out slot", getOutSlot(), kNumSlots)))
    return failure();
  if (getType() == SpuType::binary &&
      failed(checkRange(*this, "second slot (depth)", getOperands().getDepth(),
                        kNumSlots)))
    return failure();
  RecordUse use;
  use.acrossPes = getType() == SpuType::reduce;
  return checkRecord(*this, getOperands(), use);
}

//===----------------------------------------------------------------------===//
// Layer table
//===----------------------------------------------------------------------===//

LogicalResult LayerAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                StringRef name, StringRef, uint64_t,
                                uint64_t compulsoryBytes, uint64_t weightBytes,
                                ArrayAttr fused, DenseI64ArrayAttr inputs,
                                ArrayAttr inputSymbols, ArrayAttr outputSymbols,
                                uint64_t) {
  if (weightBytes > compulsoryBytes)
    return emitError() << "layer '" << name << "': weight_bytes " << weightBytes
                       << " exceed compulsory_bytes " << compulsoryBytes
                       << " (weights are part of them)";
  for (auto [field, list] : {std::pair<StringRef, ArrayAttr>{"fused", fused},
                             {"input_symbols", inputSymbols},
                             {"output_symbols", outputSymbols}})
    if (list)
      for (Attribute a : list)
        if (!llvm::isa<StringAttr>(a))
          return emitError() << "layer '" << name << "': " << field
                             << " must list names (strings), got " << a;
  for (int64_t i : inputs ? inputs.asArrayRef() : ArrayRef<int64_t>())
    if (i < 0)
      return emitError() << "layer '" << name
                         << "': inputs are layer indices, got " << i;
  return success();
}

LogicalResult accel::isa::verifyLayerIndex(Operation *op) {
  auto layer = op->getAttrOfType<IntegerAttr>("layer");
  if (!layer)
    return success();
  auto prog = op->getParentOfType<ProgramOp>();
  ArrayAttr table = prog ? prog.getLayersAttr() : ArrayAttr();
  int64_t n = table ? int64_t(table.size()) : 0;
  int64_t v = layer.getValue().getZExtValue();
  if (v >= n)
    return op->emitOpError("layer ")
           << v << " is out of range: the program's layer table has " << n
           << (n == 1 ? " entry" : " entries");
  return success();
}

/// `[\n #isa.layer<...>,\n ...\n]`: the layer table, one entry per line.
static ParseResult parseLayerTable(OpAsmParser &parser, ArrayAttr &out) {
  SmallVector<Attribute> items;
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square,
                                     [&]() -> ParseResult {
                                       LayerAttr layer;
                                       if (parser.parseAttribute(layer))
                                         return failure();
                                       items.push_back(layer);
                                       return success();
                                     }))
    return failure();
  out = parser.getBuilder().getArrayAttr(items);
  return success();
}
static void printLayerTable(OpAsmPrinter &p, Operation *, ArrayAttr layers) {
  p << "[";
  p.increaseIndent();
  for (auto [i, a] : llvm::enumerate(layers)) {
    p.printNewline();
    p.printAttribute(a);
    if (i + 1 < layers.size())
      p << ",";
  }
  p.decreaseIndent();
  if (!layers.empty())
    p.printNewline();
  p << "]";
}

//===----------------------------------------------------------------------===//
// DRAM pieces and constant replicas
//===----------------------------------------------------------------------===//

/// `[[lo, hi) at addr, ...]`: the pieces of an isa.io tensor as half-open
/// byte ranges of its image (the stripped #isa.piece list).
static ParseResult parseDramPieces(OpAsmParser &parser, ArrayAttr &out) {
  SmallVector<Attribute> items;
  auto piece = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    uint64_t lo, hi, addr;
    if (parser.parseLSquare() || parser.parseInteger(lo) ||
        parser.parseComma() || parser.parseInteger(hi) ||
        parser.parseRParen() || parser.parseKeyword("at") ||
        parser.parseInteger(addr))
      return failure();
    if (hi < lo)
      return parser.emitError(loc, "piece [")
             << lo << ", " << hi << ") ends before it begins";
    items.push_back(DramPieceAttr::get(parser.getContext(), lo, hi - lo, addr));
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, piece))
    return failure();
  out = parser.getBuilder().getArrayAttr(items);
  return success();
}
static void printDramPieces(OpAsmPrinter &p, Operation *, ArrayAttr pieces) {
  p << "[";
  llvm::interleaveComma(pieces, p, [&](Attribute a) {
    auto piece = cast<DramPieceAttr>(a);
    // The end in 72 bits: an invalid piece (the verifier names it) may
    // reach past 2^64.
    llvm::APInt end = llvm::APInt(72, piece.getOffset()) + piece.getBytes();
    p << "[" << piece.getOffset() << ", ";
    end.print(p.getStream(), /*isSigned=*/false);
    p << ") at " << piece.getAddr();
  });
  p << "]";
}

LogicalResult IoOp::verify() {
  ArrayAttr pieces = getPiecesAttr();
  if (!pieces)
    return success();
  if (pieces.empty())
    return emitOpError("pieces must not be empty (a dense tensor has none)");
  for (auto [i, a] : llvm::enumerate(pieces)) {
    auto piece = cast<DramPieceAttr>(a);
    if (piece.getBytes() > UINT64_MAX - piece.getOffset())
      return emitOpError("piece ")
             << i << " (offset " << piece.getOffset() << ", "
             << piece.getBytes() << " bytes) ends past 2^64";
  }
  return success();
}

LogicalResult DataOp::verify() {
  if (auto replicas = getReplicasAttr(); replicas && replicas.empty())
    return emitOpError("replicas must not be empty (omit them for one copy)");
  return success();
}

//===----------------------------------------------------------------------===//
// Mesh commands and constant packets
//===----------------------------------------------------------------------===//

/// `(row, col)`: a cluster inside a mesh op (the stripped #isa.cluster).
static ParseResult parseClusterCoord(OpAsmParser &parser, ClusterAttr &out) {
  uint32_t row, col;
  if (parser.parseLParen() || parser.parseInteger(row) || parser.parseComma() ||
      parser.parseInteger(col) || parser.parseRParen())
    return failure();
  out = ClusterAttr::get(parser.getContext(), row, col);
  return success();
}
static void printClusterCoord(OpAsmPrinter &p, Operation *, ClusterAttr c) {
  p << "(" << c.getRow() << ", " << c.getCol() << ")";
}

/// `[(r, c), (r, c), ...]`: SEND / SIGNAL targets.
static ParseResult parseClusterList(OpAsmParser &parser, ArrayAttr &out) {
  SmallVector<Attribute> items;
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square,
                                     [&]() -> ParseResult {
                                       ClusterAttr c;
                                       if (parseClusterCoord(parser, c))
                                         return failure();
                                       items.push_back(c);
                                       return success();
                                     }))
    return failure();
  out = parser.getBuilder().getArrayAttr(items);
  return success();
}
static void printClusterList(OpAsmPrinter &p, Operation *op, ArrayAttr list) {
  p << "[";
  llvm::interleaveComma(list, p, [&](Attribute a) {
    printClusterCoord(p, op, cast<ClusterAttr>(a));
  });
  p << "]";
}

LogicalResult SendOp::verify() {
  if (failed(checkTargets(*this, getTargets())) ||
      failed(checkRange(*this, "sem", getSem(), accel::kNumSemaphores)) ||
      failed(checkRange(*this, "tag", getTag(), kNumTags)))
    return failure();
  if (getBytes() == 0)
    return emitOpError("bytes must be > 0");
  return success();
}

LogicalResult SignalOp::verify() {
  if (failed(checkTargets(*this, getTargets())))
    return failure();
  return checkRange(*this, "sem", getSem(), accel::kNumSemaphores);
}

LogicalResult RecvOp::verify() {
  if (failed(checkRange(*this, "sem", getSem(), accel::kNumSemaphores)))
    return failure();
  if (getCount() < 1)
    return emitOpError("count must be >= 1");
  return success();
}

#define GET_OP_CLASSES
#include "Isa/IsaOps.cpp.inc"
