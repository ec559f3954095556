//===- TensorIO.h - .npy and ONNX TensorProto files -------------*- C++ -*-===//
//
// Reading and writing the tensors accel-run exchanges with users:
//  - NumPy .npy (format versions 1.0, 2.0, 3.0; C order). Read: f4/f8,
//    i1/i2/i4/i8, u1/u2/u4/u8 and b1, either byte order, converted to f32.
//    Write: the tensor's Tensor::dtype (npyDescr): '|b1' for I1, '|i1' for
//    I8, '<i4' for I32, '<i8' for I64, '<f4' for F32 / F16 / BF16 (the
//    simulator holds every value as f32). The simulator gives each output
//    the type its symbol declares, so a BOOL / INT64 model output is written
//    as bool / int64, as onnxruntime returns it.
//  - ONNX TensorProto .pb (float_data / double_data / int32_data /
//    int64_data or raw_data of FLOAT, DOUBLE, FLOAT16, INT8/16/32/64, UINT8/16
//    /32/64, BOOL), converted to f32.
// Both readers record the source element type in Tensor::dtype (F32, I8,
// I32, I64 or I1), so the simulator can tell an integer file from a float
// one for integer program inputs.
// Every reader is bounds-checked and reports a message naming the file.
// Integer values are written only when exact (checkDTypeValues): a value of
// an I8 / I32 / I64 tensor that is not finite, not a whole number or out of
// the type's range is a compiler or simulator defect and is reported with
// its element index, never rounded or truncated. I1 is value != 0.
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
/// The .npy descr `t` is written as: "|b1" (I1), "|i1" (I8), "<i4" (I32),
/// "<i8" (I64), "<f4" (F32, F16, BF16).
const char *npyDescr(DType t);
/// Whether every value of `t` is exact in t.dtype: for I8 / I32 / I64 a
/// finite whole number within the type's range (F32 / F16 / BF16 / I1 take
/// any value). Otherwise false, and `err` names the first element that is
/// not (its flat index, its value and why), e.g. "element 3 is 2.5, not an
/// i64 value (not a whole number); ...".
bool checkDTypeValues(const Tensor &t, std::string &err);
/// Serialises `t` as a version 1.0 C-order .npy of npyDescr(t.dtype);
/// false with `err` when checkDTypeValues fails.
bool encodeNpy(const Tensor &t, std::vector<uint8_t> &out, std::string &err);
bool readNpy(const std::string &path, Tensor &out, std::string &err);
/// encodeNpy into `path`; an error message starts with the path.
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
