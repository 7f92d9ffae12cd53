//===- CompareCast.cpp - amp_cast, amp_fill, amp_scaled_grad_seed ---------===//
//
// Every dtype pair of amp_cast (the float pairs, and those with an integer
// or bool side: truncation, saturation, NaN, the i64 wrap, bool bytes other
// than 1) and every dtype of amp_fill, with special values and NaNs with
// payloads: the CUDA results must be byte for byte the reference's (NaN
// payloads included, which Tolerance::exact() lets differ), as
// docs/runtime-kernels.md promises.
//
//===----------------------------------------------------------------------===//

#include "CompareBuffers.h"
#include "ElementwiseCompareUtil.h"

#include <cmath>

using namespace amp::compare;

namespace {

/// Bitwise, and then also every NaN's payload.
void expectSameNaNBits(Context &c, const std::string &what, const Host &ref,
                       const Host &dev) {
  if (!c.expectClose(what, ref, dev, Tolerance::exact()))
    return;
  ++c.checks;
  if (ref.bytes != dev.bytes)
    c.fail(what + ": a NaN's bits differ");
}

/// Stores raw bit patterns (NaNs with payloads, signalling ones included)
/// every 17th element.
void addNaNPayloads(Host &h) {
  const int64_t size = amp_dtype_size(h.dtype);
  const uint32_t f32[] = {0x7fa00001u, 0xffc12345u, 0x7f800001u, 0xff8fffffu};
  const uint16_t f16[] = {0x7d01u, 0xfe3fu, 0x7c01u, 0xffffu};
  const uint16_t bf16[] = {0x7f81u, 0xffc5u, 0x7fbfu, 0xff80u | 0x40u};
  for (int64_t i = 3, k = 0; i < h.numel(); i += 17, ++k) {
    char *p = h.bytes.data() + i * size;
    if (h.dtype == AMP_DTYPE_F32)
      std::memcpy(p, &f32[k % 4], 4);
    else if (h.dtype == AMP_DTYPE_F16)
      std::memcpy(p, &f16[k % 4], 2);
    else
      std::memcpy(p, &bf16[k % 4], 2);
  }
}

Host runCastOn(Backend &b, const Host &x, amp_dtype_t yDtype, int64_t offset,
               bool inPlace) {
  Placed px = place(b, x, offset);
  if (inPlace) {
    b.ok(AMP_CALL(b, amp_cast, px.ptr, px.ptr, x.numel(), x.dtype, yDtype,
                  nullptr));
    return fetch(b, px);
  }
  Placed py = place(b, zeros(yDtype, x.numel()), offset);
  b.ok(AMP_CALL(b, amp_cast, px.ptr, py.ptr, x.numel(), x.dtype, yDtype,
                nullptr));
  return fetch(b, py);
}

/// Both backends cast x to `to` with the same bytes; at n = 1003 also at
/// an odd offset, and in place when the dtype does not change.
void expectCastsAgree(Context &c, const Host &x, amp_dtype_t to) {
  const amp_dtype_t from = x.dtype;
  const int64_t n = x.numel();
  const std::string what =
      std::string("cast ") + amp_dtype_name(from) + " -> " + amp_dtype_name(to);
  expectSameNaNBits(c, label(what, from, n), runCastOn(*c.ref, x, to, 0, false),
                    runCastOn(*c.dev, x, to, 0, false));
  if (n != 1003)
    return;
  expectSameNaNBits(c, label(what, from, n, 1),
                    runCastOn(*c.ref, x, to, 1, false),
                    runCastOn(*c.dev, x, to, 1, false));
  if (from == to)
    expectSameNaNBits(c, label(what + " in place", from, n),
                      runCastOn(*c.ref, x, to, 0, true),
                      runCastOn(*c.dev, x, to, 0, true));
}

} // namespace

AMP_COMPARE_CASE(cast_all_pairs) {
  for (amp_dtype_t from : floatDtypes())
    for (amp_dtype_t to : floatDtypes())
      for (int64_t n : flatSizes()) {
        // Wide values: f32 -> f16 overflows, subnormals, round-to-even ties.
        Host x = mixedHost(c.rng, from, n, -70000, 70000);
        for (int64_t i = 1; i < n; i += 11)
          x.set(i, std::ldexp(c.rng() % 2048 + 0.5, -int(c.rng() % 40)));
        addNaNPayloads(x);
        expectCastsAgree(c, x, to);
      }
}

