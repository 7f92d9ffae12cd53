//===- CompareLossScale.cpp - Unscale-and-check and the scale update ------===//
//
// Everything here is bitwise: the unscale is one f32 product per element
// with the same inv = f32(1 / f64(scale)) on both backends, found_inf is a
// flag, and amp_update_scale runs the same state machine (loss_scale.h) on
// both.
//
//===----------------------------------------------------------------------===//

#include "CompareBuffers.h"

#include <cmath>

using namespace amp::compare;

namespace {

/// amp_unscale_and_check on `b`: the unscaled buffers, then found_inf.
std::vector<Host> runUnscale(Backend &b, const MixedList &l,
                             const std::vector<Host> &grads, float scale,
                             int8_t flag, bool inPlace) {
  const int32_t n = static_cast<int32_t>(l.sizes.size());
  DevList g = uploadList(b, grads, l.offsets);
  std::vector<Host> zero;
  for (int32_t i = 0; i < n; ++i)
    zero.push_back(zeros(l.dtypes[i], l.sizes[i]));
  DevList out = inPlace ? DevList() : uploadList(b, zero);
  Buf s = b.upload(scalarHost(AMP_DTYPE_F32, scale));
  Buf f = b.upload(scalarHost(AMP_DTYPE_BOOL, flag));
  b.ok(AMP_CALL(b, amp_unscale_and_check, n, g.in(),
                inPlace ? g.out() : out.out(), l.sizes.data(), l.dtypes.data(),
                static_cast<const float *>(s.ptr), static_cast<int8_t *>(f.ptr),
                nullptr));
  std::vector<Host> res = downloadList(b, inPlace ? g : out);
  res.push_back(b.download(f));
  return res;
}

void compareUnscale(Context &c, const std::string &what, const MixedList &l,
                    const std::vector<Host> &grads, float scale, int8_t flag,
                    bool inPlace, int expectedFlag) {
  auto ref = runUnscale(*c.ref, l, grads, scale, flag, inPlace);
  auto dev = runUnscale(*c.dev, l, grads, scale, flag, inPlace);
  for (size_t i = 0; i + 1 < ref.size(); ++i)
    c.expectClose(what + " unscaled " + std::to_string(i), ref[i], dev[i],
                  Tolerance::exact());
  c.expectClose(what + " found_inf", ref.back(), dev.back(),
                Tolerance::exact());
  ++c.checks;
  if (dev.back().get(0) != expectedFlag)
    c.fail(what + ": found_inf is " + std::to_string(dev.back().get(0)) +
           ", expected " + std::to_string(expectedFlag));
}

AMP_COMPARE_CASE(loss_scale_unscale) {
  MixedList l = mixedList(40, false);
  auto grads = randomList(c, l, -1000, 1000);
  // 3: an inexact inverse; 1e-3: f16 outputs overflow to inf (the flag
  // looks at the scaled inputs, so it stays clear); 2^-130: inv = +inf.
  for (float scale : {65536.0f, 3.0f, 1e-3f, std::ldexp(1.0f, -130)})
    for (bool inPlace : {false, true})
      compareUnscale(c,
                     "unscale by " + std::to_string(scale) +
                         (inPlace ? " in place" : ""),
                     l, grads, scale, 0, inPlace, 0);
  // More buffers than one CUDA launch holds (1089).
  MixedList many = mixedList(1200, true);
  compareUnscale(c, "unscale 1200 buffers", many, randomList(c, many, -2, 2),
                 1024.0f, 0, false, 0);
  // A set flag is never cleared; no buffers leave it as it is.
  compareUnscale(c, "unscale with the flag set", l, grads, 2.0f, 1, false, 1);
  MixedList none;
  compareUnscale(c, "unscale of no buffers", none, {}, 2.0f, 0, false, 0);
  compareUnscale(c, "unscale of no buffers, flag set", none, {}, 2.0f, 1, false,
                 1);
}

AMP_COMPARE_CASE(loss_scale_unscale_nonfinite) {
  // A NaN or an inf in the last element of the last buffer: in one launch
  // (the last buffer: 7 f32 elements, or 16385 f16 ones, past a chunk
  // boundary) and in the second launch of 1201 buffers.
  struct Run {
    int count;
    bool small;
    double special;
  };
  for (Run r : {Run{13, false, NAN}, Run{13, false, INFINITY},
                Run{16, false, -INFINITY}, Run{16, false, NAN},
                Run{1201, true, NAN}, Run{1201, true, INFINITY}})
    for (bool inPlace : {false, true}) {
      MixedList l = mixedList(r.count, r.small);
      auto grads = randomList(c, l, -1, 1);
      Host &last = grads.back();
      if (last.numel() == 0)
        c.fail("the last buffer is empty");
      last.set(last.numel() - 1, r.special);
      compareUnscale(c,
                     std::to_string(r.count) + " buffers, last element " +
                         std::to_string(r.special) +
                         (inPlace ? " in place" : ""),
                     l, grads, 512.0f, 0, inPlace, 1);
    }
}

//===----------------------------------------------------------------------===//
// amp_update_scale
//===----------------------------------------------------------------------===//

struct ScaleCfg {
  const char *name;
  double growth, backoff;
  int32_t interval;
  float minScale, maxScale;
  int32_t hysteresis;
  bool tracker;
  float init;
};

const ScaleCfg kScaleCfgs[] = {
    {"pytorch", 2.0, 0.5, 3, 0.0f, INFINITY, 1, false, 65536.0f},
    {"hysteresis", 2.0, 0.25, 2, 1.0f, 8.0f, 2, true, 4.0f},
    // Inexact products in f64, and growth past FLT_MAX (the scale is kept).
    {"odd_factors", 3.0, 0.3, 1, 1e-3f, INFINITY, 3, true, 1e38f},
};

AMP_COMPARE_CASE(loss_scale_update) {
  const int flags[] = {0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 1,
                       1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  for (const ScaleCfg &cfg : kScaleCfgs) {
    Host state[3] = {scalarHost(AMP_DTYPE_F32, cfg.init),
                     scalarHost(AMP_DTYPE_I32, 0),
                     scalarHost(AMP_DTYPE_I32, cfg.hysteresis)};
    int step = 0;
    for (int flag : flags) {
      const bool inPlace = step % 2 == 1;
      auto run = [&](Backend &b) {
        Buf in[3] = {b.upload(state[0]), b.upload(state[1]),
                     b.upload(state[2])};
        Buf out[3] = {b.alloc(AMP_DTYPE_F32, 1), b.alloc(AMP_DTYPE_I32, 1),
                      b.alloc(AMP_DTYPE_I32, 1)};
        Buf f = b.upload(scalarHost(AMP_DTYPE_BOOL, flag));
        Buf *o = inPlace ? in : out;
        b.ok(AMP_CALL(
            b, amp_update_scale, static_cast<const float *>(in[0].ptr),
            static_cast<const int32_t *>(in[1].ptr),
            cfg.tracker ? static_cast<const int32_t *>(in[2].ptr) : nullptr,
            static_cast<const int8_t *>(f.ptr), static_cast<float *>(o[0].ptr),
            static_cast<int32_t *>(o[1].ptr),
            cfg.tracker ? static_cast<int32_t *>(o[2].ptr) : nullptr,
            cfg.growth, cfg.backoff, cfg.interval, cfg.minScale, cfg.maxScale,
            cfg.hysteresis, nullptr));
        std::vector<Host> res;
        for (int k = 0; k < (cfg.tracker ? 3 : 2); ++k)
          res.push_back(b.download(o[k]));
        return res;
      };
      auto ref = run(*c.ref), dev = run(*c.dev);
      const std::string what = std::string("update_scale ") + cfg.name +
                               " step " + std::to_string(step) +
                               (inPlace ? " in place" : "");
      const char *names[] = {" scale", " growth_tracker",
                             " hysteresis_tracker"};
      for (size_t k = 0; k < ref.size(); ++k) {
        c.expectClose(what + names[k], ref[k], dev[k], Tolerance::exact());
        state[k] = ref[k];
      }
      ++step;
    }
  }
}

//===----------------------------------------------------------------------===//
// Malformed calls
//===----------------------------------------------------------------------===//

AMP_COMPARE_CASE(loss_scale_errors) {
  alignas(16) static char host[256];
  void *a = host;
  const float *scale = reinterpret_cast<const float *>(host + 64);
  int8_t *flag = reinterpret_cast<int8_t *>(host + 128);
  int32_t *tracker = reinterpret_cast<int32_t *>(host + 192);
  const void *ins[2] = {a, a};
  void *outs[2] = {a, host + 2};
  const int64_t sizes[2] = {4, 4};
  const amp_dtype_t dtypes[2] = {AMP_DTYPE_F32, AMP_DTYPE_F32};
  const amp_dtype_t badDtypes[2] = {AMP_DTYPE_F16, AMP_DTYPE_I64};
  auto both = [&](const char *what, auto call) {
    expectRejected(c, what, call);
  };
  both("unscale NULL found_inf", [&](Backend &b) {
    return AMP_CALL(b, amp_unscale_and_check, 1, ins, outs, sizes, dtypes,
                    scale, nullptr, nullptr);
  });
  both("unscale NULL scale", [&](Backend &b) {
    return AMP_CALL(b, amp_unscale_and_check, 1, ins, outs, sizes, dtypes,
                    nullptr, flag, nullptr);
  });
  both("unscale n_buffers -1", [&](Backend &b) {
    return AMP_CALL(b, amp_unscale_and_check, -1, ins, outs, sizes, dtypes,
                    scale, flag, nullptr);
  });
  both("unscale i64 buffer", [&](Backend &b) {
    return AMP_CALL(b, amp_unscale_and_check, 2, ins, outs, sizes, badDtypes,
                    scale, flag, nullptr);
  });
  both("unscale misaligned output", [&](Backend &b) {
    return AMP_CALL(b, amp_unscale_and_check, 2, ins, outs, sizes, dtypes,
                    scale, flag, nullptr);
  });
  both("update_scale NULL found_inf", [&](Backend &b) {
    return AMP_CALL(b, amp_update_scale, scale, tracker, nullptr, nullptr,
                    const_cast<float *>(scale), tracker, nullptr, 2.0, 0.5,
                    2000, 0.0f, INFINITY, 1, nullptr);
  });
  both("update_scale one hysteresis tracker", [&](Backend &b) {
    return AMP_CALL(b, amp_update_scale, scale, tracker, tracker, flag,
                    const_cast<float *>(scale), tracker, nullptr, 2.0, 0.5,
                    2000, 0.0f, INFINITY, 1, nullptr);
  });
  both("update_scale growth_factor 1", [&](Backend &b) {
    return AMP_CALL(b, amp_update_scale, scale, tracker, nullptr, flag,
                    const_cast<float *>(scale), tracker, nullptr, 1.0, 0.5,
                    2000, 0.0f, INFINITY, 1, nullptr);
  });
  both("update_scale min_scale > max_scale", [&](Backend &b) {
    return AMP_CALL(b, amp_update_scale, scale, tracker, nullptr, flag,
                    const_cast<float *>(scale), tracker, nullptr, 2.0, 0.5,
                    2000, 4.0f, 2.0f, 1, nullptr);
  });
}

} // namespace
