//===- Utf8.h - Names that must be UTF-8 ------------------------*- C++ -*-===//
//
// The binary's names (layers, fused operators, symbols, packet blocks) are
// UTF-8 (docs/binary-format.md): stats.json, the trace and the report print
// them, and a JSON writer cannot print bytes that are not UTF-8. An ONNX
// node name is any byte string, so the writer and the reader both check.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_SUPPORT_UTF8_H
#define ACCEL_SUPPORT_UTF8_H

#include <string>
#include <string_view>

namespace accel {

/// Whether `s` is well-formed UTF-8 (no overlong forms, no surrogates,
/// nothing above U+10FFFF).
bool isValidUtf8(std::string_view s);

/// `s` with every byte that is not part of a well-formed UTF-8 sequence
/// written as \xHH, and backslashes as \\ (for error messages).
std::string escapeInvalidUtf8(std::string_view s);

} // namespace accel

#endif
