//===- OrderedWorker.cpp - Tasks run on one helper thread, in order -------===//
//
// A single-producer single-consumer byte ring. Positions only grow; an
// entry never wraps: when it does not fit before the ring's end, a skip
// entry fills the rest. Both sides spin a little before they sleep, since
// the simulator pushes a task every microsecond or so while it runs; the
// sleep / wake handshake (a flag stored before the other side's position
// is read again, both sequentially consistent, and the notify under the
// mutex) cannot lose a wake-up.
//
//===----------------------------------------------------------------------===//
#include "accel/Support/OrderedWorker.h"

#include <cstdlib>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define ACCEL_PAUSE() _mm_pause()
#else
#define ACCEL_PAUSE() std::this_thread::yield()
#endif

namespace accel {

namespace {
/// Polls of the other side's position before sleeping (about 20-100 us).
constexpr unsigned kSpins = 1 << 11;
} // namespace

OrderedWorker::OrderedWorker(bool threaded, size_t ringBytes) {
  if (!threaded)
    return;
  capacity = size_t(64) << 10;
  while (capacity < ringBytes)
    capacity <<= 1;
  ring = static_cast<uint8_t *>(std::aligned_alloc(64, capacity));
  if (!ring)
    throw std::bad_alloc();
  thread = std::thread([this] { loop(); });
}

OrderedWorker::~OrderedWorker() {
  if (!ring)
    return;
  flush();
  {
    std::lock_guard<std::mutex> lock(mutex);
    stop = true;
  }
  workCv.notify_one();
  thread.join();
  std::free(ring);
}

void OrderedWorker::keepError(const std::string &msg) {
  std::lock_guard<std::mutex> lock(mutex);
  if (firstError.empty())
    firstError = msg.empty() ? "task failed" : msg;
}

std::string OrderedWorker::error() const {
  std::lock_guard<std::mutex> lock(mutex);
  return firstError;
}

uint8_t *OrderedWorker::reserve(size_t bytes) {
  size_t offset = size_t(tail) & (capacity - 1);
  const size_t toEnd = capacity - offset;
  const size_t skip = toEnd < bytes ? toEnd : 0;
  // Room for the skip entry and this one: everything up to
  // tail + skip + bytes - capacity must have been consumed.
  if (tail + skip + bytes > capacity &&
      head.load(std::memory_order_acquire) < tail + skip + bytes - capacity) {
    ++ringFull;
    waitUntil(tail + skip + bytes - capacity);
  }
  if (skip) {
    Header *h = reinterpret_cast<Header *>(ring + offset);
    h->run = nullptr;
    h->bytes = skip;
    tail += skip;
    offset = 0;
  }
  return ring + offset;
}

void OrderedWorker::flush() {
  if (!ring || tail == lastPublished)
    return;
  lastPublished = tail;
  published.store(tail, std::memory_order_seq_cst);
  if (workerSleeping.load(std::memory_order_seq_cst)) {
    std::lock_guard<std::mutex> lock(mutex);
    workCv.notify_one();
  }
}

void OrderedWorker::waitUntil(uint64_t consumed) {
  if (head.load(std::memory_order_acquire) >= consumed)
    return;
  flush();
  if (beforeBlocking)
    beforeBlocking(beforeBlockingArg);
  for (unsigned i = 0; i < kSpins; ++i) {
    if (head.load(std::memory_order_acquire) >= consumed)
      return;
    ACCEL_PAUSE();
  }
  std::unique_lock<std::mutex> lock(mutex);
  producerWaiting.store(true, std::memory_order_seq_cst);
  doneCv.wait(lock,
              [&] { return head.load(std::memory_order_seq_cst) >= consumed; });
  producerWaiting.store(false, std::memory_order_relaxed);
}

void OrderedWorker::drain() {
  if (ring)
    waitUntil(tail);
}

void OrderedWorker::loop() {
  uint64_t at = 0;
  for (;;) {
    uint64_t end = published.load(std::memory_order_acquire);
    for (unsigned i = 0; end == at && i < kSpins; ++i) {
      ACCEL_PAUSE();
      end = published.load(std::memory_order_acquire);
    }
    if (end == at) {
      std::unique_lock<std::mutex> lock(mutex);
      workerSleeping.store(true, std::memory_order_seq_cst);
      workCv.wait(lock, [&] {
        return stop || published.load(std::memory_order_seq_cst) != at;
      });
      workerSleeping.store(false, std::memory_order_relaxed);
      end = published.load(std::memory_order_acquire);
      if (end == at && stop)
        return;
    }
    while (at != end) {
      Header *h =
          reinterpret_cast<Header *>(ring + (size_t(at) & (capacity - 1)));
      const uint64_t bytes = h->bytes;
      if (h->run)
        runGuarded([&] { h->run(reinterpret_cast<uint8_t *>(h) + kAlign); });
      at += bytes;
      head.store(at, std::memory_order_seq_cst);
      if (producerWaiting.load(std::memory_order_seq_cst)) {
        std::lock_guard<std::mutex> lock(mutex);
        doneCv.notify_one();
      }
    }
  }
}

} // namespace accel
