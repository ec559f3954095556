//===- OrderedWorker.h - Tasks run on one helper thread, in order -*- C++
//-*-===//
//
// The simulator's run is two kinds of work: deciding (checks, timing,
// hazards, statistics: all from addresses and shapes) and moving data (the
// bytes a DMA copies, the tiles LD / MAC / ST / SPU compute). The deciding
// never reads the data, so the data work can run on a second core, behind
// it, as long as it runs in the order it was issued: then every byte ends up
// as a sequential run leaves it (docs/simulator.md, "Eighth round").
//
// `OrderedWorker` is that second core: `push` appends a task to a ring
// (one producer, one consumer; the task is constructed in place, no
// allocation) and one helper thread runs the tasks in push order. `drain`
// waits until every pushed task has run; the caller drains before it reads
// data the tasks may still write. Not threaded, `push` runs the task at
// once, which is exactly the sequential program.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_SUPPORT_ORDEREDWORKER_H
#define ACCEL_SUPPORT_ORDEREDWORKER_H

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>

namespace accel {

class OrderedWorker {
public:
  /// `threaded` = false: push runs each task on the caller's thread.
  /// `ringBytes` is rounded up to a power of two (at least 64 KiB).
  explicit OrderedWorker(bool threaded, size_t ringBytes = size_t(1) << 20);
  /// Runs what is still queued, then stops the thread.
  ~OrderedWorker();
  OrderedWorker(const OrderedWorker &) = delete;
  OrderedWorker &operator=(const OrderedWorker &) = delete;

  bool threaded() const { return ring != nullptr; }

  /// Runs `task()` after every task pushed before it. A task must not
  /// push. An exception a task throws is kept (`error`), not rethrown.
  template <class F> void push(F &&task) {
    using T = std::decay_t<F>;
    static_assert(alignof(T) <= kAlign, "task over-aligned");
    static_assert(sizeof(T) + kAlign <= kMaxTaskBytes, "task too large");
    if (!ring) {
      runGuarded([&] { task(); });
      return;
    }
    constexpr size_t bytes = (kAlign + sizeof(T) + kAlign - 1) & ~(kAlign - 1);
    uint8_t *at = reserve(bytes);
    new (at + kAlign) T(std::forward<F>(task));
    Header *h = reinterpret_cast<Header *>(at);
    h->run = [](void *p) {
      T *t = static_cast<T *>(p);
      struct Destroy {
        T *t;
        ~Destroy() { t->~T(); }
      } destroy{t};
      (*t)();
    };
    h->bytes = bytes;
    tail += bytes;
    // Each publication is a store the helper is polling: batch them while
    // it has work, at once when it sleeps (it would idle otherwise).
    if (tail - lastPublished >= kPublishBytes ||
        workerSleeping.load(std::memory_order_seq_cst))
      flush();
  }

  /// Makes every pushed task visible to the helper (push does it every
  /// few KiB, drain and the waits for room always).
  void flush();

  /// Returns once every task pushed so far has run.
  void drain();

  /// Called before this producer blocks (waiting for room or in drain),
  /// after its own flush: a helper may be waiting for a task another
  /// worker's producer has not published yet (DataLanes).
  void setBeforeBlocking(void (*fn)(void *), void *arg) {
    beforeBlocking = fn;
    beforeBlockingArg = arg;
  }

  /// Times the producer found the ring full (the helper is behind).
  uint64_t fullWaits() const { return ringFull; }

  /// The first exception a task threw ("" if none): the run's data is then
  /// incomplete, the caller reports it.
  std::string error() const;

private:
  static constexpr size_t kAlign = 16;
  static constexpr size_t kMaxTaskBytes = 4096;
  static constexpr uint64_t kPublishBytes = 4096;
  struct Header {
    void (*run)(void *); ///< nullptr: skip to the ring's start
    uint64_t bytes;      ///< the whole entry, header included
  };
  static_assert(sizeof(Header) <= kAlign, "header must fit its slot");

  template <class G> void runGuarded(G &&g) {
    try {
      g();
    } catch (const std::bad_alloc &) {
      keepError("out of host memory");
    } catch (const std::exception &e) {
      keepError(e.what());
    }
  }
  void keepError(const std::string &msg);
  uint8_t *reserve(size_t bytes);
  void waitUntil(uint64_t consumed);
  void loop();

  uint8_t *ring = nullptr;
  size_t capacity = 0;
  uint64_t tail = 0;          ///< producer's end (its own)
  uint64_t lastPublished = 0; ///< producer's copy of `published`
  uint64_t ringFull = 0;
  void (*beforeBlocking)(void *) = nullptr;
  void *beforeBlockingArg = nullptr;
  alignas(64) std::atomic<uint64_t> published{0};
  alignas(64) std::atomic<uint64_t> head{0}; ///< consumed so far
  alignas(64) std::atomic<bool> workerSleeping{false};
  std::atomic<bool> producerWaiting{false};
  bool stop = false; ///< under `mutex`
  mutable std::mutex mutex;
  std::condition_variable workCv, doneCv;
  std::string firstError; ///< under `mutex`
  std::thread thread;
};

} // namespace accel

#endif // ACCEL_SUPPORT_ORDEREDWORKER_H
