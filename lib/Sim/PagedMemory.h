//===- PagedMemory.h - Simulated DRAM allocated on first touch ---*- C++
//-*-===//
//
// A binary's header states how much DRAM it uses; a corrupt or hostile one
// can claim gigabytes while touching a few bytes. The simulator's DRAM is
// therefore a sparse map of fixed-size pages, each allocated (zeroed) the
// first time it is written: host memory follows the bytes the program
// touches, and reading an untouched byte gives 0 as before.
//
// The simulator's data lanes (DataLanes.h) read and write it from several
// host threads at once, never the same bytes at the same time (a lane waits
// for the others' conflicting accesses), but possibly the same page: the
// page table is a two-level radix table whose entries are published with
// atomics, and a page's first write (allocation, or its copy on write)
// happens under a mutex, once. Internal to lib/Sim.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_SIM_PAGEDMEMORY_H
#define ACCEL_LIB_SIM_PAGEDMEMORY_H

#include "ZeroedMemory.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>

namespace accel {
namespace sim {

class PagedMemory {
public:
  static constexpr unsigned kPageBits = 16; ///< 64 KiB pages
  static constexpr uint64_t kPageBytes = uint64_t(1) << kPageBits;
  /// Every chunk of pages on huge pages (ZeroedArena says why).
  static constexpr unsigned kHugeChunks = ~0u;

  /// Forgets every page; the memory is `size` zero bytes (at most 2^48).
  void reset(uint64_t size) {
    size_ = size;
    arena_.clear();
    arena_.setHugeChunks(kHugeChunks);
    touched_.store(0, std::memory_order_relaxed);
    const uint64_t pages = (size + kPageBytes - 1) >> kPageBits;
    const uint64_t leaves = (pages + kLeafPages - 1) >> kLeafBits;
    // Zeroed memory: every leaf pointer starts null (no page touched).
    top_ = static_cast<std::atomic<Page *> *>(
        arena_.alloc(std::max<uint64_t>(leaves, 1) * sizeof(Page *)));
  }
  uint64_t size() const { return size_; }
  /// Pages written so far (own host memory, or shared with the caller's
  /// bytes by writeShared()).
  size_t pagesTouched() const {
    return touched_.load(std::memory_order_relaxed);
  }

  /// Copies [addr, addr + n) into `dst`; untouched bytes read as 0. The
  /// caller has checked the range against size().
  void read(uint64_t addr, void *dst, size_t n) const {
    auto *out = static_cast<uint8_t *>(dst);
    while (n) {
      size_t chunk = chunkAt(addr, n);
      if (const uint8_t *pg = find(addr >> kPageBits))
        std::memcpy(out, pg + (addr & (kPageBytes - 1)), chunk);
      else
        std::memset(out, 0, chunk);
      out += chunk;
      addr += chunk;
      n -= chunk;
    }
  }

  /// Copies `src` to [addr, addr + n), allocating the pages it touches.
  void write(uint64_t addr, const void *src, size_t n) {
    auto *in = static_cast<const uint8_t *>(src);
    while (n) {
      size_t chunk = chunkAt(addr, n);
      std::memcpy(touch(addr >> kPageBits) + (addr & (kPageBytes - 1)), in,
                  chunk);
      in += chunk;
      addr += chunk;
      n -= chunk;
    }
  }

  /// As write(), but every whole page of [addr, addr + n) reads `src`'s
  /// bytes in place instead of a copy; the page gets its own copy at its
  /// first write. `src` must stay unchanged while this memory is used (the
  /// simulator shares the program's constant segments so). Before the run
  /// only (not concurrent with other accesses).
  void writeShared(uint64_t addr, const void *src, size_t n) {
    auto *in = static_cast<const uint8_t *>(src);
    while (n) {
      size_t chunk = chunkAt(addr, n);
      if (chunk == kPageBytes) {
        Page &pg = entry(addr >> kPageBits);
        if (!pg.own.load(std::memory_order_relaxed) && !pg.shared)
          touched_.fetch_add(1, std::memory_order_relaxed);
        // (a page's own host memory stays in the arena, unused)
        pg.own.store(nullptr, std::memory_order_relaxed);
        pg.shared = in;
      } else {
        std::memcpy(touch(addr >> kPageBits) + (addr & (kPageBytes - 1)), in,
                    chunk);
      }
      in += chunk;
      addr += chunk;
      n -= chunk;
    }
  }

