//===- KernelCommon.cpp - Errors and argument checks of the kernels -------===//
//
// The thread-local last error behind amp_kernel_last_error() and the
// argument checks that every reference kernel runs before touching memory.
//
//===----------------------------------------------------------------------===//

#include "reference/KernelCommon.h"
#include "reference/GemmCommon.h"

#include "amp_runtime/checked_size.h"

#include <cstdarg>
#include <cstdio>
#include <string>

using namespace amp::runtime;
using namespace amp::runtime::kernels;

namespace {
thread_local std::string lastError;

/// Element counts stay below 2^60 so that byte sizes and the intermediate
/// products of index arithmetic cannot overflow int64_t.
constexpr int64_t kMaxElements = int64_t{1} << 60;
} // namespace

const char *amp::runtime::kernels::kernelLastError() {
  return lastError.c_str();
}

Checker::Checker(const char *function) : fn(function) { lastError.clear(); }

amp_status_t Checker::fail(amp_status_t status, const char *fmt, ...) {
  char message[512];
  va_list args;
  va_start(args, fmt);
  vsnprintf(message, sizeof(message), fmt, args);
  va_end(args);
  lastError = std::string(fn) + ": " + message;
  return status;
}

amp_status_t Checker::dtype(const char *name, amp_dtype_t dtype,
                            unsigned allowed) {
  int32_t raw = rawEnum(dtype);
  if (raw < AMP_DTYPE_F32 || raw > AMP_DTYPE_BOOL)
    return fail(AMP_STATUS_INVALID_ARGUMENT, "unknown %s %d", name, raw);
  if (!(allowed & (1u << raw))) {
    const char *expected = allowed == kFloatDtypes   ? "f32, f16 or bf16"
                           : allowed == kIndexDtypes ? "i32 or i64"
                           : allowed == kNumericDtypes
                               ? "f32, f16, bf16, i32 or i64"
                           : allowed == kBoolDtype ? "bool"
                                                   : "another dtype";
    return fail(AMP_STATUS_NOT_SUPPORTED, "%s is %s; expected %s", name,
                dtypeName(dtype), expected);
  }
  return AMP_STATUS_OK;
}

amp_status_t Checker::accumulatorDtype(const char *outName, amp_dtype_t out,
                                       amp_dtype_t in) {
  if (amp_status_t s = dtype(outName, out, kFloatDtypes))
    return s;
  if (out != in && out != AMP_DTYPE_F32)
    return fail(AMP_STATUS_NOT_SUPPORTED,
                "%s is %s; it must be the input's dtype (%s) or f32", outName,
                dtypeName(out), dtypeName(in));
  return AMP_STATUS_OK;
}

amp_status_t Checker::count(const char *name, int64_t n) {
  if (n < 0 || n >= kMaxElements)
    return fail(AMP_STATUS_INVALID_ARGUMENT, "%s (%lld) is out of range", name,
                (long long)n);
  return AMP_STATUS_OK;
}

amp_status_t Checker::allocation(int64_t bytes, int64_t max) {
  if (bytes < 0 || bytes > max)
    return fail(AMP_STATUS_INVALID_ARGUMENT, "bytes (%lld) is out of range",
                (long long)bytes);
  return AMP_STATUS_OK;
}

amp_status_t Checker::shape(const char *name, const int64_t *dims, int32_t rank,
                            int64_t *numel) {
  if (rank < 0 || rank > kMaxRank)
    return fail(rank < 0 ? AMP_STATUS_INVALID_ARGUMENT
                         : AMP_STATUS_NOT_SUPPORTED,
                "rank of %s (%d) is not in [0, %d]", name, (int)rank, kMaxRank);
  if (rank > 0 && !dims)
    return fail(AMP_STATUS_INVALID_ARGUMENT, "dims of %s are NULL", name);
  for (int32_t i = 0; i < rank; ++i)
    if (dims[i] < 0)
      return fail(AMP_STATUS_INVALID_ARGUMENT,
                  "dimension %d of %s is negative (%lld)", (int)i, name,
                  (long long)dims[i]);
  // The limit bounds the non-zero dims of a zero-size shape too: the
  // strides of its loop nests are that large.
  std::optional<int64_t> n =
      amp::checked::elementCount(dims, rank, kMaxElements - 1);
  if (!n)
    return fail(AMP_STATUS_INVALID_ARGUMENT, "%s has too many elements",
                name);
  if (numel)
    *numel = *n;
  return AMP_STATUS_OK;
}

