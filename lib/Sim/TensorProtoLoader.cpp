//===- TensorProtoLoader.cpp - Loads libAccelTensorProto.so on first use --===//
//
// See TensorProtoFields.h.
//
//===----------------------------------------------------------------------===//
#include "TensorProtoFields.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

namespace accel {
namespace sim {
namespace {

constexpr const char *kModuleName = "libAccelTensorProto.so";

/// The directory of the executable or shared library holding this code.
std::string ownDirectory() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&decodeTensorProto), &info) ||
      !info.dli_fname)
    return "";
  std::string path = info.dli_fname;
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

struct Module {
  DecodeTensorProtoFn decode = nullptr;
  std::string error;
};

Module load() {
  Module m;
  std::vector<std::string> candidates;
  std::string dir = ownDirectory();
  // ACCEL_TENSORPROTO_MODULE names the module (an installed tree that
  // keeps it elsewhere); then only that path is tried.
  if (const char *env = std::getenv("ACCEL_TENSORPROTO_MODULE")) {
    candidates.push_back(env);
    dir.clear();
  }
  if (!dir.empty()) {
    candidates.push_back(dir + "/" + kModuleName);
    candidates.push_back(dir + "/../lib/" + kModuleName);
  }
#ifdef ACCEL_TENSORPROTO_MODULE
  if (!std::getenv("ACCEL_TENSORPROTO_MODULE"))
    candidates.push_back(ACCEL_TENSORPROTO_MODULE);
#endif
  std::string tried;
  for (const std::string &path : candidates) {
    void *h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      tried += std::string(tried.empty() ? "" : "; ") + dlerror();
      continue;
    }
    m.decode = reinterpret_cast<DecodeTensorProtoFn>(
        dlsym(h, kDecodeTensorProtoSymbol));
    if (m.decode)
      return m;
    tried += "; " + path + " has no " + kDecodeTensorProtoSymbol;
  }
  m.error = std::string("reading ONNX TensorProto files needs ") + kModuleName +
            ", which could not be loaded (" + tried + ")";
  return m;
}

} // namespace

bool decodeTensorProto(const uint8_t *data, size_t size, TensorProtoFields &out,
                       std::string &err) {
  static std::once_flag once;
  static Module module;
  std::call_once(once, [] { module = load(); });
  if (!module.decode) {
    err = module.error;
    return false;
  }
  if (!module.decode(data, size, &out)) {
    err = "not a valid ONNX TensorProto";
    return false;
  }
  return true;
}

} // namespace sim
} // namespace accel
