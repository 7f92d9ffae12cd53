//===- KernelTestUtil.cpp - Host tensors, f64 oracles, tolerances ---------===//
//
// The helpers of KernelTestUtil.h. The rounding oracle scales in f64 and
// rounds with nearbyint (to even), independently of amp_runtime/float16.h;
// float16.h is used only to move exactly representable values in and out
// of storage.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "amp_runtime/float16.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

using namespace amp::test;
using amp::runtime::bfloat16BitsToFloat;
using amp::runtime::floatToBFloat16Bits;
using amp::runtime::floatToHalfBits;
using amp::runtime::halfBitsToFloat;

namespace {

struct Format {
  int precision;   // fraction bits
  int minExponent; // of the smallest normal
  double maxFinite;
};

Format formatOf(amp_dtype_t dtype) {
  switch (dtype) {
  case AMP_DTYPE_F16:
    return {10, -14, 65504.0};
  case AMP_DTYPE_BF16:
    return {7, -126, std::ldexp(255.0, 120)};
  default:
    return {23, -126, std::ldexp(16777215.0, 104)};
  }
}

double oracleRound(double x, const Format &f) {
  if (std::isnan(x) || std::isinf(x) || x == 0.0)
    return x;
  int e = std::max(std::ilogb(x), f.minExponent);
  double ulp = std::ldexp(1.0, e - f.precision);
  double r = std::nearbyint(x / ulp) * ulp;
  if (std::fabs(r) > f.maxFinite)
    return std::copysign(INFINITY, x);
  return r;
}

} // namespace

int64_t amp::test::numel(const Shape &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string amp::test::shapeName(const Shape &shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "x" : "") + std::to_string(shape[i]);
  return s.empty() ? "scalar" : s;
}

Shape amp::test::unravel(int64_t i, const Shape &shape) {
  Shape index(shape.size());
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    index[d] = i % shape[d];
    i /= shape[d];
  }
  return index;
}

int64_t amp::test::ravel(const Shape &index, const Shape &shape) {
  int64_t i = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    i = i * shape[d] + index[d];
  return i;
}

int64_t amp::test::broadcastSource(int64_t i, const Shape &out,
                                   const Shape &operand) {
  const Shape outIndex = unravel(i, out);
  const size_t lead = out.size() - operand.size();
  Shape index(operand.size());
  for (size_t d = 0; d < operand.size(); ++d)
    index[d] = operand[d] == 1 ? 0 : outIndex[lead + d];
  return ravel(index, operand);
}

const char *amp::test::dtypeName(amp_dtype_t dtype) {
  return amp_dtype_name(dtype);
}

std::vector<amp_dtype_t> amp::test::floatDtypes() {
  return {AMP_DTYPE_F32, AMP_DTYPE_F16, AMP_DTYPE_BF16};
}

std::vector<amp_dtype_t> amp::test::allDtypes() {
  return {AMP_DTYPE_F32, AMP_DTYPE_F16, AMP_DTYPE_BF16,
          AMP_DTYPE_I32, AMP_DTYPE_I64, AMP_DTYPE_BOOL};
}

bool amp::test::isFloatDtype(amp_dtype_t dtype) {
  return dtype == AMP_DTYPE_F32 || dtype == AMP_DTYPE_F16 ||
         dtype == AMP_DTYPE_BF16;
}

std::vector<std::pair<amp_dtype_t, amp_dtype_t>> amp::test::accumulatorPairs() {
  return {{AMP_DTYPE_F32, AMP_DTYPE_F32},
          {AMP_DTYPE_F16, AMP_DTYPE_F16},
          {AMP_DTYPE_F16, AMP_DTYPE_F32},
          {AMP_DTYPE_BF16, AMP_DTYPE_BF16},
          {AMP_DTYPE_BF16, AMP_DTYPE_F32}};
}

double amp::test::roundTo(amp_dtype_t dtype, double v) {
  return oracleRound(v, formatOf(dtype));
}

double amp::test::roundViaF32(amp_dtype_t dtype, double v) {
  return roundTo(dtype, roundTo(AMP_DTYPE_F32, v));
}

double amp::test::halfUlp(amp_dtype_t dtype, double v) {
  Format f = formatOf(dtype);
  double a = std::fabs(v);
  int e = a == 0.0 || std::isinf(a) ? f.minExponent
                                    : std::max(std::ilogb(a), f.minExponent);
  return std::ldexp(1.0, e - f.precision - 1);
}