namespace {

bool isFloat(amp_dtype_t dtype) { return dtype <= AMP_DTYPE_BF16; }

/// Inputs of the casts with an integer or bool side. Floats: wide random
/// values, halves, the values next to +-2^31 and +-2^63 and beyond, and
/// NaNs with payloads. Integers: random bit patterns (every magnitude, so
/// i64 -> i32 wraps), small values, 2^24 + 1 and the i32 whose f32 rounding
/// makes a bf16 tie, the extremes. Bool: bytes 0 and 1, and some 2 and
/// 255, which are true.
Host castInput(std::mt19937_64 &rng, amp_dtype_t dtype, int64_t n) {
  if (isFloat(dtype)) {
    Host x = mixedHost(rng, dtype, n, -5e9, 5e9);
    const double edges[] = {
        2.5,          -2.5,         0.5,           -0.99,
        2147483520.0, 2147483648.0, -2147483648.0, -2147483904.0,
        9.2233715e18, 9.3e18,       -9.3e18,       -9223372036854775808.0};
    for (int64_t i = 2, k = 0; i < n; i += 7, ++k)
      x.set(i, edges[k % 12]);
    for (int64_t i = 4; i < n; i += 9)
      x.set(i, std::trunc(x.get(i) / 1e6)); // small integers and zeros
    addNaNPayloads(x);
    return x;
  }
  Host x = zeros(dtype, n);
  const int64_t size = amp_dtype_size(dtype);
  for (int64_t i = 0; i < n; ++i) {
    uint64_t bits = rng();
    if (dtype == AMP_DTYPE_BOOL)
      bits = (bits & 7) < 6 ? (bits & 1) : ((bits & 1) ? 2 : 255);
    else if (i % 5 == 1)
      bits = static_cast<uint64_t>(static_cast<int64_t>(bits % 201) - 100);
    else if (i % 5 == 3) {
      const int64_t edges[] = {
          16777217,  16842753,         -16842753,
          INT32_MAX, INT32_MIN,        INT64_MAX,
          INT64_MIN, int64_t{1} << 31, 4611686293305294849LL};
      bits = static_cast<uint64_t>(edges[(i / 5) % 9]);
    }
    std::memcpy(x.bytes.data() + i * size, &bits, static_cast<size_t>(size));
  }
  return x;
}

} // namespace

AMP_COMPARE_CASE(cast_integer_and_bool_pairs) {
  for (amp_dtype_t from : allDtypes())
    for (amp_dtype_t to : allDtypes()) {
      if (isFloat(from) && isFloat(to))
        continue; // cast_all_pairs
      for (int64_t n : flatSizes()) {
        const Host x = castInput(c.rng, from, n);
        expectCastsAgree(c, x, to);
      }
    }
}

namespace {

Host runFillOn(Backend &b, amp_dtype_t dt, int64_t n, float value,
               int64_t offset) {
  Placed py = place(b, zeros(dt, n), offset);
  b.ok(AMP_CALL(b, amp_fill, py.ptr, n, dt, value, nullptr));
  return fetch(b, py);
}

Host runSeedOn(Backend &b, amp_dtype_t dt, int64_t n, float scale,
               int64_t offset) {
  Host s = zeros(AMP_DTYPE_F32, 1);
  std::memcpy(s.bytes.data(), &scale, 4);
  Buf ps = b.upload(s);
  Placed py = place(b, zeros(dt, n), offset);
  b.ok(AMP_CALL(b, amp_scaled_grad_seed, static_cast<const float *>(ps.get()),
                py.ptr, n, dt, nullptr));
  return fetch(b, py);
}

} // namespace

