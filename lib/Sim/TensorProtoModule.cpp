//===- TensorProtoModule.cpp - onnx.TensorProto decoding (a module) -------===//
//
// libAccelTensorProto.so: the only code of accel-run that needs the ONNX
// protobuf library, loaded with dlopen on the first .pb file
// (TensorProtoFields.h says why).
//
//===----------------------------------------------------------------------===//
#include "TensorProtoFields.h"

#include <onnx/onnx_pb.h>

#include <climits>

using accel::sim::TensorProtoFields;

extern "C" __attribute__((visibility("default"))) bool
accelDecodeTensorProto(const uint8_t *data, size_t size,
                       TensorProtoFields *out) {
  onnx::TensorProto tp;
  if (size > size_t(INT_MAX) || !tp.ParseFromArray(data, int(size)))
    return false;
  TensorProtoFields &f = *out;
  f.name = tp.name();
  f.dims.assign(tp.dims().begin(), tp.dims().end());
  f.dataType = tp.data_type();
  f.external = tp.data_location() == onnx::TensorProto::EXTERNAL;
  f.segmented = tp.has_segment();
  f.hasRaw = tp.has_raw_data();
  f.raw = tp.raw_data();
  f.floats.assign(tp.float_data().begin(), tp.float_data().end());
  f.doubles.assign(tp.double_data().begin(), tp.double_data().end());
  f.int32s.assign(tp.int32_data().begin(), tp.int32_data().end());
  f.int64s.assign(tp.int64_data().begin(), tp.int64_data().end());
  f.uint64s.assign(tp.uint64_data().begin(), tp.uint64_data().end());
  return true;
}
