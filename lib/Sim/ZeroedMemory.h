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

  /// Unmaps every block.
  void clear() {
    for (auto &m : maps)
      ::munmap(m.first, m.second);
    maps.clear();
    next = nullptr;
    left = 0;
  }

private:
  static constexpr size_t kChunk = size_t(2) << 20;
  /// A mapping of at least `bytes`, its start aligned to 2 MiB and
  /// advised for transparent huge pages: a chunk the program fills faults
  /// once instead of 512 times (where THP is off the advice is ignored).
  void *map(size_t bytes) {
    const size_t len = bytes + kHuge; // room to align the start
    void *p = ::mmap(nullptr, len, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      throw std::bad_alloc();
    maps.push_back({p, len});
    auto *a = reinterpret_cast<uint8_t *>(
        (reinterpret_cast<uintptr_t>(p) + kHuge - 1) & ~uintptr_t(kHuge - 1));
    ::madvise(a, bytes, MADV_HUGEPAGE);
    return a;
  }
  static constexpr size_t kHuge = size_t(2) << 20;
  std::vector<std::pair<void *, size_t>> maps;
  uint8_t *next = nullptr;
  size_t left = 0;
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
