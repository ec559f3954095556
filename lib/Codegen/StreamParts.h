//===- StreamParts.h - DMA commands replaced by their parts ----*- C++ -*-===//
//
// Private to lib/Codegen: residency (Residency.cpp) and the channel split
// (ChannelSplit.cpp) replace some DMAs of a command stream by several
// commands, one per part of the box. The parts are found first and the new
// stream is then built at its final size: grown command by command, the
// FPN detector's 205 k commands (248 bytes each) doubled their vector's
// capacity and held three copies at a reallocation, about half of the
// compile's peak memory.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_CODEGEN_STREAMPARTS_H
#define ACCEL_LIB_CODEGEN_STREAMPARTS_H

#include "accel/Target/Program.h"

#include <utility>
#include <vector>

namespace accel::codegen::detail {

/// For every command of `stream` for which `partsOf(command, parts)`
/// returns true, one copy of the command per DMA in `parts` (its `dma`
/// replaced), in order; the other commands stay. A stream with nothing to
/// replace is left as it is.
template <typename PartsOf>
void replaceByParts(CommandList &stream, PartsOf &&partsOf) {
  std::vector<std::pair<size_t, std::vector<DmaDesc>>> replaced;
  std::vector<DmaDesc> parts;
  size_t total = 0;
  for (size_t i = 0; i < stream.size(); ++i) {
    if (!partsOf(stream[i], parts)) {
      ++total;
      continue;
    }
    total += parts.size();
    replaced.emplace_back(i, parts);
  }
  if (replaced.empty())
    return;
  CommandList out;
  out.reserve(total);
  size_t next = 0;
  for (size_t i = 0; i < stream.size(); ++i) {
    if (next == replaced.size() || replaced[next].first != i) {
      out.push_back(std::move(stream[i]));
      continue;
    }
    for (const DmaDesc &d : replaced[next].second) {
      out.push_back(stream[i]);
      out.back().dma = d;
    }
    ++next;
  }
  stream = std::move(out);
}

} // namespace accel::codegen::detail

#endif
