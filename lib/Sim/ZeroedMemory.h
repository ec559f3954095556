//===- ZeroedMemory.h - Host memory that starts as zeros, untouched -*- C++
//-*-===//
//
// The simulated memories start zeroed (DRAM pages, storage units, PE
// buffers). Allocating them with std::vector / new + memset writes every
// byte once before the program does, and makes the kernel fault in every
// page. Anonymous mappings are zero already: the kernel supplies a zero
// page at the first touch of each 4 KiB page, so a buffer costs only the
// pages the program really uses and nothing is zeroed twice. Internal to
// lib/Sim.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_SIM_ZEROEDMEMORY_H
#define ACCEL_LIB_SIM_ZEROEDMEMORY_H

#include "accel/Support/HugePageAllocator.h"

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include <sys/mman.h>

namespace accel {
namespace sim {

/// Zero-initialised blocks carved, in allocation order, from 2 MiB chunks
/// of anonymous memory (blocks of 512 KiB or more get their own mapping);
/// everything is unmapped when the arena goes (or at clear()).
///
/// The first chunks (setHugeChunks) may be transparent huge pages: one
/// fault and one 2 MiB clear instead of up to 512 faults and clears of
/// 4 KiB. The simulated DRAM puts every chunk on huge pages: its pages are
/// written densely (the FPN detector's peak RSS is 309 MB either way), so a
/// huge page clears what the small pages would have cleared, minus the
/// faults. Where a fault costs about 10 us (a paravirtualised guest), that
/// took ResNet-50's simulation from 184 to 110 ms and the FPN detector's
/// from 1 063 to 769 ms (least of 6 and 4 runs). The tenth round, on another
/// host, had measured the FPN detector 5-10 % slower with every chunk on huge
/// pages (36 % of the run in clear_page) and kept the first 16 MiB only
/// (docs/simulator.md, "Tenth round" and "Fifteenth round").
class ZeroedArena {
public:
  ZeroedArena() = default;
  ZeroedArena(const ZeroedArena &) = delete;
  ZeroedArena &operator=(const ZeroedArena &) = delete;
  ~ZeroedArena() { clear(); }

  /// `bytes` zero bytes, aligned to 64 bytes (blocks of at least a chunk
  /// get their own mapping). Throws std::bad_alloc when the host has no
  /// address space left.
  void *alloc(size_t bytes) {
    bytes = (bytes + 63) & ~size_t(63);
    if (bytes == 0)
      bytes = 64;
    if (bytes <= reserveLeft) {
      void *p = reserveNext;
      reserveNext += bytes;
      reserveLeft -= bytes;
      return p;
    }
    if (bytes >= kChunk / 4)
      return map(bytes);
    if (left < bytes) {
      next = static_cast<uint8_t *>(map(kChunk));
      left = kChunk;
    }
    void *p = next;
    next += bytes;
    left -= bytes;
    return p;
  }

  /// The next `chunks` chunks are mapped on transparent huge pages where
  /// the host has them.
  void setHugeChunks(unsigned chunks) { hugeLeft = chunks; }

  /// One region of `bytes` (rounded up to whole 2 MiB pages) on transparent
  /// huge pages where the host has them; the next blocks are carved from it
  /// while they fit (each rounded up to 64 bytes, as alloc). For memories
  /// the program uses densely (the storage units and PE buffers): a fault
  /// per 2 MiB instead of per 4 KiB, which a host whose faults cost about
  /// 10 us each (a paravirtualised guest) pays in milliseconds per run
  /// (docs/simulator.md, "Fourteenth round").
  void reserveHuge(size_t bytes) {
    bytes = (bytes + kChunk - 1) & ~(kChunk - 1);
    if (bytes == 0)
      return;
    reserveNext = static_cast<uint8_t *>(hugepages::allocate(bytes));
    reserveLeft = bytes;
    maps.push_back({reserveNext, bytes, true});
  }

  /// Unmaps every block.
  void clear() {
    for (const Mapping &m : maps)
      if (m.huge)
        hugepages::deallocate(m.addr, m.bytes);
      else
        ::munmap(m.addr, m.bytes);
    maps.clear();
    next = reserveNext = nullptr;
    left = reserveLeft = 0;
  }

private:
  static constexpr size_t kChunk = size_t(2) << 20;
  struct Mapping {
    void *addr;
    size_t bytes;
    bool huge;
  };
  void *map(size_t bytes) {
    if (bytes == kChunk && hugeLeft > 0) {
      --hugeLeft;
      void *p = hugepages::allocate(bytes);
      maps.push_back({p, bytes, true});
      return p;
    }
    void *p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      throw std::bad_alloc();
    maps.push_back({p, bytes, false});
    return p;
  }
  std::vector<Mapping> maps;
  uint8_t *next = nullptr;
  size_t left = 0;
  uint8_t *reserveNext = nullptr; ///< reserveHuge's region
  size_t reserveLeft = 0;
  unsigned hugeLeft = 0;
};

/// A fixed-size array in arena memory (not owning it), with the parts of
/// the std::vector interface the simulator uses.
template <typename T> class ZeroedArray {
public:
  /// `n` zero elements from `arena`.
  void allocate(ZeroedArena &arena, size_t n) {
    p = n ? static_cast<T *>(arena.alloc(n * sizeof(T))) : nullptr;
    count = n;
  }
  /// The `n` elements at `at`, part of a larger array allocated with
  /// allocate() (several buffers in one block).
  void view(T *at, size_t n) {
    p = at;
    count = n;
  }
  T *data() { return p; }
  const T *data() const { return p; }
  size_t size() const { return count; }
  bool empty() const { return count == 0; }
  T *begin() { return p; }
  T *end() { return p + count; }
  const T *begin() const { return p; }
  const T *end() const { return p + count; }
  T &operator[](size_t i) { return p[i]; }
  const T &operator[](size_t i) const { return p[i]; }

private:
  T *p = nullptr;
  size_t count = 0;
};

} // namespace sim
} // namespace accel

#endif
