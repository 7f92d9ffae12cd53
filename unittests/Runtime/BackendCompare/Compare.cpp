//===- Compare.cpp - Backends, buffers and comparisons --------------------===//

#include "Compare.h"

#include <dlfcn.h>

#include <cmath>
#include <cstring>
#include <sstream>

using namespace amp;
using namespace amp::compare;
using amp::runtime::BFloat16;
using amp::runtime::Half;

std::vector<amp_dtype_t> amp::compare::floatDtypes() {
  return {AMP_DTYPE_F32, AMP_DTYPE_F16, AMP_DTYPE_BF16};
}

std::vector<amp_dtype_t> amp::compare::allDtypes() {
  return {AMP_DTYPE_F32, AMP_DTYPE_F16, AMP_DTYPE_BF16,
          AMP_DTYPE_I32, AMP_DTYPE_I64, AMP_DTYPE_BOOL};
}

int64_t Host::numel() const {
  return static_cast<int64_t>(bytes.size()) / amp_dtype_size(dtype);
}

double Host::get(int64_t i) const {
  const char *p = bytes.data() + i * amp_dtype_size(dtype);
  switch (dtype) {
  case AMP_DTYPE_F32: {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case AMP_DTYPE_F16: {
    Half h;
    std::memcpy(&h, p, 2);
    return runtime::toF32(h);
  }
  case AMP_DTYPE_BF16: {
    BFloat16 h;
    std::memcpy(&h, p, 2);
    return runtime::toF32(h);
  }
  case AMP_DTYPE_I32: {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case AMP_DTYPE_I64: {
    int64_t v;
    std::memcpy(&v, p, 8);
    return static_cast<double>(v);
  }
  case AMP_DTYPE_BOOL:
    return *p != 0;
  }
  return 0;
}

void Host::set(int64_t i, double v) {
  char *p = bytes.data() + i * amp_dtype_size(dtype);
  switch (dtype) {
  case AMP_DTYPE_F32: {
    float f = static_cast<float>(v);
    std::memcpy(p, &f, 4);
    return;
  }
  case AMP_DTYPE_F16: {
    Half h = runtime::fromF32<Half>(static_cast<float>(v));
    std::memcpy(p, &h, 2);
    return;
  }
  case AMP_DTYPE_BF16: {
    BFloat16 h = runtime::fromF32<BFloat16>(static_cast<float>(v));
    std::memcpy(p, &h, 2);
    return;
  }
  case AMP_DTYPE_I32: {
    int32_t x = static_cast<int32_t>(v);
    std::memcpy(p, &x, 4);
    return;
  }
  case AMP_DTYPE_I64: {
    int64_t x = static_cast<int64_t>(v);
    std::memcpy(p, &x, 8);
    return;
  }
  case AMP_DTYPE_BOOL:
    *p = v != 0;
    return;
  }
}

Host amp::compare::zeros(amp_dtype_t dtype, int64_t n) {
  Host h;
  h.dtype = dtype;
  h.bytes.assign(static_cast<size_t>(n * amp_dtype_size(dtype)), 0);
  return h;
}

Host amp::compare::randomHost(std::mt19937_64 &rng, amp_dtype_t dtype,
                              int64_t n, double lo, double hi) {
  Host h = zeros(dtype, n);
  std::uniform_real_distribution<double> dist(lo, hi);
  for (int64_t i = 0; i < n; ++i)
    h.set(i, dist(rng));
  return h;
}

Host amp::compare::randomIndices(std::mt19937_64 &rng, amp_dtype_t dtype,
                                 int64_t n, int64_t bound) {
  Host h = zeros(dtype, n);
  std::uniform_int_distribution<int64_t> dist(0, bound - 1);
  for (int64_t i = 0; i < n; ++i)
    h.set(i, static_cast<double>(dist(rng)));
  return h;
}

//===----------------------------------------------------------------------===//
// Backends and buffers
//===----------------------------------------------------------------------===//

Buf &Buf::operator=(Buf &&other) noexcept {
  std::swap(backend, other.backend);
  std::swap(ptr, other.ptr);
  std::swap(bytes, other.bytes);
  std::swap(dtype, other.dtype);
  return *this;
}

Buf::~Buf() {
  if (backend && ptr)
    (void)AMP_CALL(*backend, amp_free, ptr, nullptr);
}

std::unique_ptr<Backend> Backend::load(const std::string &name,
                                       const std::string &path) {
  auto b = std::unique_ptr<Backend>(new Backend);
  b->label = name;
  b->handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!b->handle)
    throw CaseFailure{"cannot load " + path + ": " + ::dlerror()};
  return b;
}

Backend::~Backend() {
  // Left loaded: buffers of static lifetime may still be freed at exit.
}

void *Backend::symbol(const char *name) const {
  void *s = ::dlsym(handle, name);
  if (!s)
    throw CaseFailure{label + " lacks " + name};
  return s;
}

std::string Backend::lastError() const {
  std::string kernel = AMP_CALL(*this, amp_kernel_last_error);
  if (!kernel.empty())
    return kernel;
  const char *gemm = AMP_CALL(*this, amp_gemm_last_error);
  return gemm ? gemm : "";
}

void Backend::ok(amp_status_t status, const char *what) {
  if (status != AMP_STATUS_OK)
    throw CaseFailure{label + ": " + what + " returned status " +
                      std::to_string(status) + ": " + lastError()};
}

Buf Backend::alloc(amp_dtype_t dtype, int64_t numel) {
  const int64_t bytes = numel * amp_dtype_size(dtype);
  void *p = AMP_CALL(*this, amp_alloc, bytes, nullptr);
  if (!p)
    throw CaseFailure{label + ": amp_alloc failed: " + lastError()};
  return Buf(this, p, bytes, dtype);
}

Buf Backend::upload(const Host &host) {
  Buf b = alloc(host.dtype, host.numel());
  ok(AMP_CALL(*this, amp_memcpy, b.ptr, host.bytes.data(), b.bytes, nullptr),
     "amp_memcpy (upload)");
  return b;
}

Host Backend::download(const Buf &buf) {
  sync();
  Host h = zeros(buf.dtype, buf.bytes / amp_dtype_size(buf.dtype));
  ok(AMP_CALL(*this, amp_memcpy, h.bytes.data(), buf.ptr, buf.bytes, nullptr),
     "amp_memcpy (download)");
  return h;
}

void Backend::sync() {
  ok(AMP_CALL(*this, amp_synchronize, nullptr), "amp_synchronize");
}

//===----------------------------------------------------------------------===//
// Comparisons
//===----------------------------------------------------------------------===//

namespace {

/// The spacing of `dtype` at |v| (the subnormal spacing below the normal
/// range).
double ulpAt(amp_dtype_t dtype, double v) {
  int mantissa = 23, minExp = -126;
  if (dtype == AMP_DTYPE_F16) {
    mantissa = 10;
    minExp = -14;
  } else if (dtype == AMP_DTYPE_BF16) {
    mantissa = 7;
  }
  int e = v == 0 ? minExp : std::max(std::ilogb(v), minExp);
  return std::ldexp(1.0, e - mantissa);
}

} // namespace

void Context::fail(const std::string &message) {
  ++failures;
  std::fprintf(stderr, "FAIL %s: %s\n", caseName.c_str(), message.c_str());
}

bool Context::expectClose(const std::string &what, const Host &ref,
                          const Host &dev, Tolerance tol) {
  ++checks;
  if (ref.dtype != dev.dtype || ref.bytes.size() != dev.bytes.size()) {
    fail(what + ": the outputs differ in dtype or size");
    return false;
  }
  if (tol.bitwise) {
    if (ref.bytes == dev.bytes)
      return true;
    const int64_t size = amp_dtype_size(ref.dtype);
    for (int64_t i = 0; i < ref.numel(); ++i)
      if (std::memcmp(ref.bytes.data() + i * size, dev.bytes.data() + i * size,
                      size) != 0) {
        double r = ref.get(i), d = dev.get(i);
        if (std::isnan(r) && std::isnan(d))
          continue; // NaN payloads may differ (CudaDevice.cuh)
        std::ostringstream os;
        os << what << ": element " << i << " of " << ref.numel()
           << " differs bitwise: reference " << r << ", cuda " << d;
        fail(os.str());
        return false;
      }
    return true;
  }
  for (int64_t i = 0; i < ref.numel(); ++i) {
    const double r = ref.get(i), d = dev.get(i);
    if (std::isnan(r) || std::isnan(d)) {
      if (std::isnan(r) && std::isnan(d))
        continue;
    } else if (std::isinf(r) || std::isinf(d)) {
      if (r == d)
        continue;
    } else {
      const double diff = std::fabs(r - d);
      double bound = tol.abs + tol.rel * std::fabs(r);
      if (tol.ulps > 0)
        bound = std::max(bound, tol.ulps * ulpAt(ref.dtype, std::fabs(r)));
      if (diff <= bound)
        continue;
    }
    std::ostringstream os;
    os.precision(9);
    os << what << ": element " << i << " of " << ref.numel() << ": reference "
       << r << ", cuda " << d << " (" << amp_dtype_name(ref.dtype) << ")";
    fail(os.str());
    return false;
  }
  return true;
}

bool Context::expectSameStatus(const std::string &what, amp_status_t ref,
                               amp_status_t dev) {
  ++checks;
  if (ref == dev)
    return true;
  fail(what + ": reference returned " + std::to_string(ref) + ", cuda " +
       std::to_string(dev));
  return false;
}
