//===- CaptureFd.cpp - What a call writes to stdout or stderr ------------===//
//
// llvm::cl reports an option value that does not parse ("ep=x", "-1" for an
// unsigned option) straight to stderr, and the pass registry's help goes to
// stdout; the extension returns both as text (Bindings.h).
//
//===----------------------------------------------------------------------===//
#include "Bindings.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <mutex>
#include <thread>
#include <unistd.h>

using namespace accelpy;

std::string accelpy::captureFd(int fd, const std::function<void()> &print) {
  // One capture at a time: the descriptor is the process's.
  static std::mutex busy;
  std::lock_guard<std::mutex> lock(busy);
  int fds[2];
  std::fflush(fd == STDOUT_FILENO ? stdout : stderr);
  llvm::outs().flush();
  llvm::errs().flush();
  if (pipe(fds) != 0)
    throw Error(ErrorKind::Generic, "cannot create a pipe");
  int saved = dup(fd);
  std::string text;
  std::thread reader([&] {
    char buf[4096];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;)
      text.append(buf, size_t(n));
  });
  dup2(fds[1], fd);
  close(fds[1]);
  std::exception_ptr failure;
  try {
    print();
  } catch (...) {
    failure = std::current_exception();
  }
  llvm::outs().flush();
  llvm::errs().flush();
  dup2(saved, fd); // closes the pipe's last writer: EOF
  close(saved);
  reader.join();
  close(fds[0]);
  if (failure)
    std::rethrow_exception(failure);
  return text;
}

/// llvm::cl's message for a value that does not parse, without the empty
/// program name it starts with (": for the --ep option: ...").
static std::string clReason(llvm::StringRef text) {
  text = text.trim();
  text.consume_front(":");
  return text.trim().str();
}

void accelpy::parseOptionsOrThrow(const std::function<bool()> &parse,
                                  const std::function<std::string()> &message) {
  bool ok = true;
  std::string printed = captureFd(STDERR_FILENO, [&] { ok = parse(); });
  if (!ok)
    throw Error(ErrorKind::Option,
                message() + (printed.empty() ? "" : ": " + clReason(printed)));
  if (!printed.empty())
    llvm::errs() << printed;
}
