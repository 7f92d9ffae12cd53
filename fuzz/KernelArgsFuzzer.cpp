//===- KernelArgsFuzzer.cpp - libFuzzer target of the kernels' checks -----===//
//
// amp-kernel-args-fuzzer: calls reference kernels of amp_runtime/kernels.h
// with fuzzed ranks, dims, dtypes (raw enum values included), axes,
// strides, padding and labels. Every buffer is exactly as large as the
// shape the call claims for it (NULL when that shape is negative, overflows
// or is larger than kMaxBufferElements), so any access beyond it, any
// overflow and any crash is a hole in the kernel's argument checks; a
// rejected call must leave a message in amp_kernel_last_error().
//
//===----------------------------------------------------------------------===//

#include "amp_runtime/checked_size.h"
#include "amp_runtime/kernels.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

namespace {

constexpr int64_t kMaxBufferElements = 4096;

/// Mostly small dims (so that calls get past the shape checks), sometimes
/// any int64.
int64_t fuzzDim(FuzzedDataProvider &in) {
  uint8_t tag = in.ConsumeIntegral<uint8_t>();
  if (tag < 224)
    return tag % 6;
  if (tag < 240)
    return in.ConsumeIntegralInRange<int64_t>(-3, 70000);
  return in.ConsumeIntegral<int64_t>();
}

int32_t fuzzRank(FuzzedDataProvider &in) {
  uint8_t tag = in.ConsumeIntegral<uint8_t>();
  return tag < 240 ? tag % 5 : static_cast<int32_t>(tag % 12) - 2;
}

// Enum arguments take every value of the enum's range (for enumerators 0..5,
// 0..7), so that unknown values reach the kernels' checks. Values beyond the
// range cannot be passed from C++ without undefined behavior (loading them
// is UB, and UBSan reports it here); unittests/Runtime/Kernels/KernelsC.c
// passes those from C.
template <typename Enum> Enum fuzzEnum(FuzzedDataProvider &in, int32_t range) {
  int32_t raw = in.ConsumeIntegralInRange<int32_t>(0, range - 1);
  Enum value;
  static_assert(sizeof(value) == sizeof(raw), "ABI enums are 32-bit");
  std::memcpy(&value, &raw, sizeof(raw));
  return value;
}

amp_dtype_t fuzzDtype(FuzzedDataProvider &in) {
  return fuzzEnum<amp_dtype_t>(in, 8);
}

/// A shape: its rank (possibly out of range) and AMP_KERNEL_MAX_RANK + 4
/// dims, so that a rank above the maximum still reads valid memory.
struct Shape {
  int32_t rank = 0;
  int64_t dims[AMP_KERNEL_MAX_RANK + 4] = {};

  static Shape fuzz(FuzzedDataProvider &in) {
    Shape s;
    s.rank = fuzzRank(in);
    for (int i = 0; i < s.rank && i < AMP_KERNEL_MAX_RANK + 4; ++i)
      s.dims[i] = fuzzDim(in);
    return s;
  }
  int32_t clampedRank() const {
    return rank < 0 ? 0 : rank > AMP_KERNEL_MAX_RANK + 4 ? 0 : rank;
  }
  std::optional<int64_t> count() const {
    return amp::checked::elementCount(dims, clampedRank());
  }
};

/// Bytes per element of a dtype given as any 32-bit value (8, the largest,
/// for an unknown one), read without loading an invalid enum value.
int64_t elementBytes(amp_dtype_t dtype) {
  int32_t raw;
  std::memcpy(&raw, &dtype, sizeof(raw));
  static constexpr int64_t kBytes[] = {4, 2, 2, 4, 8, 1};
  return raw >= 0 && raw < 6 ? kBytes[raw] : 8;
}

/// Backing store of the tensors of one call: each exactly as many bytes as
/// its claimed shape and dtype take, filled with fuzzed bytes; NULL when the
/// claimed size is negative, unknown or too large.
class Buffers {
public:
  explicit Buffers(FuzzedDataProvider &in) : in(in) {}

