//===- TensorIO.h - .npy and ONNX TensorProto files -------------*- C++ -*-===//
//
// Reading and writing the tensors accel-run exchanges with users:
//  - NumPy .npy (format versions 1.0, 2.0, 3.0; C order). Read: f4/f8,
//    i1/i2/i4/i8, u1/u2/u4/u8 and b1, either byte order, converted to f32.
//    Write: '<f4'.
//  - ONNX TensorProto .pb (float_data / double_data / int32_data /
//    int64_data or raw_data of FLOAT, DOUBLE, FLOAT16, INT8/16/32/64, UINT8/16
//    /32/64, BOOL), converted to f32.
// Both readers record the source element type in Tensor::dtype (F32, I8,
// I32, I64 or I1), so the simulator can tell an integer file from a float
// one for integer program inputs.
// Every reader is bounds-checked and reports a message naming the file.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_SIM_TENSORIO_H
#define ACCEL_SIM_TENSORIO_H

#include "accel/Sim/Simulator.h"

#include <cstdint>
#include <string>
#include <vector>

namespace accel {

/// Parses .npy bytes. On error returns false with a message.
bool parseNpy(const uint8_t *data, size_t size, Tensor &out, std::string &err);
/// Serialises `t` as a version 1.0 '<f4' C-order .npy.
std::vector<uint8_t> encodeNpy(const Tensor &t);
bool readNpy(const std::string &path, Tensor &out, std::string &err);
bool writeNpy(const std::string &path, const Tensor &t, std::string &err);

/// Parses a serialised onnx.TensorProto; `name` (optional) receives its name.
bool parseTensorProto(const uint8_t *data, size_t size, Tensor &out,
                      std::string &err, std::string *name = nullptr);
bool readTensorProto(const std::string &path, Tensor &out, std::string &err,
                     std::string *name = nullptr);

/// Reads a .npy or .pb file, chosen by the .npy magic bytes (anything else is
/// parsed as a TensorProto).
bool readTensorFile(const std::string &path, Tensor &out, std::string &err);

} // namespace accel

#endif