  /// The bytes [addr, addr + n) in place when they lie inside one page
  /// (an untouched page reads as a shared zero page), else nullptr. Valid
  /// until the next write to this page.
  const uint8_t *readSpan(uint64_t addr, size_t n) const {
    if (n == 0 || chunkAt(addr, n) != n)
      return nullptr;
    const uint8_t *pg = find(addr >> kPageBits);
    return (pg ? pg : zeroPage()) + (addr & (kPageBytes - 1));
  }
  /// The bytes [addr, addr + n) in place for writing when they lie inside
  /// one page (allocated if untouched, as write() would), else nullptr.
  uint8_t *writeSpan(uint64_t addr, size_t n) {
    if (n == 0 || chunkAt(addr, n) != n)
      return nullptr;
    return touch(addr >> kPageBits) + (addr & (kPageBytes - 1));
  }

private:
  static constexpr unsigned kLeafBits = 12; ///< 4096 pages (256 MiB) a leaf
  static constexpr uint64_t kLeafPages = uint64_t(1) << kLeafBits;

  /// A page: its own bytes (from arena_), or (own null) bytes shared with
  /// the caller, or neither (untouched: zeros). Zeroed memory is a valid
  /// untouched page.
  struct Page {
    std::atomic<uint8_t *> own;
    const uint8_t *shared;
  };

  static const uint8_t *zeroPage() {
    static const uint8_t zeros[kPageBytes] = {};
    return zeros;
  }
  static size_t chunkAt(uint64_t addr, size_t n) {
    return size_t(
        std::min<uint64_t>(n, kPageBytes - (addr & (kPageBytes - 1))));
  }
  const uint8_t *find(uint64_t index) const {
    const Page *leaf = top_[index >> kLeafBits].load(std::memory_order_acquire);
    if (!leaf)
      return nullptr;
    const Page &pg = leaf[index & (kLeafPages - 1)];
    const uint8_t *own = pg.own.load(std::memory_order_acquire);
    return own ? own : pg.shared;
  }
  /// The page's entry, its leaf allocated if needed.
  Page &entry(uint64_t index) {
    std::atomic<Page *> &slot = top_[index >> kLeafBits];
    Page *leaf = slot.load(std::memory_order_acquire);
    if (!leaf) {
      std::lock_guard<std::mutex> lock(mutex_);
      leaf = slot.load(std::memory_order_relaxed);
      if (!leaf) {
        leaf = static_cast<Page *>(arena_.alloc(kLeafPages * sizeof(Page)));
        slot.store(leaf, std::memory_order_release);
      }
    }
    return leaf[index & (kLeafPages - 1)];
  }
  uint8_t *touch(uint64_t index) {
    Page &pg = entry(index);
    uint8_t *own = pg.own.load(std::memory_order_acquire);
    if (own)
      return own;
    std::lock_guard<std::mutex> lock(mutex_);
    own = pg.own.load(std::memory_order_relaxed);
    if (!own) {
      // Zero already (fresh anonymous memory): an untouched page needs no
      // memset, and only the 4 KiB parts the program writes get host pages.
      own = static_cast<uint8_t *>(arena_.alloc(kPageBytes));
      if (pg.shared)
        std::memcpy(own, pg.shared, kPageBytes); // copy on write
      else
        touched_.fetch_add(1, std::memory_order_relaxed);
      pg.own.store(own, std::memory_order_release);
    }
    return own;
  }

  uint64_t size_ = 0;
  /// One leaf pointer per 4096 pages of size_, in arena_.
  std::atomic<Page *> *top_ = nullptr;
  std::atomic<size_t> touched_{0};
  std::mutex mutex_;  ///< allocations and first writes
  ZeroedArena arena_; ///< the table and the pages' own bytes
};

} // namespace sim
} // namespace accel

#endif
