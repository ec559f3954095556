//===- IsaProgram.h - ISA dialect <-> accel::Program ------------*- C++ -*-===//
//
// programFromIsa: the compiler's last step before the binary writer. Every
// isa op maps 1:1 onto a Program field; instruction fields are checked by
// encoding them (Encoding.h). Errors are emitted as MLIR diagnostics on the
// offending op.
//
// isaFromProgram: the disassembler. It rebuilds a module holding one
// isa.program whose printed form is the canonical ISA text:
//  - isa.io ops (symbol order), then isa.data ops (segment order), then
//    isa.packet ops (packet order), then one isa.cluster per cluster of the
//    grid in row-major order (empty streams included);
//  - isa.data holds `dense<...> : tensor<Nxf32>` when the segment's byte count
//    is a non-zero multiple of 4 (little-endian f32 words, bit exact), else
//    `tensor<Nxi8>`;
//  - DMA shapes are printed with their leading dimensions of extent 1 and
//    zero strides dropped (at least one dimension is kept); programFromIsa
//    right-aligns shorter lists into the 4-D descriptor (index 3 innermost),
//    padding with extent 1 / stride 0;
//  - WAIT tags are printed in ascending order;
//  - clusters (SEND / SIGNAL targets, the remote_load source, a packet's
//    cluster) print as (row, col); the Program holds row-major indices;
//  - packet markers print as i64 words when their byte count is a non-zero
//    multiple of 8, else as i8;
//  - operand-record fields equal to their defaults are omitted (imm 0.0).
// Canonical text therefore round-trips exactly: text -> Program -> text.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TARGET_ISAPROGRAM_H
#define ACCEL_TARGET_ISAPROGRAM_H

#include "Isa/IsaDialect.h"
#include "accel/Target/Program.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace accel {

/// Fills `out` from an isa.program. On error emits a diagnostic on the
/// offending op and returns failure. With `borrowData` the constant
/// segments point into the isa.data attributes instead of copying them
/// (weights are most of a program): the caller keeps the MLIRContext alive
/// as long as it uses `out`.
mlir::LogicalResult programFromIsa(isa::ProgramOp op, Program &out,
                                   bool borrowData = false);

/// Disassembles `p` into a new module with one isa.program. Loads the ISA
/// dialect into `ctx`. Values the ISA cannot represent (e.g. an instruction
/// that does not encode) are still built; run the verifier to detect them.
mlir::OwningOpRef<mlir::ModuleOp> isaFromProgram(const Program &p,
                                                 mlir::MLIRContext *ctx);

/// As above, but the module takes `p`'s large owned constant segments (their
/// bytes move into resource blobs the context owns, not copied into dense
/// attributes); `p`'s segments are left empty of bytes.
mlir::OwningOpRef<mlir::ModuleOp> isaFromProgram(Program &&p,
                                                 mlir::MLIRContext *ctx);

} // namespace accel

#endif
