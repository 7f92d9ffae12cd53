//===- TensorFile.h - tensors in NumPy .npy files ---------------*- C++ -*-===//
//
// What `amp-run --function` reads (--input) and writes (--output): one
// tensor per file, NumPy's .npy format (version 1.0-3.0, little-endian
// <f4, <f8 and <f2 (read as f32), <i8, <i4, |b1, and |i1, |u1, <i2, <u2
// (read as i32) and <u4 (read as i64); C order). Reading checks the
// header and the data size against the file before allocating, so a
// damaged file is an error, never a crash. ONNX TensorProto .pb files are
// read by the ONNX importer's library (amp/Import/ONNX.h), into the same
// HostArray. Plus the comparison of --expected-output.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_TENSORFILE_H
#define AMP_RUNNER_TENSORFILE_H

#include "amp/Runner/Signature.h"
#include "amp/Runner/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace amp::runner {

/// A tensor on the host: its element type, shape and row-major bytes.
struct HostArray {
  ElementType type = ElementType::F32;
  std::vector<int64_t> shape;
  std::vector<char> bytes;

  int64_t numElements() const;
};

StatusOr<HostArray> readNpyFile(const std::string &path);
/// The same for the bytes of a file; `path` names it in errors.
StatusOr<HostArray> parseNpy(const std::vector<char> &bytes,
                             const std::string &path);
Status writeNpyFile(const std::string &path, const HostArray &array);
/// The bytes of the .npy file of `array` (version 1.0).
StatusOr<std::vector<char>> encodeNpy(const HostArray &array);

/// Compares `actual` with `expected`: the same shape and element type (or
/// two integer types), and every element within |a - e| <= tolerance *
/// (1 + |e|) (NaN matches NaN, an infinity the same infinity; integers
/// exactly). The error names
/// `what`, the first mismatching index and the count of mismatches.
Status compareArrays(const HostArray &actual, const HostArray &expected,
                     double tolerance, const std::string &what);

/// Element `i` of an integer array (i1 as its byte).
int64_t integerAt(const HostArray &array, int64_t i);
/// The integer `array` as the integer type `type` (i1, i32, i64), when
/// `type` holds every value (i1: 0 and 1); else an error that names the
/// first value it does not hold.
StatusOr<HostArray> convertIntegers(const HostArray &array, ElementType type);

/// "tensor<2x3xf32>" for messages.
std::string describeArray(const HostArray &array);

} // namespace amp::runner

#endif // AMP_RUNNER_TENSORFILE_H
