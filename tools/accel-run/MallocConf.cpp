//===- MallocConf.cpp - jemalloc's options for accel-run ------------------===//
//
// Linked only when accel-run links jemalloc (tools/accel-run/CMakeLists.txt).
// jemalloc reads this string at its first allocation; MALLOC_CONF in the
// environment still overrides it. Why jemalloc at all, and why these
// options: docs/simulator.md, "Sixteenth round".
//
// - thp:always: every mapping jemalloc makes is advised MADV_HUGEPAGE, so a
//   2 MiB region costs one page fault instead of up to 512 (where a fault
//   costs about 10 us, a small network's run was a quarter faults);
// - metadata_thp:always: its own bookkeeping likewise;
// - dirty_decay_ms / muzzy_decay_ms -1: freed pages are never handed back
//   to the kernel during the run (the next allocation would fault them in
//   again); the process ends soon after the simulation.
//
//===----------------------------------------------------------------------===//

extern "C" {
// The symbol jemalloc looks up; its name and type are jemalloc's interface.
// NOLINTNEXTLINE(readability-identifier-naming)
extern const char *malloc_conf;
const char *malloc_conf =
    "thp:always,metadata_thp:always,dirty_decay_ms:-1,muzzy_decay_ms:-1";
}
