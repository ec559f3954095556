//===- Format.cpp - Figures as the tools print them -----------------------===//
#include "accel/Support/Format.h"

#include <cstdio>

namespace accel {

std::string formatBytes(uint64_t b) {
  char buf[64];
  if (b >= (1ull << 20))
    std::snprintf(buf, sizeof buf, "%llu B (%.2f MiB)", (unsigned long long)b,
                  double(b) / (1 << 20));
  else if (b >= 1024)
    std::snprintf(buf, sizeof buf, "%llu B (%.1f KiB)", (unsigned long long)b,
                  double(b) / 1024);
  else
    std::snprintf(buf, sizeof buf, "%llu B", (unsigned long long)b);
  return buf;
}

} // namespace accel