  void *make(std::optional<int64_t> elements, amp_dtype_t dtype) {
    if (!elements || *elements < 0 || *elements > kMaxBufferElements)
      return nullptr;
    // Heap blocks of exactly this size, so that ASan sees any overrun.
    storage.emplace_back(static_cast<size_t>(*elements * elementBytes(dtype)));
    std::vector<uint8_t> &bytes = storage.back();
    std::vector<uint8_t> fill = in.ConsumeBytes<uint8_t>(bytes.size());
    std::copy(fill.begin(), fill.end(), bytes.begin());
    return bytes.empty() ? nullptr : bytes.data();
  }
  void *make(const Shape &s, amp_dtype_t dtype) {
    return make(s.count(), dtype);
  }

private:
  FuzzedDataProvider &in;
  std::vector<std::vector<uint8_t>> storage;
};

std::vector<int64_t> fuzzArray(FuzzedDataProvider &in, size_t n) {
  std::vector<int64_t> v(n);
  for (int64_t &x : v) {
    uint8_t tag = in.ConsumeIntegral<uint8_t>();
    x = tag < 224 ? tag % 4 : in.ConsumeIntegral<int64_t>();
  }
  return v;
}

amp_status_t callOne(FuzzedDataProvider &in) {
  Buffers buf(in);
  switch (in.ConsumeIntegralInRange<int>(0, 17)) {
  case 0: {
    int64_t n = fuzzDim(in);
    // Every op, and two values past the last.
    auto op = fuzzEnum<amp_unary_op_t>(in, AMP_UNARY_ATANH + 3);
    amp_dtype_t dtype = fuzzDtype(in);
    void *x = buf.make(n, dtype), *y = buf.make(n, dtype);
    return amp_unary(op, x, y, n, dtype, nullptr);
  }
  case 1: {
    Shape l = Shape::fuzz(in), r = Shape::fuzz(in), o = Shape::fuzz(in);
    // Every op, and two values past the last.
    auto op = fuzzEnum<amp_binary_op_t>(in, AMP_BINARY_MOD + 3);
    amp_dtype_t dtype = fuzzDtype(in);
    return amp_binary(op, buf.make(l, dtype), buf.make(r, dtype),
                      buf.make(o, dtype), l.dims, l.rank, r.dims, r.rank,
                      o.dims, o.rank, dtype, nullptr);
  }
  case 2: {
    Shape s = Shape::fuzz(in);
    amp_dtype_t dtype = fuzzDtype(in);
    int64_t axis = in.ConsumeIntegralInRange<int64_t>(-6, 6);
    return amp_softmax(buf.make(s, dtype), buf.make(s, dtype), s.dims, s.rank,
                       dtype, axis, nullptr);
  }
  case 3: {
    Shape s = Shape::fuzz(in);
    std::vector<int64_t> axes = fuzzArray(in, 4);
    int32_t nAxes = in.ConsumeIntegralInRange<int32_t>(-1, 4);
    auto op = fuzzEnum<amp_reduce_op_t>(in, 4);
    amp_dtype_t xDtype = fuzzDtype(in), yDtype = fuzzDtype(in);
    // y's dims are some of x's: at most the product of x's non-zero dims
    // (a reduced zero-size x can have a non-empty y).
    std::optional<int64_t> yCount =
        amp::checked::nonZeroExtent(s.dims, s.clampedRank());
    return amp_reduce(op, buf.make(s, xDtype), buf.make(yCount, yDtype), s.dims,
                      s.rank, axes.data(), nAxes, xDtype, yDtype, nullptr);
  }
  case 4: {
    Shape s = Shape::fuzz(in);
    std::vector<int64_t> perm = fuzzArray(in, AMP_KERNEL_MAX_RANK + 4);
    amp_dtype_t dtype = fuzzDtype(in);
    return amp_transpose(buf.make(s, dtype), buf.make(s, dtype), s.dims, s.rank,
                         perm.data(), dtype, nullptr);
  }
  case 5: {
    Shape x = Shape::fuzz(in), y = Shape::fuzz(in);
    std::vector<int64_t> offsets = fuzzArray(in, AMP_KERNEL_MAX_RANK + 4);
    std::vector<int64_t> strides = fuzzArray(in, AMP_KERNEL_MAX_RANK + 4);
    amp_dtype_t dtype = fuzzDtype(in);
    y.rank = x.rank;
    return amp_slice(buf.make(x, dtype), buf.make(y, dtype), x.dims, y.dims,
                     x.rank, offsets.data(),
                     in.ConsumeBool() ? strides.data() : nullptr, dtype,
                     nullptr);
  }
  case 6: {
    Shape x = Shape::fuzz(in);
    std::vector<int64_t> low = fuzzArray(in, AMP_KERNEL_MAX_RANK + 4);
    std::vector<int64_t> high = fuzzArray(in, AMP_KERNEL_MAX_RANK + 4);
    amp_dtype_t dtype = fuzzDtype(in);
    // y's claimed shape: x padded, computed with checked arithmetic.
    Shape y = x;
    bool fits = true;
    for (int i = 0; i < x.clampedRank(); ++i) {
      std::optional<int64_t> d = amp::checked::add(x.dims[i], low[i]);
      d = d ? amp::checked::add(*d, high[i]) : std::nullopt;
      fits = fits && d;
      y.dims[i] = d ? *d : -1;
    }
    return amp_pad(buf.make(x, dtype), fits ? buf.make(y, dtype) : nullptr,
                   x.dims, x.rank, low.data(), high.data(), dtype, 0.0f,
                   nullptr);
  }
  case 7: {
    Shape out = Shape::fuzz(in);
    int32_t n = in.ConsumeIntegralInRange<int32_t>(-1, 4);
    int64_t axis = in.ConsumeIntegralInRange<int64_t>(-6, 6);
    std::vector<int64_t> sizes = fuzzArray(in, 4);
    amp_dtype_t dtype = fuzzDtype(in);
    int32_t rank = out.clampedRank();
    int64_t ax = axis < 0 ? axis + rank : axis;
    const void *inputs[4] = {};
    for (int32_t i = 0; i < n; ++i) {
      Shape s = out;
      if (ax >= 0 && ax < rank)
        s.dims[ax] = sizes[i];
      inputs[i] = buf.make(s, dtype);
    }
    return amp_concat(n, in.ConsumeBool() ? inputs : nullptr,
                      buf.make(out, dtype), out.dims, out.rank, sizes.data(),
                      dtype, axis, nullptr);
  }
  case 8: {
    Shape x = Shape::fuzz(in), w = Shape::fuzz(in), y = Shape::fuzz(in);
    x.rank = w.rank = y.rank = 4;
    std::vector<int64_t> strides = fuzzArray(in, 2), padding = fuzzArray(in, 4),
                         dilation = fuzzArray(in, 2);
    amp_dtype_t inDtype = fuzzDtype(in), outDtype = fuzzDtype(in);
    int64_t groups = in.ConsumeIntegralInRange<int64_t>(-1, 4);
    return amp_conv2d(buf.make(x, inDtype), buf.make(w, inDtype),
                      buf.make(y, outDtype), x.dims, w.dims, y.dims, inDtype,
                      outDtype, strides.data(), padding.data(), dilation.data(),
                      groups, nullptr);
  }
  case 9: {
    Shape x = Shape::fuzz(in), y = Shape::fuzz(in);
    x.rank = y.rank = 4;
    std::vector<int64_t> kernel = fuzzArray(in, 2), strides = fuzzArray(in, 2),
                         padding = fuzzArray(in, 4),
                         dilation = fuzzArray(in, 2);
    amp_dtype_t dtype = fuzzDtype(in);
    return amp_max_pool2d(
        buf.make(x, dtype), buf.make(y, dtype), x.dims, y.dims, dtype,
        kernel.data(), strides.data(), padding.data(),
        in.ConsumeBool() ? dilation.data() : nullptr, nullptr);
  }
  case 10: {
    Shape x = Shape::fuzz(in), y = Shape::fuzz(in);
    x.rank = y.rank = 4;
    std::vector<int64_t> kernel = fuzzArray(in, 2), strides = fuzzArray(in, 2),
                         padding = fuzzArray(in, 4);
    amp_dtype_t dtype = fuzzDtype(in);
    return amp_avg_pool2d(buf.make(x, dtype), buf.make(y, dtype), x.dims,
                          y.dims, dtype, kernel.data(), strides.data(),
                          padding.data(), in.ConsumeBool(), nullptr);
  }
  case 11: {
    Shape l = Shape::fuzz(in), r = Shape::fuzz(in), o = Shape::fuzz(in);
    auto op = fuzzEnum<amp_compare_op_t>(in, 8);
    amp_dtype_t dtype = fuzzDtype(in);
    return amp_compare(op, buf.make(l, dtype), buf.make(r, dtype),
                       buf.make(o, AMP_DTYPE_BOOL), l.dims, l.rank, r.dims,
                       r.rank, o.dims, o.rank, dtype, nullptr);
  }
  case 12: {
    int64_t n = fuzzDim(in);
    amp_dtype_t xDtype = fuzzDtype(in), yDtype = fuzzDtype(in);
    return amp_cast(buf.make(n, xDtype), buf.make(n, yDtype), n, xDtype, yDtype,
                    nullptr);
  }
  case 13: {
    int64_t channels = fuzzDim(in);
    auto stat = [&] {
      return static_cast<float *>(buf.make(channels, AMP_DTYPE_F32));
    };
    float *runningMean = stat(), *runningVar = stat(), *mean = stat(),
          *invstd = stat(), *newMean = stat(), *newVar = stat();
    return amp_running_stats_update(
        runningMean, runningVar, mean, invstd, newMean, newVar, channels,
        in.ConsumeFloatingPoint<float>(), in.ConsumeFloatingPoint<float>(),
        in.ConsumeFloatingPoint<float>(), nullptr);
  }
  case 14: {
    // Scalar arguments (every kind, the raw value 7 too; any int64 and
    // float, NaN and infinities included) and up to 20 milestones of any
    // values; each pointer NULL sometimes, and new_count sometimes equal to
    // count.
    auto kind = fuzzEnum<amp_lr_schedule_t>(in, 8);
    auto scalar = [&] {
      return in.ConsumeBool()
                 ? nullptr
                 : static_cast<float *>(buf.make(1, AMP_DTYPE_F32));
    };
    float *count = scalar(), *factor = scalar();
    float *newCount = in.ConsumeBool() ? count : scalar();
    int64_t warmup = in.ConsumeIntegral<int64_t>();
    float start = in.ConsumeFloatingPoint<float>();
    int64_t total = in.ConsumeIntegral<int64_t>();
    float finalFactor = in.ConsumeFloatingPoint<float>();
    int64_t stepSize = in.ConsumeIntegral<int64_t>();
    float gamma = in.ConsumeFloatingPoint<float>();
    float power = in.ConsumeFloatingPoint<float>();
    std::vector<int64_t> milestones(in.ConsumeIntegralInRange<size_t>(0, 20));
    for (int64_t &m : milestones)
      m = in.ConsumeIntegral<int64_t>();
    int32_t numMilestones = in.ConsumeBool()
                                ? static_cast<int32_t>(milestones.size())
                                : in.ConsumeIntegral<int32_t>();
    // A count above the array's size would read past it: the call's
    // contract, not a checked input.
    if (numMilestones > static_cast<int32_t>(milestones.size()))
      numMilestones = static_cast<int32_t>(milestones.size());
    return amp_lr_schedule(count, factor, newCount, kind, warmup, start, total,
                           finalFactor, stepSize, gamma, power,
                           milestones.empty() ? nullptr : milestones.data(),
                           numMilestones, nullptr);
  }
  case 15: {
    // y as the call claims it: x's shape with the axis (when valid) k long.
    Shape x = Shape::fuzz(in), y = x;
    int64_t axis = in.ConsumeIntegralInRange<int64_t>(-6, 6);
    int64_t k = fuzzDim(in);
    int32_t a = static_cast<int32_t>(axis < 0 ? axis + x.rank : axis);
    if (a >= 0 && a < x.clampedRank())
      y.dims[a] = k;
    amp_dtype_t dtype = fuzzDtype(in);
    return amp_topk(
        buf.make(x, dtype), static_cast<int64_t *>(buf.make(y, AMP_DTYPE_I64)),
        x.dims, x.rank, axis, k, in.ConsumeIntegral<int32_t>(), dtype, nullptr);
  }
  case 16: {
    // amp_attention or its gradient, the other tensors' shapes derived from
    // q's (k, v, out, lse; k's and v's heads divided by kv_group, mostly 1
    // or a divisor of q's heads, sometimes fuzzed outright) and the mask's
    // mostly the scores' with some dims 1, sometimes fuzzed outright.
    Shape q = Shape::fuzz(in), mask = Shape::fuzz(in);
    const int64_t sk = fuzzDim(in), dv = fuzzDim(in);
    const amp_dtype_t dtype = fuzzDtype(in), maskDtype = fuzzDtype(in);
    const int32_t r = q.clampedRank();
    int64_t kvGroup = in.ConsumeBool() ? 1 : in.ConsumeIntegral<int64_t>();
    if (in.ConsumeBool() && r >= 3 && q.dims[r - 3] > 0)
      kvGroup = in.ConsumeIntegralInRange<int64_t>(1, q.dims[r - 3]);
    Shape k = q, v = q, out = q, lse = q, scores = q;
    if (r >= 2) {
      k.dims[r - 2] = v.dims[r - 2] = scores.dims[r - 1] = sk;
      v.dims[r - 1] = out.dims[r - 1] = dv;
      lse.rank = r - 1;
    }
    if (r >= 3 && kvGroup > 0)
      k.dims[r - 3] = v.dims[r - 3] = q.dims[r - 3] / kvGroup;
    // The work grows with the scores, which no buffer bounds when the head
    // dims are 0: a count above the cap is the call's contract, not a
    // checked input.
    std::optional<int64_t> work = scores.count();
    if (work && *work > kMaxBufferElements * 64)
      return AMP_STATUS_OK;
    if (in.ConsumeBool()) {
      mask.rank = q.rank;
      for (int i = 0; i < r; ++i)
        mask.dims[i] = in.ConsumeBool() ? 1 : scores.dims[i];
    }
    const void *m = in.ConsumeBool() ? buf.make(mask, maskDtype) : nullptr;
    const float scale = in.ConsumeFloatingPoint<float>();
    const int32_t causal = in.ConsumeIntegralInRange<int32_t>(-1, 2);
    auto lsePtr = [&] {
      return static_cast<float *>(buf.make(lse, AMP_DTYPE_F32));
    };
    // Dropout: a 0-d i64 seed or none, and a rate mostly in [0, 1).
    const int64_t *seed =
        in.ConsumeBool()
            ? static_cast<const int64_t *>(buf.make(Shape{}, AMP_DTYPE_I64))
            : nullptr;
    const float rate = in.ConsumeBool()
                           ? in.ConsumeFloatingPointInRange<float>(0.0f, 0.99f)
                           : in.ConsumeFloatingPoint<float>();
    if (in.ConsumeBool())
      return amp_attention(
          buf.make(q, dtype), buf.make(k, dtype), buf.make(v, dtype), m,
          buf.make(out, dtype), lsePtr(), q.dims, q.rank, sk, dv, kvGroup,
          mask.dims, dtype, maskDtype, scale, causal, seed, rate, nullptr);
    return amp_attention_grad(
        buf.make(out, dtype), buf.make(q, dtype), buf.make(k, dtype),
        buf.make(v, dtype), m, buf.make(out, dtype), lsePtr(),
        buf.make(q, dtype), buf.make(k, dtype), buf.make(v, dtype), q.dims,
        q.rank, sk, dv, kvGroup, mask.dims, dtype, maskDtype, scale, causal,
        seed, rate, nullptr);
  }
  default: {
    int64_t rows = fuzzDim(in), classes = fuzzDim(in);
    amp_dtype_t logitsDtype = fuzzDtype(in), labelsDtype = fuzzDtype(in);
    const int64_t dims[2] = {rows, classes};
    float loss = 0;
    const int64_t ignoreIndex =
        in.ConsumeBool() ? AMP_IGNORE_NONE : in.ConsumeIntegral<int64_t>();
    // Mostly a valid smoothing, sometimes any float.
    const float smoothing = in.ConsumeBool() ? in.ConsumeProbability<float>()
                                             : in.ConsumeFloatingPoint<float>();
    return amp_cross_entropy(
        buf.make(amp::checked::elementCount(dims, 2), logitsDtype),
        buf.make(rows, labelsDtype), &loss, rows, classes, ignoreIndex,
        smoothing, logitsDtype, labelsDtype, nullptr);
  }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider in(data, size);
  amp_status_t status = callOne(in);
  if (status != AMP_STATUS_OK && amp_kernel_last_error()[0] == '\0') {
    __builtin_printf("fuzzer invariant broken: status %d without a message\n",
                     (int)status);
    std::abort();
  }
  return 0;
}