AMP_COMPARE_CASE(fill_all_dtypes) {
  const float nan = std::nanf("0x12345"); // a payload the f16 rounding keeps
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> floats = {0.0f,      -0.0f, 1.0f, -3.3f,
                                     65519.99f, 1e-7f, nan,  -inf};
  const std::vector<float> ints = {0.0f, 1.0f, -7.0f, 16777216.0f};
  for (amp_dtype_t dt : allDtypes()) {
    const bool isFloat = dt <= AMP_DTYPE_BF16;
    for (float v : isFloat                ? floats
                   : dt == AMP_DTYPE_BOOL ? std::vector<float>{0.0f, 1.0f}
                                          : ints)
      for (int64_t n : flatSizes()) {
        const std::string what = "fill " + std::to_string(v);
        expectSameNaNBits(c, label(what, dt, n), runFillOn(*c.ref, dt, n, v, 0),
                          runFillOn(*c.dev, dt, n, v, 0));
        if (n == 1003)
          expectSameNaNBits(c, label(what, dt, n, 1),
                            runFillOn(*c.ref, dt, n, v, 1),
                            runFillOn(*c.dev, dt, n, v, 1));
      }
  }
}

AMP_COMPARE_CASE(scaled_grad_seed) {
  const float nan = std::nanf("0x4321");
  for (amp_dtype_t dt : floatDtypes())
    for (float scale : {1.0f, 65536.0f, 1024.3f, 3e-8f, nan})
      for (int64_t n : flatSizes()) {
        const std::string what = "scaled_grad_seed " + std::to_string(scale);
        expectSameNaNBits(c, label(what, dt, n),
                          runSeedOn(*c.ref, dt, n, scale, 0),
                          runSeedOn(*c.dev, dt, n, scale, 0));
        if (n == 1003)
          expectSameNaNBits(c, label(what, dt, n, 1),
                            runSeedOn(*c.ref, dt, n, scale, 1),
                            runSeedOn(*c.dev, dt, n, scale, 1));
      }
}

AMP_COMPARE_CASE(cast_fill_errors) {
  char host[64] = {};
  void *p = host;
  auto both = [&](const std::string &what, auto call) {
    expectRejected(c, what, call);
  };
  both("cast in place across dtypes", [&](Backend &b) {
    return AMP_CALL(b, amp_cast, p, p, 4, AMP_DTYPE_F32, AMP_DTYPE_F16,
                    nullptr);
  });
  both("cast in place i32 -> f32", [&](Backend &b) {
    return AMP_CALL(b, amp_cast, p, p, 4, AMP_DTYPE_I32, AMP_DTYPE_F32,
                    nullptr);
  });
  both("cast unknown x_dtype", [&](Backend &b) {
    return AMP_CALL(b, amp_cast, p, host + 32, 4, static_cast<amp_dtype_t>(6),
                    AMP_DTYPE_F32, nullptr);
  });
  both("cast misaligned i64 y", [&](Backend &b) {
    return AMP_CALL(b, amp_cast, p, host + 36, 2, AMP_DTYPE_F32, AMP_DTYPE_I64,
                    nullptr);
  });
  both("cast NULL x", [&](Backend &b) {
    return AMP_CALL(b, amp_cast, nullptr, p, 4, AMP_DTYPE_BOOL, AMP_DTYPE_I32,
                    nullptr);
  });
  both("cast misaligned y", [&](Backend &b) {
    return AMP_CALL(b, amp_cast, p, host + 33, 4, AMP_DTYPE_F32, AMP_DTYPE_BF16,
                    nullptr);
  });
  both("fill bool 2", [&](Backend &b) {
    return AMP_CALL(b, amp_fill, p, 4, AMP_DTYPE_BOOL, 2.0f, nullptr);
  });
  both("fill i32 0.5", [&](Backend &b) {
    return AMP_CALL(b, amp_fill, p, 4, AMP_DTYPE_I32, 0.5f, nullptr);
  });
  both("fill i64 2^25", [&](Backend &b) {
    return AMP_CALL(b, amp_fill, p, 4, AMP_DTYPE_I64, 33554432.0f, nullptr);
  });
  both("fill unknown dtype", [&](Backend &b) {
    return AMP_CALL(b, amp_fill, p, 4, static_cast<amp_dtype_t>(9), 0.0f,
                    nullptr);
  });
  both("scaled_grad_seed NULL scale", [&](Backend &b) {
    return AMP_CALL(b, amp_scaled_grad_seed, nullptr, p, 4, AMP_DTYPE_F32,
                    nullptr);
  });
  both("scaled_grad_seed i32", [&](Backend &b) {
    return AMP_CALL(b, amp_scaled_grad_seed, static_cast<const float *>(p), p,
                    4, AMP_DTYPE_I32, nullptr);
  });
}
