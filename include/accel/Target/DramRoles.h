//===- DramRoles.h - What the DRAM bytes of a program hold ------*- C++ -*-===//
//
// Pure C++ (no MLIR): spill accounting (docs/passes.md, "On-chip
// residency"). A DRAM byte of a program belongs to a network input or output
// symbol (every piece of it), to constant data (a segment, its replicas, a
// constant packet's marker area) or, otherwise, to an intermediate: a tensor
// the program writes and reads back that did not stay in a storage unit. The
// DRAM bytes DMAs move for intermediates are the program's spills.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TARGET_DRAMROLES_H
#define ACCEL_TARGET_DRAMROLES_H

#include "accel/Target/Program.h"
#include <cstdint>
#include <map>

namespace accel {

enum class DramRole : uint8_t { Input, Output, Constant, Intermediate };

class DramRoleMap {
public:
  explicit DramRoleMap(const Program &p);

  /// The role of the bytes [lo, hi): that of the first input, output or
  /// constant range it overlaps, Intermediate when it overlaps none.
  DramRole roleOf(uint64_t lo, uint64_t hi) const;

  /// DRAM bytes `d` moves for intermediates (its DRAM sides whose bounding
  /// range is Intermediate; a DRAM copy counts each side). 0 for local
  /// copies and remote loads.
  uint64_t spillBytes(const DmaDesc &d) const;

private:
  /// start -> (end, role), disjoint ranges of the symbols and constants.
  std::map<uint64_t, std::pair<uint64_t, DramRole>> ranges_;
  void add(uint64_t lo, uint64_t hi, DramRole r);
};

} // namespace accel

#endif