double amp::test::outTol(amp_dtype_t dtype, double ref, double err32) {
  return err32 + halfUlp(dtype, std::fabs(ref) + err32);
}

void Accumulation::add(int64_t out, double term) {
  sum[out] += term;
  abs[out] += std::fabs(term);
  ++terms[out];
}

std::vector<double> Accumulation::tol(amp_dtype_t dtype, int64_t extra) const {
  std::vector<double> t;
  for (size_t i = 0; i < sum.size(); ++i)
    t.push_back(outTol(dtype, sum[i], (terms[i] + extra) * kU * abs[i]));
  return t;
}

Tensor::Tensor(amp_dtype_t dtype, Shape shape)
    : dtype_(dtype), shape_(std::move(shape)), size_(numel(shape_)),
      storage_(
          static_cast<size_t>((size_ * amp_dtype_size(dtype) + 7) / 8 + 1)) {}

uint64_t Tensor::bits(int64_t i) const {
  const char *p = reinterpret_cast<const char *>(storage_.data());
  switch (amp_dtype_size(dtype_)) {
  case 1: {
    uint8_t v;
    std::memcpy(&v, p + i, 1);
    return v;
  }
  case 2: {
    uint16_t v;
    std::memcpy(&v, p + 2 * i, 2);
    return v;
  }
  case 4: {
    uint32_t v;
    std::memcpy(&v, p + 4 * i, 4);
    return v;
  }
  default: {
    uint64_t v;
    std::memcpy(&v, p + 8 * i, 8);
    return v;
  }
  }
}

void Tensor::setBits(int64_t i, uint64_t bits) {
  char *p = reinterpret_cast<char *>(storage_.data());
  int64_t size = amp_dtype_size(dtype_);
  std::memcpy(p + size * i, &bits, static_cast<size_t>(size)); // little endian
}

double Tensor::get(int64_t i) const {
  uint64_t b = bits(i);
  switch (dtype_) {
  case AMP_DTYPE_F32: {
    float f;
    uint32_t u = static_cast<uint32_t>(b);
    std::memcpy(&f, &u, 4);
    return f;
  }
  case AMP_DTYPE_F16:
    return halfBitsToFloat(static_cast<uint16_t>(b));
  case AMP_DTYPE_BF16:
    return bfloat16BitsToFloat(static_cast<uint16_t>(b));
  case AMP_DTYPE_I32:
    return static_cast<int32_t>(static_cast<uint32_t>(b));
  case AMP_DTYPE_I64:
    return static_cast<double>(static_cast<int64_t>(b));
  case AMP_DTYPE_BOOL:
    return static_cast<double>(b);
  }
  return 0.0;
}

int64_t Tensor::intValue(int64_t i) const {
  const uint64_t b = bits(i);
  switch (dtype_) {
  case AMP_DTYPE_I32:
    return static_cast<int32_t>(static_cast<uint32_t>(b));
  case AMP_DTYPE_I64:
    return static_cast<int64_t>(b);
  default:
    return b != 0;
  }
}

void Tensor::set(int64_t i, double v) {
  switch (dtype_) {
  case AMP_DTYPE_F32: {
    float f = static_cast<float>(roundTo(AMP_DTYPE_F32, v));
    uint32_t u;
    std::memcpy(&u, &f, 4);
    setBits(i, u);
    return;
  }
  case AMP_DTYPE_F16: // exact: the value is representable
    setBits(i, floatToHalfBits(static_cast<float>(roundTo(dtype_, v))));
    return;
  case AMP_DTYPE_BF16:
    setBits(i, floatToBFloat16Bits(static_cast<float>(roundTo(dtype_, v))));
    return;
  case AMP_DTYPE_I32:
    setBits(i, static_cast<uint32_t>(static_cast<int32_t>(v)));
    return;
  case AMP_DTYPE_I64:
    setBits(i, static_cast<uint64_t>(static_cast<int64_t>(v)));
    return;
  case AMP_DTYPE_BOOL:
    setBits(i, v != 0.0);
    return;
  }
}

std::vector<double> Tensor::values() const {
  std::vector<double> v(static_cast<size_t>(size_));
  for (int64_t i = 0; i < size_; ++i)
    v[i] = get(i);
  return v;
}

bool Tensor::sameBits(const Tensor &other) const {
  if (dtype_ != other.dtype_ || shape_ != other.shape_)
    return false;
  for (int64_t i = 0; i < size_; ++i)
    if (bits(i) != other.bits(i))
      return false;
  return true;
}

