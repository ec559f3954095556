//===- ParseGuard.h - Bounded stack use when parsing MLIR text -*- C++ -*-===//
//
// The MLIR parser (and the printer, verifier and walkers after it) recurse
// once per level of nesting, so a few megabytes of hostile text -- an array
// attribute, a type or a region a hundred thousand levels deep -- overflow the
// stack. Every tool that parses MLIR text (accel-opt, accel-compile for .mlir
// input, accel-translate) therefore
//  - refuses text nested deeper than kMaxTextNesting brackets before parsing
//    it, naming the position and the limit (checkTextNesting), and
//  - runs on a thread with a kToolStackBytes stack (runOnLargeStack), so any
//    input within the limit has ample room.
// Header-only: the three tools share it without a library of their own.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_SUPPORT_PARSEGUARD_H
#define ACCEL_SUPPORT_PARSEGUARD_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <pthread.h>
#include <signal.h>
#include <string>
#include <utility>

namespace accel {

/// Deepest bracket nesting ((, [, {, <) accepted in MLIR text. Real IR nests
/// a few dozen levels; 2048 levels fit the stack below with a wide margin.
constexpr unsigned kMaxTextNesting = 2048;
/// Stack of the thread the tools run on (reserved address space; pages are
/// only committed as the recursion touches them).
constexpr size_t kToolStackBytes = size_t(256) << 20;

/// Offset of the first bracket that opens level `limit + 1`, or nullopt.
/// Skips string literals and // comments; `->`, `<=` and `>=` are not
/// brackets. A slight over-count elsewhere only makes the check stricter.
inline std::optional<size_t> findExcessiveNesting(llvm::StringRef text,
                                                  unsigned limit) {
  unsigned depth = 0;
  const size_t n = text.size();
  for (size_t i = 0; i < n; ++i) {
    char c = text[i];
    if (c == '"') {
      for (++i; i < n && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      while (i < n && text[i] != '\n')
        ++i;
      continue;
    }
    bool nextIsEq = i + 1 < n && text[i + 1] == '=';
    bool open = c == '(' || c == '[' || c == '{' || (c == '<' && !nextIsEq);
    bool close = c == ')' || c == ']' || c == '}' ||
                 (c == '>' && !nextIsEq && !(i > 0 && text[i - 1] == '-'));
    if (open && ++depth > limit)
      return i;
    if (close && depth)
      --depth;
  }
  return std::nullopt;
}

/// 1-based line and column of `offset` in `text`.
inline std::pair<unsigned, unsigned> lineAndColumn(llvm::StringRef text,
                                                   size_t offset) {
  llvm::StringRef before = text.take_front(offset);
  size_t lineStart = before.rfind('\n');
  size_t col =
      offset - (lineStart == llvm::StringRef::npos ? 0 : lineStart + 1);
  return {unsigned(before.count('\n') + 1), unsigned(col + 1)};
}

/// The message for text nested too deeply.
inline std::string nestingMessage() {
  return "nesting deeper than " + std::to_string(kMaxTextNesting) +
         " levels of brackets (attributes, types, regions); the input is "
         "refused before parsing";
}

/// Prints "NAME:LINE:COL: error: ..." and returns false when `buffer` nests
/// deeper than kMaxTextNesting.
inline bool checkTextNesting(const llvm::MemoryBuffer &buffer,
                             llvm::raw_ostream &errs) {
  llvm::StringRef text = buffer.getBuffer();
  std::optional<size_t> at = findExcessiveNesting(text, kMaxTextNesting);
  if (!at)
    return true;
  auto [line, col] = lineAndColumn(text, *at);
  errs << buffer.getBufferIdentifier() << ":" << line << ":" << col
       << ": error: " << nestingMessage() << "\n";
  return false;
}

/// The same for a file; a file that cannot be read passes (the parser then
/// reports it the usual way).
inline bool checkFileNesting(llvm::StringRef path, llvm::raw_ostream &errs) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
  return !buffer || checkTextNesting(**buffer, errs);
}

/// Runs `body` on a thread with a kToolStackBytes stack and returns its
/// result; runs it on the calling thread when no such thread can be made
/// (e.g. under a tight `ulimit -v`), where the nesting limit still holds.
inline int runOnLargeStack(llvm::function_ref<int()> body) {
  struct Job {
    llvm::function_ref<int()> body;
    int result = 1;
  } job{body};
  pthread_attr_t attr;
  pthread_t thread;
  bool started = pthread_attr_init(&attr) == 0 &&
                 pthread_attr_setstacksize(&attr, kToolStackBytes) == 0 &&
                 pthread_create(
                     &thread, &attr,
                     [](void *arg) -> void * {
                       auto *j = static_cast<Job *>(arg);
                       // Leave with the alternate signal stack the thread
                       // started with: LLVM's signal handlers (InitLLVM in
                       // the body) install a malloc'd one where the current
                       // one is smaller than they want (hosts with large
                       // signal frames, e.g. AVX-512), and AddressSanitizer
                       // unmaps whatever is current at thread exit (munmap
                       // of a malloc'd block: EINVAL, the run aborts).
                       stack_t started{};
                       bool saved = ::sigaltstack(nullptr, &started) == 0;
                       j->result = j->body();
                       if (saved)
                         ::sigaltstack(&started, nullptr);
                       return nullptr;
                     },
                     &job) == 0;
  pthread_attr_destroy(&attr);
  if (!started)
    return body();
  pthread_join(thread, nullptr);
  return job.result;
}

} // namespace accel

#endif
