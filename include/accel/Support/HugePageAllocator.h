//===- HugePageAllocator.h - Large arrays on transparent huge pages -*- C++
//-*-===//
//
// A compiled network's command streams are megabytes of small records that
// are written once, front to back, as the binary is decoded. From malloc,
// every 4 KiB page of them costs a page fault at its first write: 1 750
// faults for MobileNetV3-Small's 6.3 MB of commands, whose binary read took
// 4.1 ms, 3.1 ms on huge pages (docs/simulator.md, "Tenth round"). Arrays of
// at least kMinBytes therefore get their own 2 MiB-aligned anonymous
// mapping rounded up to whole 2 MiB pages, marked MADV_HUGEPAGE, so that
// the kernel backs them with a few huge pages (one fault each) where
// transparent huge pages are enabled for such mappings; elsewhere they get
// ordinary pages, as before. Smaller arrays use operator new. The
// allocator is stateless: any two compare equal, so containers using it
// swap and move as with std::allocator.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_SUPPORT_HUGEPAGEALLOCATOR_H
#define ACCEL_SUPPORT_HUGEPAGEALLOCATOR_H

#include <cstddef>
#include <new>

namespace accel {

namespace hugepages {
/// Arrays of at least this many bytes get huge pages. 1 MiB first (the
/// rounding up to 2 MiB then wasted at most half the mapping); 128 KiB
/// since a host whose page faults cost about 10 us each (a paravirtualised
/// guest) spent 15 ms of MobileNetV3-Small's 46 ms reading the binary: its
/// four streams (4 683-5 065 commands of 184 bytes, 0.86-0.93 MB since
/// Command shrank from 248 bytes) had fallen below 1 MiB and faulted 4 KiB
/// at a time. Zeroing one 2 MiB page costs less than 32 such faults
/// (docs/simulator.md, "Fourteenth round").
constexpr size_t kMinBytes = size_t(1) << 17;
/// Under AddressSanitizer every array comes from operator new, so that
/// the sanitizer still sees overruns of the command streams (it does not
/// watch anonymous mappings).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kMapLargeArrays = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kMapLargeArrays = false;
#else
constexpr bool kMapLargeArrays = true;
#endif
#else
constexpr bool kMapLargeArrays = true;
#endif
/// `bytes` (>= kMinBytes) of fresh zeroed memory on 2 MiB-aligned pages;
/// throws std::bad_alloc when the host has no memory left.
void *allocate(size_t bytes);
/// Frees what allocate(bytes) returned.
void deallocate(void *p, size_t bytes) noexcept;
} // namespace hugepages

template <typename T> struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() noexcept = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U> &) noexcept {}

  T *allocate(size_t n) {
    if (n > size_t(-1) / sizeof(T))
      throw std::bad_array_new_length();
    const size_t bytes = n * sizeof(T);
    if (!hugepages::kMapLargeArrays || bytes < hugepages::kMinBytes)
      return static_cast<T *>(::operator new(bytes));
    return static_cast<T *>(hugepages::allocate(bytes));
  }
  void deallocate(T *p, size_t n) noexcept {
    const size_t bytes = n * sizeof(T);
    if (!hugepages::kMapLargeArrays || bytes < hugepages::kMinBytes)
      ::operator delete(p);
    else
      hugepages::deallocate(p, bytes);
  }
  template <typename U> bool operator==(const HugePageAllocator<U> &) const {
    return true;
  }
  template <typename U> bool operator!=(const HugePageAllocator<U> &) const {
    return false;
  }
};

} // namespace accel

#endif
