//===- TensorProtoFields.h - The fields of an onnx.TensorProto --*- C++ -*-===//
//
// The protobuf decoding of a TensorProto lives in a module of its own
// (libAccelTensorProto.so, TensorProtoModule.cpp) that accel-run loads on
// the first .pb file it reads: linking the ONNX protobuf library into every
// accel-run process cost about 2 ms of its start (the dynamic loader
// relocating libprotobuf), against 0.6 ms for the rest of the start, on runs
// of 40-60 ms (docs/simulator.md, "Host time"). TensorIO.cpp checks and
// converts the fields. Internal to lib/Sim.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_SIM_TENSORPROTOFIELDS_H
#define ACCEL_LIB_SIM_TENSORPROTOFIELDS_H

#include <cstdint>
#include <string>
#include <vector>

namespace accel {
namespace sim {

/// ONNX TensorProto.DataType values (onnx.proto).
enum TensorProtoType : int32_t {
  kProtoFloat = 1,
  kProtoUint8 = 2,
  kProtoInt8 = 3,
  kProtoUint16 = 4,
  kProtoInt16 = 5,
  kProtoInt32 = 6,
  kProtoInt64 = 7,
  kProtoBool = 9,
  kProtoFloat16 = 10,
  kProtoDouble = 11,
  kProtoUint32 = 12,
  kProtoUint64 = 13,
};

/// The fields TensorIO reads, as the protobuf message holds them.
struct TensorProtoFields {
  std::string name;
  std::vector<int64_t> dims;
  int32_t dataType = 0;
  bool external = false;  ///< data_location == EXTERNAL
  bool segmented = false; ///< has a segment
  bool hasRaw = false;
  std::string raw;
  std::vector<float> floats;
  std::vector<double> doubles;
  std::vector<int32_t> int32s;
  std::vector<int64_t> int64s;
  std::vector<uint64_t> uint64s;
};

/// The module's one entry point: decodes `size` bytes into `out`; false
/// when they are not a TensorProto.
using DecodeTensorProtoFn = bool (*)(const uint8_t *data, size_t size,
                                     TensorProtoFields *out);
constexpr const char *kDecodeTensorProtoSymbol = "accelDecodeTensorProto";

/// Decodes through the module, loading it on the first call (next to the
/// executable or library holding this code, else at its build-tree path);
/// false with `err` when the module cannot be loaded or the bytes are not
/// a TensorProto.
bool decodeTensorProto(const uint8_t *data, size_t size, TensorProtoFields &out,
                       std::string &err);

} // namespace sim
} // namespace accel

#endif