amp_status_t Checker::pointer(const char *name, const void *ptr, int64_t numel,
                              amp_dtype_t dtype) {
  if (numel == 0)
    return AMP_STATUS_OK;
  if (!ptr)
    return fail(AMP_STATUS_INVALID_ARGUMENT, "%s is NULL", name);
  int64_t size = amp_dtype_size(dtype);
  if (size > 0 && reinterpret_cast<uintptr_t>(ptr) % size)
    return fail(AMP_STATUS_INVALID_ARGUMENT,
                "%s (%p) is not aligned to its element size (%lld bytes)", name,
                ptr, (long long)size);
  return AMP_STATUS_OK;
}

amp_status_t Checker::pointers(std::initializer_list<Operand> operands) {
  for (const Operand &o : operands)
    if (amp_status_t s = pointer(o.name, o.ptr, o.numel, o.dtype))
      return s;
  return AMP_STATUS_OK;
}

amp_status_t Checker::indices(const char *what, const void *ids,
                              amp_dtype_t dtype, int64_t n, int64_t bound,
                              std::optional<int64_t> skip, int64_t *inRange) {
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t id = loadIndex(ids, dtype, i);
    if (id == skip)
      continue;
    if (id < 0 || id >= bound)
      return fail(AMP_STATUS_INVALID_ARGUMENT,
                  "%s %lld at position %lld is outside [0, %lld)", what,
                  (long long)id, (long long)i, (long long)bound);
    ++count;
  }
  if (inRange)
    *inRange = count;
  return AMP_STATUS_OK;
}

amp_status_t Checker::copy(void *dst, const void *src, int64_t bytes,
                           bool *nothing) {
  *nothing = true;
  if (bytes < 0)
    return fail(AMP_STATUS_INVALID_ARGUMENT, "bytes (%lld) is negative",
                (long long)bytes);
  if (bytes == 0 || dst == src)
    return AMP_STATUS_OK;
  if (!dst || !src)
    return fail(AMP_STATUS_INVALID_ARGUMENT, "%s is NULL", dst ? "src" : "dst");
  const uintptr_t s = reinterpret_cast<uintptr_t>(src);
  const uintptr_t d = reinterpret_cast<uintptr_t>(dst);
  const uintptr_t len = static_cast<uintptr_t>(bytes);
  if (s - d < len || d - s < len)
    return fail(AMP_STATUS_INVALID_ARGUMENT, "src and dst overlap partially");
  *nothing = false;
  return AMP_STATUS_OK;
}

amp_status_t Checker::memset(const void *dst, int32_t value, int64_t bytes) {
  if (bytes < 0)
    return fail(AMP_STATUS_INVALID_ARGUMENT, "bytes (%lld) is negative",
                (long long)bytes);
  if (value < 0 || value > 255)
    return fail(AMP_STATUS_INVALID_ARGUMENT, "value (%d) is not a byte",
                (int)value);
  if (bytes > 0 && !dst)
    return fail(AMP_STATUS_INVALID_ARGUMENT, "dst is NULL");
  return AMP_STATUS_OK;
}

amp_status_t Checker::bufferList(int32_t n, const void *const *in,
                                 void *const *out, const int64_t *sizes,
                                 const amp_dtype_t *dtypes) {
  if (n < 0)
    return fail(AMP_STATUS_INVALID_ARGUMENT, "n_buffers (%d) is < 0", (int)n);
  if (n > 0 && (!in || !out || !sizes || !dtypes))
    return fail(AMP_STATUS_INVALID_ARGUMENT,
                "the buffer, size and dtype arrays must not be NULL");
  for (int32_t i = 0; i < n; ++i) {
    if (amp_status_t s = count("a buffer size", sizes[i]))
      return s;
    if (amp_status_t s = dtype("a buffer dtype", dtypes[i], kFloatDtypes))
      return s;
    if (amp_status_t s = pointer("an input buffer", in[i], sizes[i], dtypes[i]))
      return s;
    if (amp_status_t s =
            pointer("an output buffer", out[i], sizes[i], dtypes[i]))
      return s;
  }
  return AMP_STATUS_OK;
}

amp_status_t Checker::axis(const char *name, int64_t axis, int32_t rank,
                           int32_t *axisOut) {
  if (axis < -static_cast<int64_t>(rank) || axis >= rank)
    return fail(AMP_STATUS_INVALID_ARGUMENT,
                "%s %lld is out of range for rank %d", name, (long long)axis,
                (int)rank);
  *axisOut = static_cast<int32_t>(axis < 0 ? axis + rank : axis);
  return AMP_STATUS_OK;
}

