//===- PagedMemory.h - Simulated DRAM allocated on first touch ---*- C++
//-*-===//
//
// A binary's header states how much DRAM it uses; a corrupt or hostile one
// can claim gigabytes while touching a few bytes. The simulator's DRAM is
// therefore a sparse map of fixed-size pages, each allocated (zeroed) the
// first time it is written: host memory follows the bytes the program
// touches, and reading an untouched byte gives 0 as before. Internal to
// lib/Sim.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_SIM_PAGEDMEMORY_H
#define ACCEL_LIB_SIM_PAGEDMEMORY_H

#include "ZeroedMemory.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <unordered_map>

namespace accel {
namespace sim {

class PagedMemory {
public:
  static constexpr unsigned kPageBits = 16; ///< 64 KiB pages
  static constexpr uint64_t kPageBytes = uint64_t(1) << kPageBits;

  /// Forgets every page; the memory is `size` zero bytes.
  void reset(uint64_t size) {
    size_ = size;
    pages_.clear();
    arena_.clear();
    forgetCache();
  }
  uint64_t size() const { return size_; }
  /// Pages written so far (own host memory, or shared with the caller's
  /// bytes by writeShared()).
  size_t pagesTouched() const { return pages_.size(); }

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
  /// simulator shares the program's constant segments so).
  void writeShared(uint64_t addr, const void *src, size_t n) {
    auto *in = static_cast<const uint8_t *>(src);
    while (n) {
      size_t chunk = chunkAt(addr, n);
      if (chunk == kPageBytes) {
        Page &pg = pages_[addr >> kPageBits];
        pg.own = nullptr; // (its host memory stays in the arena, unused)
        pg.shared = in;
        forgetCache();
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
  /// A page: its own bytes (from arena_), or (own null) bytes shared with
  /// the caller.
  struct Page {
    uint8_t *own = nullptr;
    const uint8_t *shared = nullptr;
    const uint8_t *bytes() const { return own ? own : shared; }
  };

  static const uint8_t *zeroPage() {
    static const uint8_t zeros[kPageBytes] = {};
    return zeros;
  }
  static size_t chunkAt(uint64_t addr, size_t n) {
    return size_t(
        std::min<uint64_t>(n, kPageBytes - (addr & (kPageBytes - 1))));
  }
  void forgetCache() {
    readIndex_ = writeIndex_ = ~uint64_t(0);
    readPage_ = nullptr;
    writePage_ = nullptr;
  }
  const uint8_t *find(uint64_t index) const {
    if (index == readIndex_)
      return readPage_;
    auto it = pages_.find(index);
    if (it == pages_.end())
      return nullptr;
    readIndex_ = index;
    readPage_ = it->second.bytes();
    return readPage_;
  }
  uint8_t *touch(uint64_t index) {
    if (index == writeIndex_)
      return writePage_;
    Page &pg = pages_[index];
    if (!pg.own) {
      // Zero already (fresh anonymous memory): an untouched page needs no
      // memset, and only the 4 KiB parts the program writes get host pages.
      pg.own = static_cast<uint8_t *>(arena_.alloc(kPageBytes));
      if (pg.shared)
        std::memcpy(pg.own, pg.shared, kPageBytes); // copy on write
      pg.shared = nullptr;
      if (readIndex_ == index)
        readPage_ = pg.own;
    }
    writeIndex_ = index;
    writePage_ = pg.own;
    return writePage_;
  }

  uint64_t size_ = 0;
  std::unordered_map<uint64_t, Page> pages_;
  ZeroedArena arena_; ///< the pages' own bytes
  // The pages last read and last written (DMA rows are mostly within one
  // page); a written page is always its own copy.
  mutable uint64_t readIndex_ = ~uint64_t(0);
  mutable const uint8_t *readPage_ = nullptr;
  uint64_t writeIndex_ = ~uint64_t(0);
  uint8_t *writePage_ = nullptr;
};

} // namespace sim
} // namespace accel

#endif
