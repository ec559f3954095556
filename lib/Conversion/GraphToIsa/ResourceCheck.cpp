//===- ResourceCheck.cpp - What cannot fit, refused before lowering -------===//
#include "ResourceCheck.h"

#include "Graph/GraphDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

using namespace mlir;

namespace accel::lowering {
namespace {

/// Every value is held as 4-byte words in DRAM (i1 / i64 as f32), each
/// buffer aligned to 64 bytes like the lowering's allocator.
constexpr uint64_t kWordBytes = 4, kBufferAlign = 64;

/// Bytes of a statically shaped tensor; nullopt if not one, or on overflow.
std::optional<uint64_t> tensorBytes(Type type) {
  auto t = dyn_cast<RankedTensorType>(type);
  if (!t || !t.hasStaticShape())
    return std::nullopt;
  uint64_t bytes = kWordBytes;
  for (int64_t d : t.getShape())
    if (d < 0 || __builtin_mul_overflow(bytes, uint64_t(d), &bytes))
      return UINT64_MAX;
  return bytes;
}

uint64_t aligned(uint64_t bytes) {
  return bytes > UINT64_MAX - kBufferAlign
             ? UINT64_MAX
             : (std::max<uint64_t>(bytes, kWordBytes) + kBufferAlign - 1) /
                   kBufferAlign * kBufferAlign;
}

uint64_t saturatingAdd(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t saturatingMul(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/// A value whose single tensor cannot be in DRAM.
/// (Errors are reported at a location, so the whole function is not
/// printed with them.)
LogicalResult checkTensorFits(Location where, StringRef what, Type type,
                              const HardwareDesc &hw) {
  auto bytes = tensorBytes(type);
  if (!bytes || *bytes <= hw.dramBytes)
    return success();
  auto diag = emitError(where) << what << " " << type << " needs ";
  if (*bytes == UINT64_MAX)
    diag << "more than 2^64";
  else
    diag << *bytes;
  return diag << " bytes of DRAM, more than the hardware description's "
                 "dram_bytes ("
              << hw.dramBytes << ")";
}

/// Commands an SFU layer over `elements` outputs with `inputs` operands
/// needs at least: three per storage-sized tile.
uint64_t layerCommands(uint64_t elements, uint64_t inputs,
                       const HardwareDesc &hw) {
  uint64_t bytes = saturatingMul(elements, kWordBytes * (inputs + 1));
  uint64_t tiles =
      std::max<uint64_t>(1, bytes / std::max<uint64_t>(hw.storageBytes, 1) + 1);
  return saturatingMul(tiles, 3);
}

/// Lower bound of the commands `op` lowers to (0 for ops not estimated).
uint64_t estimateCommands(Operation *op, const HardwareDesc &hw) {
  auto pool = dyn_cast<graph::Pool2DOp>(op);
  if (!pool)
    return 0;
  auto out = cast<RankedTensorType>(pool.getResult().getType());
  if (!out.hasStaticShape())
    return 0;
  uint64_t positions = 1;
  for (int64_t k : pool.getKernel())
    positions = saturatingMul(positions, uint64_t(std::max<int64_t>(k, 1)));
  return saturatingMul(positions,
                       layerCommands(uint64_t(out.getNumElements()), 2, hw));
}

/// The padded input a pooling op copies its input into.
LogicalResult checkPoolPadding(graph::Pool2DOp op, const HardwareDesc &hw) {
  auto in = cast<RankedTensorType>(op.getInput().getType());
  if (!in.hasStaticShape() || in.getRank() != 4)
    return success();
  auto pads = op.getPads(); // [top, left, bottom, right]
  if (pads.size() != 4)
    return success(); // the verifier reports it
  SmallVector<int64_t> padded(in.getShape());
  for (int i = 0; i < 2; ++i)
    if (__builtin_add_overflow(padded[2 + i], pads[i], &padded[2 + i]) ||
        __builtin_add_overflow(padded[2 + i], pads[i + 2], &padded[2 + i]))
      padded[2 + i] = INT64_MAX / 8;
  return checkTensorFits(op.getLoc(), "the padded input of this pooling",
                         RankedTensorType::get(padded, in.getElementType()),
                         hw);
}

/// The source buffer of a value (reshapes alias their input).
Value bufferOf(Value v) {
  while (auto r = v.getDefiningOp<graph::ReshapeOp>())
    v = r.getInput();
  return v;
}

} // namespace

LogicalResult checkResourcesUpFront(func::FuncOp func, const HardwareDesc &hw) {
  Block &body = func.getBody().front();
  llvm::DenseSet<Value> placed; // inputs, constants, outputs
  uint64_t placedBytes = 0;
  auto place = [&](Value v) {
    v = bufferOf(v);
    auto bytes = tensorBytes(v.getType());
    if (bytes && placed.insert(v).second)
      placedBytes = saturatingAdd(placedBytes, aligned(*bytes));
  };
  for (BlockArgument arg : body.getArguments()) {
    if (failed(checkTensorFits(func.getLoc(),
                               "input #" + std::to_string(arg.getArgNumber()),
                               arg.getType(), hw)))
      return failure();
    place(arg);
  }
  uint64_t commands = 0;
  for (Operation &op : body) {
    for (Value r : op.getResults())
      if (failed(checkTensorFits(op.getLoc(), "result", r.getType(), hw)))
        return failure();
    if (auto pool = dyn_cast<graph::Pool2DOp>(op))
      if (failed(checkPoolPadding(pool, hw)))
        return failure();
    if (isa<arith::ConstantOp>(op))
      place(op.getResult(0));
    if (isa<func::ReturnOp>(op))
      for (Value v : op.getOperands())
        place(v);
    commands = saturatingAdd(commands, estimateCommands(&op, hw));
    if (commands > kMaxProgramCommands)
      return emitError(op.getLoc(), "the program would need more than ")
             << kMaxProgramCommands
             << " commands (the compiler's limit on the program size); "
                "this op alone needs at least "
             << estimateCommands(&op, hw);
  }
  if (placedBytes > hw.dramBytes)
    return emitError(func.getLoc(), "inputs, constants and outputs need ")
           << placedBytes
           << " bytes of DRAM together, more than the hardware "
              "description's dram_bytes ("
           << hw.dramBytes << ")";
  return success();
}

} // namespace accel::lowering
