//===- CompareShape.cpp - Reshape, transpose, broadcast, concat, slice, pad
//===//
//
// The data-movement kernels move bit patterns, so every output must match
// the reference bitwise (Tolerance::exact()), in every dtype. Inputs are
// random bit patterns (NaNs and all), and every output buffer starts as the
// same random "poison" on both backends, so an element a kernel fails to
// write shows up as a mismatch. Shapes cover the tiled and the gather path
// of StridedCopy.cu, the widened (16-byte) and narrow accesses, pointers
// that are not 16-byte aligned, odd sizes, empty tensors and rank 0.
//
//===----------------------------------------------------------------------===//

#include "Compare.h"

#include <algorithm>
#include <cmath>
#include <functional>

using namespace amp::compare;

namespace {

using Dims = std::vector<int64_t>;

std::vector<amp_dtype_t> anyDtypes() {
  return {AMP_DTYPE_F32, AMP_DTYPE_F16, AMP_DTYPE_BF16,
          AMP_DTYPE_I32, AMP_DTYPE_I64, AMP_DTYPE_BOOL};
}

int64_t numel(const Dims &dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

std::string str(const Dims &dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

/// Random bytes (0 or 1 for bool).
Host randomBits(std::mt19937_64 &rng, amp_dtype_t dtype, int64_t n) {
  Host h = zeros(dtype, n);
  for (char &b : h.bytes)
    b = static_cast<char>(rng() & (dtype == AMP_DTYPE_BOOL ? 1 : 0xff));
  return h;
}

/// An upload of `h` that starts `shift` elements into its buffer (a pointer
/// aligned to the element only), returned with the buffer that owns it.
struct Shifted {
  Buf buf;
  void *ptr;
};
Shifted uploadShifted(Backend &b, const Host &h, int64_t shift) {
  Host padded = zeros(h.dtype, h.numel() + shift);
  std::copy(h.bytes.begin(), h.bytes.end(),
            padded.bytes.begin() + shift * amp_dtype_size(h.dtype));
  Shifted s{b.upload(padded), nullptr};
  s.ptr = static_cast<char *>(s.buf.get()) + shift * amp_dtype_size(h.dtype);
  return s;
}

/// Downloads `n` elements that start `shift` elements into `buf`.
Host downloadShifted(Backend &b, const Buf &buf, int64_t shift, int64_t n) {
  Host all = b.download(buf);
  Host h = zeros(all.dtype, n);
  const int64_t size = amp_dtype_size(all.dtype);
  std::copy(all.bytes.begin() + shift * size,
            all.bytes.begin() + (shift + n) * size, h.bytes.begin());
  return h;
}

/// Runs `call(b, x, y)` on both backends with x uploaded from `x` and y
/// from `poison` (both shifted by `shift` elements) and compares y bitwise.
void compareCopy(
    Context &c, const std::string &what, const Host &x, const Host &poison,
    int64_t shift,
    const std::function<amp_status_t(Backend &, void *, void *)> &call) {
  auto run = [&](Backend &b) {
    Shifted dx = uploadShifted(b, x, shift),
            dy = uploadShifted(b, poison, shift);
    b.ok(call(b, dx.ptr, dy.ptr), what.c_str());
    return downloadShifted(b, dy.buf, shift, poison.numel());
  };
  c.expectClose(what, run(*c.ref), run(*c.dev), Tolerance::exact());
}

} // namespace

AMP_COMPARE_CASE(shape_reshape) {
  for (amp_dtype_t dt : anyDtypes())
    for (int64_t n : {0, 1, 7, 1000, (1 << 20) + 3}) {
      Host x = randomBits(c.rng, dt, n), poison = randomBits(c.rng, dt, n);
      const std::string what = std::string("reshape ") + amp_dtype_name(dt) +
                               " " + std::to_string(n);
      compareCopy(c, what, x, poison, 0, [&](Backend &b, void *px, void *py) {
        return AMP_CALL(b, amp_reshape, px, py, n, dt, nullptr);
      });
      // y == x: nothing to do, x unchanged.
      auto inPlace = [&](Backend &b) {
        Buf d = b.upload(x);
        b.ok(AMP_CALL(b, amp_reshape, d, d, n, dt, nullptr));
        return b.download(d);
      };
      c.expectClose(what + " in place", x, inPlace(*c.dev), Tolerance::exact());
    }
}

AMP_COMPARE_CASE(shape_transpose) {
  struct Spec {
    Dims dims, perm;
  };
  const std::vector<Spec> specs = {
      {{}, {}},                      // rank 0
      {{1}, {0}},                    // one element
      {{0, 2, 3}, {1, 0, 2}},        // empty
      {{37, 45}, {1, 0}},            // tiled, partial tiles
      {{512, 1000}, {1, 0}},         // tiled, many blocks
      {{2048, 3000}, {1, 0}},        // more tiles than blocks
      {{3, 1001}, {1, 0}},           // too thin to tile: gather
      {{4, 33, 65}, {0, 2, 1}},      // tiled under a batch dimension
      {{20, 3, 40}, {2, 1, 0}},      // tiled, batch dimension between
      {{5, 7, 9, 11}, {3, 1, 2, 0}}, // gather, rank 4
      {{8, 16, 24}, {1, 0, 2}},      // contiguous rows: widened gather
      {{64, 64, 3}, {1, 0, 2}},      // rows of 3: narrow gather
      {{2, 3, 2, 3, 2, 3, 2, 3}, {7, 6, 5, 4, 3, 2, 1, 0}}, // rank 8
      {{1, 17, 1, 19}, {2, 3, 0, 1}}, // size-1 dimensions dropped
  };
  for (amp_dtype_t dt : anyDtypes())
    for (const Spec &s : specs)
      for (int64_t shift : {0, 1}) {
        const int64_t n = numel(s.dims);
        Host x = randomBits(c.rng, dt, n), poison = randomBits(c.rng, dt, n);
        const std::string what =
            std::string("transpose ") + amp_dtype_name(dt) + " " + str(s.dims) +
            " perm " + str(s.perm) + " shift " + std::to_string(shift);
        compareCopy(c, what, x, poison, shift,
                    [&](Backend &b, void *px, void *py) {
                      return AMP_CALL(b, amp_transpose, px, py, s.dims.data(),
                                      (int32_t)s.dims.size(), s.perm.data(), dt,
                                      nullptr);
                    });
      }
}

AMP_COMPARE_CASE(shape_broadcast_to) {
  struct Spec {
    Dims x, y;
  };
  const std::vector<Spec> specs = {
      {{}, {5, 6}},
      {{1}, {1000}},
      {{3, 1}, {3, 1001}},
      {{7}, {5, 7}},
      {{1, 1, 1}, {2, 3, 4}},
      {{1, 64}, {100, 64}},
      {{1, 4}, {0, 4}},
      {{5, 1, 3}, {4, 5, 7, 3}},
      {{1000, 1}, {1000, 33}},
      {{1, 4099}, {300, 4099}}, // grid-stride loop
      {{2, 3}, {2, 3}},
  };
  for (amp_dtype_t dt : anyDtypes())
    for (const Spec &s : specs) {
      Host x = randomBits(c.rng, dt, numel(s.x));
      Host poison = randomBits(c.rng, dt, numel(s.y));
      const std::string what = std::string("broadcast_to ") +
                               amp_dtype_name(dt) + " " + str(s.x) + " -> " +
                               str(s.y);
      compareCopy(c, what, x, poison, 0, [&](Backend &b, void *px, void *py) {
        return AMP_CALL(b, amp_broadcast_to, px, py, s.x.data(),
                        (int32_t)s.x.size(), s.y.data(), (int32_t)s.y.size(),
                        dt, nullptr);
      });
    }
  // y == x of the same shape: nothing to do.
  Host x = randomBits(c.rng, AMP_DTYPE_F32, 12);
  Buf d = c.dev->upload(x);
  const Dims dims = {3, 4};
  c.dev->ok(AMP_CALL(*c.dev, amp_broadcast_to, d, d, dims.data(), 2,
                     dims.data(), 2, AMP_DTYPE_F32, nullptr));
  c.expectClose("broadcast_to in place", x, c.dev->download(d),
                Tolerance::exact());
}

AMP_COMPARE_CASE(shape_concat) {
  struct Spec {
    Dims out;
    int64_t axis;
    Dims sizes;
  };
  std::vector<Spec> specs = {
      {{7, 5}, 0, {3, 4, 0}},       // leading axis, an empty input
      {{7, 17}, 1, {3, 0, 8, 6}},   // odd rows
      {{100, 64}, -1, {32, 32}},    // 16-byte elements
      {{256, 4099}, 1, {4000, 99}}, // large, unaligned rows
      {{3, 5, 0}, 1, {2, 3}},       // empty output
      {{1}, 0, {1}},                // one element
      {{2, 3, 4, 5}, 2, {1, 2, 1}}, // inner dimensions
  };
  Spec many{{9, 0}, 1, {}}; // 40 inputs: two launches
  for (int i = 0; i < 40; ++i) {
    many.sizes.push_back(i % 5);
    many.out[1] += i % 5;
  }
  specs.push_back(many);
  for (amp_dtype_t dt : anyDtypes())
    for (const Spec &s : specs) {
      const int32_t rank = (int32_t)s.out.size();
      const int64_t ax = s.axis < 0 ? s.axis + rank : s.axis;
      std::vector<Host> inputs;
      for (int64_t size : s.sizes) {
        Dims d = s.out;
        d[ax] = size;
        inputs.push_back(randomBits(c.rng, dt, numel(d)));
      }
      Host poison = randomBits(c.rng, dt, numel(s.out));
      auto run = [&](Backend &b) {
        std::vector<Buf> bufs;
        std::vector<const void *> ptrs;
        for (const Host &h : inputs) {
          bufs.push_back(b.upload(h));
          // An empty input may be NULL.
          ptrs.push_back(h.numel() ? bufs.back().get() : nullptr);
        }
        Buf out = b.upload(poison);
        b.ok(AMP_CALL(b, amp_concat, (int32_t)ptrs.size(), ptrs.data(), out,
                      s.out.data(), rank, s.sizes.data(), dt, s.axis, nullptr));
        return b.download(out);
      };
      c.expectClose(std::string("concat ") + amp_dtype_name(dt) + " " +
                        str(s.out) + " axis " + std::to_string(s.axis) +
                        " sizes " + str(s.sizes),
                    run(*c.ref), run(*c.dev), Tolerance::exact());
    }
}

namespace {

struct SliceSpec {
  Dims x, y, offsets, strides; // strides empty: NULL
};

std::vector<SliceSpec> sliceSpecs() {
  return {
      {{17, 33}, {5, 10}, {2, 3}, {3, 2}},
      {{20}, {7}, {19}, {-3}},            // backwards
      {{64, 128}, {64, 64}, {0, 32}, {}}, // contiguous rows: widened
      {{4, 50, 60}, {2, 50, 30}, {1, 0, 30}, {2, 1, 1}},
      {{300, 301}, {150, 299}, {1, 1}, {2, 1}},   // odd, many blocks
      {{1200, 1100}, {1100, 1000}, {50, 50}, {}}, // grid-stride loop
      {{9, 40, 40}, {9, 40, 20}, {0, 39, 0}, {1, -1, 2}},
      {{5, 5}, {0, 5}, {0, 0}, {}}, // empty slice
      {{}, {}, {}, {}},             // rank 0
  };
}

} // namespace

AMP_COMPARE_CASE(shape_slice) {
  for (amp_dtype_t dt : anyDtypes())
    for (const SliceSpec &s : sliceSpecs())
      for (int64_t shift : {0, 1}) {
        Host x = randomBits(c.rng, dt, numel(s.x));
        Host poison = randomBits(c.rng, dt, numel(s.y));
        const std::string what = std::string("slice ") + amp_dtype_name(dt) +
                                 " " + str(s.x) + " -> " + str(s.y) +
                                 " shift " + std::to_string(shift);
        compareCopy(
            c, what, x, poison, shift, [&](Backend &b, void *px, void *py) {
              return AMP_CALL(b, amp_slice, px, py, s.x.data(), s.y.data(),
                              (int32_t)s.x.size(), s.offsets.data(),
                              s.strides.empty() ? nullptr : s.strides.data(),
                              dt, nullptr);
            });
      }
}

AMP_COMPARE_CASE(shape_slice_grad) {
  for (amp_dtype_t dt : anyDtypes())
    for (const SliceSpec &s : sliceSpecs())
      for (int64_t shift : {0, 1}) {
        Host dy = randomBits(c.rng, dt, numel(s.y));
        Host poison = randomBits(c.rng, dt, numel(s.x));
        const std::string what = std::string("slice_grad ") +
                                 amp_dtype_name(dt) + " " + str(s.x) + " <- " +
                                 str(s.y) + " shift " + std::to_string(shift);
        compareCopy(
            c, what, dy, poison, shift, [&](Backend &b, void *pdy, void *pdx) {
              return AMP_CALL(b, amp_slice_grad, pdy, pdx, s.x.data(),
                              s.y.data(), (int32_t)s.x.size(), s.offsets.data(),
                              s.strides.empty() ? nullptr : s.strides.data(),
                              dt, nullptr);
            });
      }
}

AMP_COMPARE_CASE(shape_pad) {
  struct Spec {
    Dims x, low, high;
    float value;
  };
  const std::vector<Spec> specs = {
      {{5, 7}, {1, 2}, {3, 0}, 1.5f},
      {{0, 3}, {1, 1}, {1, 1}, -2.0f},          // x empty: all value
      {{100, 100}, {0, 3}, {0, 5}, 0.1f},       // rounded value
      {{}, {}, {}, 3.0f},                       // rank 0
      {{2, 3, 4}, {0, 0, 1}, {0, 0, 0}, 1e30f}, // merged; inf in f16
      {{64, 256, 33}, {1, 0, 2}, {0, 0, 3}, -0.0f},
      {{3, 1, 5}, {0, 2, 0}, {1, 0, 0}, NAN},
      {{1000, 1}, {0, 0}, {0, 0}, 7.0f}, // no padding
  };
  for (amp_dtype_t dt : floatDtypes())
    for (const Spec &s : specs) {
      Dims y = s.x;
      for (size_t d = 0; d < y.size(); ++d)
        y[d] += s.low[d] + s.high[d];
      Host x = randomBits(c.rng, dt, numel(s.x));
      Host poison = randomBits(c.rng, dt, numel(y));
      const std::string what = std::string("pad ") + amp_dtype_name(dt) + " " +
                               str(s.x) + " -> " + str(y);
      compareCopy(c, what, x, poison, 0, [&](Backend &b, void *px, void *py) {
        return AMP_CALL(b, amp_pad, px, py, s.x.data(), (int32_t)s.x.size(),
                        s.low.data(), s.high.data(), dt, s.value, nullptr);
      });
    }
}

AMP_COMPARE_CASE(shape_errors) {
  const amp_dtype_t f32 = AMP_DTYPE_F32;
  // Each call gets a backend's own 64-element buffers.
  auto both =
      [&](const char *what,
          const std::function<amp_status_t(Backend &, void *, void *)> &call) {
        amp_status_t s[2];
        int k = 0;
        for (Backend *b : {c.ref, c.dev}) {
          Buf x = b->alloc(f32, 64), y = b->alloc(f32, 64);
          s[k++] = call(*b, x, y);
        }
        c.expectSameStatus(what, s[0], s[1]);
        if (s[0] == AMP_STATUS_OK)
          c.fail(std::string(what) + ": the reference accepted the call");
      };
  const Dims d23 = {2, 3}, d4 = {4}, d5 = {5};
  const Dims badPerm = {0, 0}, offsets = {0, 1}, low = {0, -1};
  both("reshape of -1", [&](Backend &b, void *x, void *y) {
    return AMP_CALL(b, amp_reshape, x, y, -1, f32, nullptr);
  });
  both("transpose with a bad perm", [&](Backend &b, void *x, void *y) {
    return AMP_CALL(b, amp_transpose, x, y, d23.data(), 2, badPerm.data(), f32,
                    nullptr);
  });
  both("transpose in place", [&](Backend &b, void *x, void *) {
    const Dims perm = {1, 0};
    return AMP_CALL(b, amp_transpose, x, x, d23.data(), 2, perm.data(), f32,
                    nullptr);
  });
  both("broadcast [4] to [5]", [&](Backend &b, void *x, void *y) {
    return AMP_CALL(b, amp_broadcast_to, x, y, d4.data(), 1, d5.data(), 1, f32,
                    nullptr);
  });
  both("concat sizes that do not sum", [&](Backend &b, void *x, void *y) {
    const void *in[2] = {x, x};
    const Dims sizes = {1, 1};
    return AMP_CALL(b, amp_concat, 2, in, y, d23.data(), 2, sizes.data(), f32,
                    1, nullptr);
  });
  both("concat of no inputs", [&](Backend &b, void *x, void *y) {
    const void *in[1] = {x};
    return AMP_CALL(b, amp_concat, 0, in, y, d23.data(), 2, d23.data(), f32, 0,
                    nullptr);
  });
  both("slice outside x", [&](Backend &b, void *x, void *y) {
    return AMP_CALL(b, amp_slice, x, y, d23.data(), d23.data(), 2,
                    offsets.data(), nullptr, f32, nullptr);
  });
  both("slice_grad in place", [&](Backend &b, void *x, void *) {
    const Dims zero = {0, 0};
    return AMP_CALL(b, amp_slice_grad, x, x, d23.data(), d23.data(), 2,
                    zero.data(), nullptr, f32, nullptr);
  });
  both("pad with a negative low", [&](Backend &b, void *x, void *y) {
    return AMP_CALL(b, amp_pad, x, y, d23.data(), 2, low.data(), low.data(),
                    f32, 0.0f, nullptr);
  });
  both("pad of i32", [&](Backend &b, void *x, void *y) {
    const Dims zero = {0, 0};
    return AMP_CALL(b, amp_pad, x, y, d23.data(), 2, zero.data(), zero.data(),
                    AMP_DTYPE_I32, 0.0f, nullptr);
  });
}