amp_status_t Checker::broadcastResult(std::initializer_list<ShapeRef> operands,
                                      ShapeRef out) {
  int32_t rank = 0;
  for (const ShapeRef &o : operands)
    rank = o.rank > rank ? o.rank : rank;
  bool matches = rank == out.rank;
  for (int32_t i = 0; i < rank; ++i) {
    // The common size of dimension i and the first operand that set it.
    int64_t size = 1;
    const char *owner = nullptr;
    for (const ShapeRef &o : operands) {
      const int32_t lead = rank - o.rank;
      const int64_t d = i < lead ? 1 : o.dims[i - lead];
      if (d == 1)
        continue;
      if (owner && d != size)
        return fail(AMP_STATUS_INVALID_ARGUMENT,
                    "%s and %s do not broadcast: dimension %d is %lld vs %lld",
                    owner, o.name, (int)i, (long long)size, (long long)d);
      size = d;
      owner = o.name;
    }
    matches = matches && out.dims[i] == size;
  }
  if (!matches)
    return fail(AMP_STATUS_INVALID_ARGUMENT,
                "%s's shape is not the broadcast of the operands' shapes",
                out.name);
  return AMP_STATUS_OK;
}

amp_status_t Checker::broadcastsTo(ShapeRef operand, ShapeRef out) {
  if (operand.rank > out.rank)
    return fail(AMP_STATUS_INVALID_ARGUMENT,
                "%s has a higher rank (%d) than %s (%d)", operand.name,
                (int)operand.rank, out.name, (int)out.rank);
  const int32_t lead = out.rank - operand.rank;
  for (int32_t i = 0; i < operand.rank; ++i)
    if (operand.dims[i] != 1 && operand.dims[i] != out.dims[lead + i])
      return fail(AMP_STATUS_INVALID_ARGUMENT,
                  "dimension %d of %s (%lld) is neither 1 nor %s's (%lld)",
                  (int)i, operand.name, (long long)operand.dims[i], out.name,
                  (long long)out.dims[lead + i]);
  return AMP_STATUS_OK;
}

amp_status_t Checker::window2d(int64_t h, int64_t w, int64_t kh, int64_t kw,
                               const int64_t *strides, const int64_t *padding,
                               const int64_t *dilation, Window2d *out) {
  // A limit that keeps every derived extent far from int64_t overflow.
  constexpr int64_t kMaxGeometry = int64_t{1} << 30;
  const int64_t one[2] = {1, 1}, zero[4] = {0, 0, 0, 0};
  const int64_t *st = strides ? strides : one;
  const int64_t *pad = padding ? padding : zero;
  const int64_t *dil = dilation ? dilation : one;
  for (int i = 0; i < 2; ++i)
    if (st[i] < 1 || st[i] > kMaxGeometry || dil[i] < 1 ||
        dil[i] > kMaxGeometry)
      return fail(AMP_STATUS_INVALID_ARGUMENT,
                  "strides and dilation must be in [1, 2^30], got strides "
                  "[%lld, %lld] dilation [%lld, %lld]",
                  (long long)st[0], (long long)st[1], (long long)dil[0],
                  (long long)dil[1]);
  for (int i = 0; i < 4; ++i)
    if (pad[i] < 0 || pad[i] > kMaxGeometry)
      return fail(AMP_STATUS_INVALID_ARGUMENT,
                  "padding %d (%lld) is not in [0, 2^30]", i,
                  (long long)pad[i]);
  const amp::checked::WindowExtent eh = amp::checked::windowExtent(
      h, pad[0], pad[2], kh, st[0], dil[0]);
  const amp::checked::WindowExtent ew = amp::checked::windowExtent(
      w, pad[1], pad[3], kw, st[1], dil[1]);
  if (!eh.output || !ew.output)
    return fail(AMP_STATUS_INVALID_ARGUMENT,
                "the dilated kernel is larger than the padded input");
  out->kh = kh, out->kw = kw, out->sh = st[0], out->sw = st[1];
  out->dh = dil[0], out->dw = dil[1];
  out->pt = pad[0], out->pl = pad[1], out->pb = pad[2], out->pr = pad[3];
  out->oh = *eh.output;
  out->ow = *ew.output;
  return AMP_STATUS_OK;
}

extern "C" const char *amp_kernel_last_error(void) { return kernelLastError(); }
