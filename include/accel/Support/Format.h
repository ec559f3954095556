//===- Format.h - Figures as the tools print them ---------------*- C++ -*-===//
#ifndef ACCEL_SUPPORT_FORMAT_H
#define ACCEL_SUPPORT_FORMAT_H

#include <cstdint>
#include <string>

namespace accel {

/// "123 B", "2048 B (2.0 KiB)", "3145728 B (3.00 MiB)": the exact count
/// and, from a KiB on, its size in KiB or MiB (accel-run's summary, the
/// HTML report).
std::string formatBytes(uint64_t b);

} // namespace accel

#endif
