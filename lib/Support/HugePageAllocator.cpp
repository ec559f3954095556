//===- HugePageAllocator.cpp - Large arrays on transparent huge pages -----===//
//
// See accel/Support/HugePageAllocator.h.
//
//===----------------------------------------------------------------------===//
#include "accel/Support/HugePageAllocator.h"

#include <cstdint>
#include <sys/mman.h>

namespace {
constexpr size_t kHugePage = size_t(2) << 20;

size_t roundUp(size_t bytes) {
  return (bytes + kHugePage - 1) & ~(kHugePage - 1);
}
} // namespace

void *accel::hugepages::allocate(size_t bytes) {
  const size_t size = roundUp(bytes);
  if (size < bytes)
    throw std::bad_alloc();
  // One huge page more than needed, then the unaligned head and the tail
  // are given back: the kernel places huge pages only on aligned ranges.
  const size_t span = size + kHugePage;
  void *raw = ::mmap(nullptr, span, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED)
    throw std::bad_alloc();
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (start + kHugePage - 1) & ~uintptr_t(kHugePage - 1);
  if (aligned > start)
    ::munmap(raw, aligned - start);
  const uintptr_t end = start + span, used = aligned + size;
  if (end > used)
    ::munmap(reinterpret_cast<void *>(used), end - used);
  void *p = reinterpret_cast<void *>(aligned);
  // Advice only: without transparent huge pages the pages stay ordinary.
  (void)::madvise(p, size, MADV_HUGEPAGE);
  return p;
}

void accel::hugepages::deallocate(void *p, size_t bytes) noexcept {
  if (p)
    ::munmap(p, roundUp(bytes));
}
