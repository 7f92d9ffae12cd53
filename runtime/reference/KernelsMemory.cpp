//===- KernelsMemory.cpp - Allocation, copies and synchronization ---------===//
//
// amp_alloc, amp_free, amp_memcpy, amp_memset and amp_synchronize on the
// reference backend: the C heap with 64-byte alignment, and synchronous
// copies (so synchronization is a no-op).
//
//===----------------------------------------------------------------------===//

#include "reference/KernelCommon.h"

#include <cstdlib>
#include <cstring>

using namespace amp::runtime::kernels;

namespace {
constexpr int64_t kAlignment = 64;
} // namespace

extern "C" {

void *amp_alloc(int64_t bytes, void * /*stream*/) {
  Checker check("amp_alloc");
  // aligned_alloc wants a multiple of the alignment; 0 bytes still get a
  // distinct pointer.
  if (bytes < 0 || bytes > INT64_MAX - kAlignment) {
    check.fail(AMP_STATUS_INVALID_ARGUMENT, "bytes (%lld) is out of range",
               (long long)bytes);
    return nullptr;
  }
  const int64_t rounded =
      bytes == 0 ? kAlignment
                 : (bytes + kAlignment - 1) / kAlignment * kAlignment;
  void *ptr = std::aligned_alloc(static_cast<size_t>(kAlignment),
                                 static_cast<size_t>(rounded));
  if (!ptr)
    check.fail(AMP_STATUS_BACKEND_ERROR, "out of memory allocating %lld bytes",
               (long long)bytes);
  return ptr;
}

amp_status_t amp_free(void *ptr, void * /*stream*/) {
  Checker check("amp_free");
  std::free(ptr);
  return AMP_STATUS_OK;
}

amp_status_t amp_memcpy(void *dst, const void *src, int64_t bytes,
                        void * /*stream*/) {
  Checker check("amp_memcpy");
  if (bytes < 0)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "bytes (%lld) is negative",
                      (long long)bytes);
  if (bytes == 0 || dst == src)
    return AMP_STATUS_OK;
  if (!dst || !src)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "%s is NULL",
                      dst ? "src" : "dst");
  const uintptr_t s = reinterpret_cast<uintptr_t>(src);
  const uintptr_t d = reinterpret_cast<uintptr_t>(dst);
  const uintptr_t len = static_cast<uintptr_t>(bytes);
  if (s - d < len || d - s < len)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "src and dst overlap partially");
  std::memcpy(dst, src, static_cast<size_t>(bytes));
  return AMP_STATUS_OK;
}

amp_status_t amp_memset(void *dst, int32_t value, int64_t bytes,
                        void * /*stream*/) {
  Checker check("amp_memset");
  if (bytes < 0)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "bytes (%lld) is negative",
                      (long long)bytes);
  if (value < 0 || value > 255)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "value (%d) is not a byte",
                      (int)value);
  if (bytes == 0)
    return AMP_STATUS_OK;
  if (!dst)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "dst is NULL");
  std::memset(dst, value, static_cast<size_t>(bytes));
  return AMP_STATUS_OK;
}

amp_status_t amp_synchronize(void * /*stream*/) {
  Checker check("amp_synchronize");
  return AMP_STATUS_OK;
}

} // extern "C"