Tensor amp::test::randomTensor(amp_dtype_t dtype, const Shape &shape,
                               std::mt19937 &rng, double lo, double hi) {
  Tensor t(dtype, shape);
  std::uniform_real_distribution<double> dist(lo, hi);
  for (int64_t i = 0; i < t.size(); ++i)
    t.set(i, dist(rng));
  return t;
}

Tensor amp::test::sentinelTensor(amp_dtype_t dtype, const Shape &shape) {
  Tensor t(dtype, shape);
  uint64_t pattern = dtype == AMP_DTYPE_F32    ? 0x7fc0dead
                     : dtype == AMP_DTYPE_F16  ? 0x7e5a
                     : dtype == AMP_DTYPE_BF16 ? 0x7fda
                                               : 0x5a5a5a5a5a5a5a5aull;
  for (int64_t i = 0; i < t.size(); ++i)
    t.setBits(i, pattern);
  return t;
}

namespace {

::testing::AssertionResult compare(const Tensor &got,
                                   const std::vector<double> &ref,
                                   const std::vector<double> *tol,
                                   const std::string &what) {
  if (static_cast<int64_t>(ref.size()) != got.size())
    return ::testing::AssertionFailure()
           << what << ": " << got.size() << " elements, expected "
           << ref.size();
  int failures = 0;
  std::ostringstream os;
  os.precision(10);
  for (int64_t i = 0; i < got.size(); ++i) {
    double g = got.get(i), r = ref[i];
    bool ok;
    if (std::isnan(r) || std::isnan(g))
      ok = std::isnan(r) && std::isnan(g);
    else if (std::isinf(r) || std::isinf(g))
      ok = g == r;
    else
      ok = tol ? std::fabs(g - r) <= (*tol)[i] : g == r;
    if (!ok && failures++ < 5) {
      os << "\n  [" << i << "] got " << g << " expected " << r;
      if (tol)
        os << " (|diff| " << std::fabs(g - r) << " > tol " << (*tol)[i] << ")";
    }
  }
  if (failures)
    return ::testing::AssertionFailure()
           << what << ": " << failures << " of " << got.size()
           << " elements differ" << os.str();
  return ::testing::AssertionSuccess();
}

} // namespace

::testing::AssertionResult amp::test::allClose(const Tensor &got,
                                               const std::vector<double> &ref,
                                               const std::vector<double> &tol,
                                               const std::string &what) {
  return compare(got, ref, &tol, what);
}

std::vector<double> amp::test::finiteDifferenceGrad(
    const Tensor &x, const std::vector<double> &w, double h,
    const std::function<std::vector<double>(const Tensor &)> &forward) {
  std::vector<double> grad(static_cast<size_t>(x.size()));
  Tensor probe(AMP_DTYPE_F32, x.shape());
  for (int64_t i = 0; i < x.size(); ++i)
    probe.set(i, x.get(i));
  for (int64_t i = 0; i < x.size(); ++i) {
    const double xi = x.get(i);
    probe.set(i, xi + h);
    const double up = probe.get(i);
    const std::vector<double> plus = forward(probe);
    probe.set(i, xi - h);
    const double down = probe.get(i);
    const std::vector<double> minus = forward(probe);
    probe.set(i, xi);
    double diff = 0.0;
    for (size_t j = 0; j < w.size(); ++j)
      diff += w[j] * (plus[j] - minus[j]);
    grad[i] = diff / (up - down);
  }
  return grad;
}

::testing::AssertionResult amp::test::allEqual(const Tensor &got,
                                               const std::vector<double> &ref,
                                               const std::string &what) {
  return compare(got, ref, nullptr, what);
}

::testing::AssertionResult amp::test::isOk(amp_status_t status) {
  if (status == AMP_STATUS_OK && std::string(amp_kernel_last_error()).empty())
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "status " << status << ": " << amp_kernel_last_error();
}

::testing::AssertionResult amp::test::failsWith(amp_status_t status,
                                                amp_status_t expected,
                                                const std::string &fragment) {
  std::string message = amp_kernel_last_error();
  if (status != expected)
    return ::testing::AssertionFailure() << "status " << status << ", expected "
                                         << expected << " (" << message << ")";
  if (message.find(fragment) == std::string::npos)
    return ::testing::AssertionFailure()
           << "last error \"" << message << "\" does not mention \"" << fragment
           << "\"";
  return ::testing::AssertionSuccess();
}

amp_dtype_t amp::test::badDtype(int32_t raw) {
  amp_dtype_t d;
  std::memcpy(&d, &raw, sizeof(d));
  return d;
}
