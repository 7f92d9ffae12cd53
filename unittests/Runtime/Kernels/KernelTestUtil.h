//===- KernelTestUtil.h - Host tensors, f64 oracles, tolerances -----------===//
//
// Shared by the kernel tests: a host tensor of any runtime dtype with exact
// f64 access, random data that is exactly representable in its dtype, an
// independent round-to-nearest-even oracle (scaling in f64, not the
// runtime's bit tricks), and comparisons that report where they fail.
//
// Tolerance model. Every kernel computes in f32 and rounds each stored value
// once, so an output compared with the f64 result `ref` of the same stored
// inputs may differ by
//     err32 + halfUlp(out dtype, |ref| + err32)
// where err32 bounds the f32 computation's error and halfUlp is the final
// rounding. err32 is stated per kernel in units of u = 2^-24 (the f32 unit
// roundoff): an n-term f32 sum of terms t_i contributes (n + 1) u sum |t_i|.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UNITTESTS_RUNTIME_KERNELS_KERNELTESTUTIL_H
#define AMP_UNITTESTS_RUNTIME_KERNELS_KERNELTESTUTIL_H

#include "amp_runtime/kernels.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace amp {
namespace test {

/// The f32 unit roundoff.
constexpr double kU = 1.0 / 16777216.0;

using Shape = std::vector<int64_t>;

int64_t numel(const Shape &shape);
std::string shapeName(const Shape &shape);

/// The row-major multi-index of linear index i in `shape`, and back.
Shape unravel(int64_t i, const Shape &shape);
int64_t ravel(const Shape &index, const Shape &shape);

/// The linear index into `operand` of element i of `out` when the operand
/// is broadcast to out with numpy rules (trailing dimensions aligned).
int64_t broadcastSource(int64_t i, const Shape &out, const Shape &operand);
const char *dtypeName(amp_dtype_t dtype);

/// The name of a test instantiated over ::testing::Combine(case index,
/// dtype): "case<i>_<dtype>".
struct CaseAndDtypeName {
  template <typename ParamInfo>
  std::string operator()(const ParamInfo &info) const {
    return "case" + std::to_string(std::get<0>(info.param)) + "_" +
           dtypeName(std::get<1>(info.param));
  }
};

/// f32, f16, bf16.
std::vector<amp_dtype_t> floatDtypes();

/// Every dtype: f32, f16, bf16, i32, i64, bool.
std::vector<amp_dtype_t> allDtypes();

/// f32, f16 or bf16.
bool isFloatDtype(amp_dtype_t dtype);

/// The (input, output) dtype pairs of accumulating kernels: f32->f32,
/// f16->f16, f16->f32, bf16->bf16, bf16->f32.
std::vector<std::pair<amp_dtype_t, amp_dtype_t>> accumulatorPairs();

/// Round-to-nearest-even of `v` into `dtype` (f32, f16, bf16), overflow to
/// +-inf, computed by scaling in f64.
double roundTo(amp_dtype_t dtype, double v);

/// What a kernel stores for an exact result `v`: rounded to f32, then to
/// `dtype`.
double roundViaF32(amp_dtype_t dtype, double v);

/// Half the spacing of `dtype` at magnitude |v| (subnormal spacing below
/// the normal range): the error bound of one RNE rounding.
double halfUlp(amp_dtype_t dtype, double v);

/// The tolerance of a stored output: err32 + halfUlp(|ref| + err32).
double outTol(amp_dtype_t dtype, double ref, double err32);

/// The f64 sums of the terms each output element collects, and the
/// tolerance of the same sums in f32 rounded once into `dtype`: err32 =
/// (k + extra) u sum|terms| for k terms (extra = 1: the sum alone).
struct Accumulation {
  std::vector<double> sum, abs;
  std::vector<int64_t> terms;
  explicit Accumulation(int64_t n) : sum(n), abs(n), terms(n) {}
  void add(int64_t out, double term);
  std::vector<double> tol(amp_dtype_t dtype, int64_t extra = 1) const;
};

/// A dense host tensor of one runtime dtype with exact f64 element access.
class Tensor {
public:
  Tensor() = default;
  Tensor(amp_dtype_t dtype, Shape shape);

  amp_dtype_t dtype() const { return dtype_; }
  const Shape &shape() const { return shape_; }
  int64_t size() const { return size_; }
  int32_t rank() const { return static_cast<int32_t>(shape_.size()); }
  const int64_t *dims() const { return shape_.data(); }
  void *data() { return storage_.data(); }
  const void *data() const { return storage_.data(); }

  /// The stored value, widened exactly (integers too).
  double get(int64_t i) const;
  /// Stores roundTo(dtype, v) (integers: truncated; bool: v != 0).
  void set(int64_t i, double v);
  /// The raw bits of element i (zero-extended).
  uint64_t bits(int64_t i) const;
  /// The exact value of element i of an i32, i64 or bool tensor (a bool
  /// byte as 0 or 1), which get() rounds beyond 2^53.
  int64_t intValue(int64_t i) const;
  void setBits(int64_t i, uint64_t bits);

  std::vector<double> values() const;
  /// Bitwise equality of dtype, shape and contents.
  bool sameBits(const Tensor &other) const;

private:
  amp_dtype_t dtype_ = AMP_DTYPE_F32;
  Shape shape_;
  int64_t size_ = 0;
  std::vector<uint64_t> storage_; // 8-byte aligned for every dtype
};

/// Uniform values in [lo, hi], rounded to the dtype.
Tensor randomTensor(amp_dtype_t dtype, const Shape &shape, std::mt19937 &rng,
                    double lo = -1.0, double hi = 1.0);

/// A tensor filled with a quiet-NaN bit pattern (floats) or 0x5a5a...
/// (integers and bool), to see what a kernel did not write.
Tensor sentinelTensor(amp_dtype_t dtype, const Shape &shape);

/// Element i of got is within tol[i] of ref[i]; NaN matches only NaN and an
/// infinity only itself. Reports the first failures with `what`.
::testing::AssertionResult allClose(const Tensor &got,
                                    const std::vector<double> &ref,
                                    const std::vector<double> &tol,
                                    const std::string &what);

/// The gradient of L(x) = sum_j w[j] * f(x)[j] by central finite
/// differences in f64, f being a forward kernel that `forward` runs on an f32
/// tensor of x's shape (returning its outputs): for each i,
///   dL/dx_i ~ sum_j w[j] (f(x+)[j] - f(x-)[j]) / (x+_i - x-_i)
/// with x+-_i the f32 values nearest x_i +- h (the steps actually taken).
std::vector<double> finiteDifferenceGrad(
    const Tensor &x, const std::vector<double> &w, double h,
    const std::function<std::vector<double>(const Tensor &)> &forward);

/// Element i of got equals ref[i] exactly (NaN matches NaN).
::testing::AssertionResult allEqual(const Tensor &got,
                                    const std::vector<double> &ref,
                                    const std::string &what);

/// The status is OK; otherwise reports amp_kernel_last_error().
::testing::AssertionResult isOk(amp_status_t status);

/// The status is `expected` and the last error mentions `fragment`.
::testing::AssertionResult failsWith(amp_status_t status, amp_status_t expected,
                                     const std::string &fragment);

/// An amp_dtype_t holding a value outside the enum, built without a UB cast.
amp_dtype_t badDtype(int32_t raw);

} // namespace test
} // namespace amp

#endif // AMP_UNITTESTS_RUNTIME_KERNELS_KERNELTESTUTIL_H
