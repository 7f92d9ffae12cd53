//===- CompareLoss.cpp - Cross-entropy, elementwise losses, gradients -----===//
//
// Cross-entropy rows from 1 to 50000 classes (thread, warp and block per row,
// vectorized and not), i32 and i64 labels, in-place gradients, labels out
// of range (found on the device: the CUDA call returns OK and the next
// amp_synchronize fails). The elementwise losses (MSE, L1, Huber, BCE with
// logits) from 0 to 2^20 + 3 elements, aligned and not (an offset of one
// element), grid values compared bitwise.
//
//===----------------------------------------------------------------------===//

#include "CompareBuffers.h"
#include "ReduceInputs.h"

#include <algorithm>
#include <cmath>

using namespace amp::compare;

namespace {

struct Rows {
  int64_t rows, classes;
};

const std::vector<Rows> &ceShapes() {
  static const std::vector<Rows> list = {
      {1, 1},     {7, 10},    {1000, 3}, {64, 1000}, {33, 1025},
      {16, 4096}, {5, 50000}, {0, 5},    {300, 129}, {200, 16}};
  return list;
}

std::string name(const char *what, Rows s, amp_dtype_t dt, amp_dtype_t lt) {
  return std::string(what) + " " + std::to_string(s.rows) + "x" +
         std::to_string(s.classes) + " " + amp_dtype_name(dt) + " labels " +
         amp_dtype_name(lt);
}

/// Logits in [-8, 8): a row's loss is below log(classes) + 16.
Host logitsOf(std::mt19937_64 &rng, amp_dtype_t dt, Rows s) {
  return randomHost(rng, dt, s.rows * s.classes, -8, 8);
}

Host crossEntropyOn(Backend &b, const Host &x, const Host &labels, Rows s,
                    int64_t ignore = AMP_IGNORE_NONE, float smoothing = 0.0f) {
  Buf bx = b.upload(x), bl = b.upload(labels);
  Buf loss = b.alloc(AMP_DTYPE_F32, 1);
  b.ok(AMP_CALL(b, amp_cross_entropy, bx, bl, static_cast<float *>(loss.get()),
                s.rows, s.classes, ignore, smoothing, x.dtype, labels.dtype,
                nullptr));
  return b.download(loss);
}

Host crossEntropyGradOn(Backend &b, const Host &g, const Host &x,
                        const Host &labels, Rows s, bool inPlace,
                        int64_t ignore = AMP_IGNORE_NONE,
                        float smoothing = 0.0f) {
  Buf bg = b.upload(g), bx = b.upload(x), bl = b.upload(labels);
  Buf out = inPlace ? Buf() : b.alloc(x.dtype, x.numel());
  void *dx = inPlace ? bx.get() : out.get();
  b.ok(AMP_CALL(b, amp_cross_entropy_grad, bg, bx, bl, dx, s.rows, s.classes,
                ignore, smoothing, g.dtype, x.dtype, labels.dtype, nullptr));
  return b.download(inPlace ? bx : out);
}

/// The label elements of a gradient (one per row) and the rest (the label
/// elements zeroed), which have different error bounds.
void splitByLabel(const Host &grad, const Host &labels, Rows s, Host *atLabel,
                  Host *others) {
  *atLabel = zeros(grad.dtype, s.rows);
  *others = grad;
  for (int64_t r = 0; r < s.rows; ++r) {
    const int64_t i = r * s.classes + int64_t(labels.get(r));
    atLabel->set(r, grad.get(i));
    others->set(i, 0.0);
  }
}

/// Labels every third row (1, 4, ...) -100, padding for an ignore_index of
/// -100; returns the count of the other rows.
int64_t padEveryThirdRow(Host &labels, Rows s) {
  int64_t kept = 0;
  for (int64_t r = 0; r < s.rows; ++r) {
    if (r % 3 == 1)
      labels.set(r, -100);
    kept += r % 3 != 1;
  }
  return kept;
}

Host scalar(amp_dtype_t dt, double v) {
  Host h = zeros(dt, 1);
  h.set(0, v);
  return h;
}

} // namespace

AMP_COMPARE_CASE(cross_entropy) {
  for (Rows s : ceShapes())
    for (amp_dtype_t dt : floatDtypes())
      for (amp_dtype_t lt : {AMP_DTYPE_I32, AMP_DTYPE_I64}) {
        const Host x = logitsOf(c.rng, dt, s);
        const Host labels = randomIndices(c.rng, lt, s.rows, s.classes);
        // Per row, s = sum exp(x - m) differs by (classes + 4) u relative
        // on each side (the sum orders, expf within 2 ulps), plus about 3 u
        // per change of a CUDA thread's running max (the online rescaling:
        // about ln(classes) + 8 of them for logits in random order, taken
        // as 16); so log(s) by that much absolute plus logf's ulp of
        // |log s| <= L; the mean of the rows adds the sum bound over rows
        // of losses below L.
        const double L = std::log(double(s.classes)) + 16;
        const double tol = 2 * (double(s.classes) + 4 + 48 + 2 * L) * kU +
                           sumBound(s.rows, double(s.rows) * L) /
                               double(std::max<int64_t>(s.rows, 1));
        c.expectClose(name("cross_entropy", s, dt, lt),
                      crossEntropyOn(*c.ref, x, labels, s),
                      crossEntropyOn(*c.dev, x, labels, s),
                      Tolerance::close(tol, 0));
      }
}

AMP_COMPARE_CASE(cross_entropy_grad) {
  for (Rows s : ceShapes())
    for (amp_dtype_t dt : floatDtypes())
      for (amp_dtype_t lt : {AMP_DTYPE_I32, AMP_DTYPE_I64}) {
        const Host x = logitsOf(c.rng, dt, s);
        const Host labels = randomIndices(c.rng, lt, s.rows, s.classes);
        // g of every dtype in turn; 1.5 is exact in all of them.
        const amp_dtype_t gt = floatDtypes()[s.classes % 3];
        const Host g = scalar(gt, 1.5);
        // softmax p differs by (classes + 8 + 48) u relative on each side
        // (the sums, the online rescaling as above, expf, the division),
        // so coef * p by 2 (classes + 58) u
        // relative and coef * (p - 1) (the label's element) by as much of
        // coef; then both round into the dtype (an ulp of it, or a
        // subnormal step near 0).
        const double coef = 1.5 / double(std::max<int64_t>(s.rows, 1));
        const double rel = 2 * (double(s.classes) + 58) * kU;
        for (bool inPlace : {false, true}) {
          const std::string what = name(inPlace ? "cross_entropy_grad in place"
                                                : "cross_entropy_grad",
                                        s, dt, lt);
          Host refLabel, refOthers, devLabel, devOthers;
          splitByLabel(crossEntropyGradOn(*c.ref, g, x, labels, s, inPlace),
                       labels, s, &refLabel, &refOthers);
          splitByLabel(crossEntropyGradOn(*c.dev, g, x, labels, s, inPlace),
                       labels, s, &devLabel, &devOthers);
          c.expectClose(what + " (not at labels)", refOthers, devOthers,
                        Tolerance::close(subnormalStep(dt), rel + ulpRel(dt)));
          c.expectClose(
              what + " (at labels)", refLabel, devLabel,
              Tolerance::close(rel * coef + subnormalStep(dt), ulpRel(dt)));
        }
      }
}

AMP_COMPARE_CASE(cross_entropy_ignore_index) {
  // Every third row labelled -100 (padding): the device counts the kept
  // rows itself; the loss and gradient bounds are those of the cases above
  // with the kept rows for the rows, and ignored rows are zeros on both.
  for (Rows s : {Rows{30, 50}, Rows{7, 2000}})
    for (amp_dtype_t dt : floatDtypes())
      for (amp_dtype_t lt : {AMP_DTYPE_I32, AMP_DTYPE_I64}) {
        const Host x = logitsOf(c.rng, dt, s);
        Host labels = randomIndices(c.rng, lt, s.rows, s.classes);
        const int64_t kept = padEveryThirdRow(labels, s);
        const double L = std::log(double(s.classes)) + 16;
        const double tol = 2 * (double(s.classes) + 4 + 48 + 2 * L) * kU +
                           sumBound(kept, double(kept) * L) / double(kept);
        c.expectClose(name("cross_entropy ignore_index", s, dt, lt),
                      crossEntropyOn(*c.ref, x, labels, s, -100),
                      crossEntropyOn(*c.dev, x, labels, s, -100),
                      Tolerance::close(tol, 0));
        const Host g = scalar(AMP_DTYPE_F32, 1.5);
        const double coef = 1.5 / double(kept);
        const double rel = 2 * (double(s.classes) + 58) * kU;
        c.expectClose(
            name("cross_entropy_grad ignore_index", s, dt, lt),
            crossEntropyGradOn(*c.ref, g, x, labels, s, false, -100),
            crossEntropyGradOn(*c.dev, g, x, labels, s, false, -100),
            Tolerance::close(rel * coef + subnormalStep(dt), rel + ulpRel(dt)));
      }
}

AMP_COMPARE_CASE(cross_entropy_label_smoothing) {
  // Label smoothing e, with every third row ignored: a row's loss adds
  // (e / C) (C log s + sum_c (m - x_c)), whose gaps sum (C terms below 16,
  // summed in different orders) differs by 2 (C + 1) 16 C u before the
  // e / C factor; the gradient's targets are the same f32 values on both,
  // so its bound is the softmax's, as above.
  for (Rows s : {Rows{30, 50}, Rows{7, 2000}, Rows{9, 5}})
    for (amp_dtype_t dt : floatDtypes())
      for (float e : {0.1f, 1.0f}) {
        const Host x = logitsOf(c.rng, dt, s);
        Host labels = randomIndices(c.rng, AMP_DTYPE_I32, s.rows, s.classes);
        const int64_t kept = padEveryThirdRow(labels, s);
        const std::string what =
            name("cross_entropy label_smoothing", s, dt, AMP_DTYPE_I32) +
            " e " + std::to_string(e);
        const double L = std::log(double(s.classes)) + 16;
        const double tol = 2 * (double(s.classes) + 4 + 48 + 2 * L) * kU +
                           2 * (double(s.classes) + 1) * 16 * kU +
                           sumBound(kept, double(kept) * 2 * L) / double(kept);
        c.expectClose(what, crossEntropyOn(*c.ref, x, labels, s, -100, e),
                      crossEntropyOn(*c.dev, x, labels, s, -100, e),
                      Tolerance::close(tol, 0));
        const Host g = scalar(AMP_DTYPE_F32, 1.5);
        const double coef = 1.5 / double(kept);
        const double rel = 2 * (double(s.classes) + 58) * kU;
        c.expectClose(
            what + " grad",
            crossEntropyGradOn(*c.ref, g, x, labels, s, false, -100, e),
            crossEntropyGradOn(*c.dev, g, x, labels, s, false, -100, e),
            Tolerance::close(rel * coef + subnormalStep(dt), rel + ulpRel(dt)));
      }
}

AMP_COMPARE_CASE(cross_entropy_nonfinite_logits) {
  // A row with +inf, one with a NaN, one all -inf, one with -inf before the
  // finite maximum: NaN, NaN, NaN and a finite loss on both backends.
  const Rows s{4, 40};
  Host x = randomHost(c.rng, AMP_DTYPE_F32, s.rows * s.classes, -4, 4);
  x.set(5, INFINITY);
  x.set(40 + 17, NAN);
  for (int i = 0; i < 40; ++i)
    x.set(80 + i, -INFINITY);
  x.set(120, -INFINITY);
  Host labels = zeros(AMP_DTYPE_I32, s.rows);
  labels.set(3, 7);
  const Host g = scalar(AMP_DTYPE_F32, 1.0);
  // Rows one at a time: the loss of a NaN row is NaN on both.
  for (int64_t r = 0; r < s.rows; ++r) {
    Host row = zeros(AMP_DTYPE_F32, s.classes);
    for (int64_t i = 0; i < s.classes; ++i)
      row.set(i, x.get(r * s.classes + i));
    Host label = zeros(AMP_DTYPE_I32, 1);
    label.set(0, labels.get(r));
    const Rows one{1, s.classes};
    c.expectClose("nonfinite row " + std::to_string(r),
                  crossEntropyOn(*c.ref, row, label, one),
                  crossEntropyOn(*c.dev, row, label, one),
                  Tolerance::close(1e-5, 1e-5));
    c.expectClose("nonfinite row grad " + std::to_string(r),
                  crossEntropyGradOn(*c.ref, g, row, label, one, false),
                  crossEntropyGradOn(*c.dev, g, row, label, one, false),
                  Tolerance::close(1e-6, 1e-5));
  }
}

AMP_COMPARE_CASE(cross_entropy_label_out_of_range) {
  if (!c.deferredErrors) {
    c.skipped = "the device backend reports errors from the call";
    return;
  }
  const Rows s{9, 12};
  for (int64_t bad : {int64_t{12}, int64_t{-1}}) {
    const Host x = logitsOf(c.rng, AMP_DTYPE_F32, s);
    Host labels = randomIndices(c.rng, AMP_DTYPE_I64, s.rows, s.classes);
    labels.set(4, double(bad));
    const Host g = scalar(AMP_DTYPE_F32, 1.0);
    for (bool grad : {false, true}) {
      const std::string what =
          std::string(grad ? "cross_entropy_grad" : "cross_entropy") +
          " label " + std::to_string(bad);
      amp_status_t status[2];
      int k = 0;
      for (Backend *b : {c.ref, c.dev}) {
        Buf bx = b->upload(x), bl = b->upload(labels), bg = b->upload(g);
        Buf out = b->alloc(AMP_DTYPE_F32, x.numel());
        status[k] =
            grad ? AMP_CALL(*b, amp_cross_entropy_grad, bg, bx, bl, out, s.rows,
                            s.classes, AMP_IGNORE_NONE, 0.0f, AMP_DTYPE_F32,
                            AMP_DTYPE_F32, AMP_DTYPE_I64, nullptr)
                 : AMP_CALL(*b, amp_cross_entropy, bx, bl,
                            static_cast<float *>(out.get()), s.rows, s.classes,
                            AMP_IGNORE_NONE, 0.0f, AMP_DTYPE_F32, AMP_DTYPE_I64,
                            nullptr);
        ++k;
      }
      c.expectSameStatus(what + ": reference call", AMP_STATUS_INVALID_ARGUMENT,
                         status[0]);
      c.expectSameStatus(what + ": cuda call", AMP_STATUS_OK, status[1]);
      c.expectSameStatus(what + ": cuda amp_synchronize",
                         AMP_STATUS_INVALID_ARGUMENT,
                         AMP_CALL(*c.dev, amp_synchronize, nullptr));
      c.expectSameStatus(what + ": the error is reported once", AMP_STATUS_OK,
                         AMP_CALL(*c.dev, amp_synchronize, nullptr));
    }
  }
}

const amp_elementwise_loss_t kLosses[] = {
    AMP_LOSS_MSE, AMP_LOSS_L1, AMP_LOSS_HUBER, AMP_LOSS_BCE_WITH_LOGITS};
constexpr float kDelta = 0.5f; // Huber's

std::string lossName(amp_elementwise_loss_t op) {
  const char *names[] = {"mse", "l1", "huber", "bce"};
  return names[op];
}

AMP_COMPARE_CASE(elementwise_loss) {
  for (amp_elementwise_loss_t op : kLosses)
    for (int64_t n : {0, 1, 7, 1000, 4097, (1 << 20) + 3})
      for (amp_dtype_t dt : floatDtypes())
        for (int offset : {0, 1}) { // 1: not 16-byte aligned, no packs
          // Grid: differences are multiples of 2^-3 in [-1, 1] and MSE's,
          // L1's and Huber's terms multiples of 2^-7, so sums below 2^17
          // are exact in f32: bitwise. Real (and every BCE): all terms
          // are >= 0, so two orders differ by sumBound relative, and
          // BCE's terms by a few ulps of expf and log1pf.
          const bool bce = op == AMP_LOSS_BCE_WITH_LOGITS;
          for (bool grid : {true, false}) {
            if ((!grid || bce) && n > 4097)
              continue;
            if (grid && bce)
              continue;
            const Host p = grid ? gridHost(c.rng, dt, n + offset, -4, 4, 0.125)
                                : randomHost(c.rng, dt, n + offset, -1, 1);
            const Host t = grid ? gridHost(c.rng, dt, n + offset, -4, 4, 0.125)
                                : randomHost(c.rng, dt, n + offset, 0, 1);
            auto run = [&](Backend &b) {
              Buf bp = b.upload(p), bt = b.upload(t);
              Buf loss = b.alloc(AMP_DTYPE_F32, 1);
              const size_t skip = size_t(offset) * amp_dtype_size(dt);
              // The unaligned runs sum (divisor 1), the others average.
              b.ok(AMP_CALL(b, amp_elementwise_loss, op, kDelta,
                            static_cast<char *>(bp.get()) + skip,
                            static_cast<char *>(bt.get()) + skip,
                            static_cast<float *>(loss.get()), n,
                            offset ? int64_t{1} : n, dt, nullptr));
              return b.download(loss);
            };
            c.expectClose(lossName(op) + " " + std::to_string(n) + " " +
                              amp_dtype_name(dt) + (grid ? " grid" : " real") +
                              (offset ? " unaligned" : ""),
                          run(*c.ref), run(*c.dev),
                          grid ? Tolerance::exact()
                               : Tolerance::close(0, sumBound(n, 1.0) +
                                                         (bce ? 8 : 1) * kU));
          }
        }
}

// The gradients are elementwise, LossMath.h's formulas on both: bitwise,
// but BCE's sigmoid (expf, a few ulps apart on the device), which its
// difference from the target can magnify relative to the result.
AMP_COMPARE_CASE(elementwise_loss_grad) {
  for (amp_elementwise_loss_t op : kLosses)
    for (int64_t n : {0, 1, 7, 1000, 4097, (1 << 20) + 3})
      for (amp_dtype_t dt : floatDtypes())
        for (int mode : {0, 1, 2}) { // separate, dpred == pred, unaligned
          const amp_dtype_t gt = floatDtypes()[(n + mode) % 3];
          const Host g = scalar(gt, 0.75);
          const int offset = mode == 2;
          const Host p = randomHost(c.rng, dt, n + offset, -2, 2);
          const Host t = randomHost(c.rng, dt, n + offset, 0, 1);
          // The unaligned runs sum (divisor 1), the others average.
          const int64_t m = mode == 2 ? 1 : n;
          auto run = [&](Backend &b) {
            Buf bg = b.upload(g), bp = b.upload(p), bt = b.upload(t);
            Buf out = b.upload(zeros(dt, n + offset));
            const size_t skip = size_t(offset) * amp_dtype_size(dt);
            char *pp = static_cast<char *>(bp.get()) + skip;
            char *tp = static_cast<char *>(bt.get()) + skip;
            char *o = mode == 1 ? pp : static_cast<char *>(out.get()) + skip;
            b.ok(AMP_CALL(b, amp_elementwise_loss_grad, op, kDelta, bg, pp, tp,
                          o, n, m, gt, dt, nullptr));
            return b.download(mode == 1 ? bp : out);
          };
          c.expectClose(
              lossName(op) + "_grad " + std::to_string(n) + " " +
                  amp_dtype_name(dt) + " mode " + std::to_string(mode),
              run(*c.ref), run(*c.dev),
              op == AMP_LOSS_BCE_WITH_LOGITS
                  ? Tolerance::close(16 * kU * 0.75 * 2 / double(m ? m : 1), 0)
                  : Tolerance::exact());
        }
}

AMP_COMPARE_CASE(loss_errors) {
  float buf[64] = {};
  int32_t labels[4] = {};
  float loss = 0;
  expectRejected(c, "cross_entropy classes 0", [&](Backend &b) {
    return AMP_CALL(b, amp_cross_entropy, buf, labels, &loss, 4, 0,
                    AMP_IGNORE_NONE, 0.0f, AMP_DTYPE_F32, AMP_DTYPE_I32,
                    nullptr);
  });
  expectRejected(c, "cross_entropy f32 labels", [&](Backend &b) {
    return AMP_CALL(b, amp_cross_entropy, buf, labels, &loss, 4, 3,
                    AMP_IGNORE_NONE, 0.0f, AMP_DTYPE_F32, AMP_DTYPE_F32,
                    nullptr);
  });
  expectRejected(c, "cross_entropy label_smoothing 1.5", [&](Backend &b) {
    return AMP_CALL(b, amp_cross_entropy, buf, labels, &loss, 4, 3,
                    AMP_IGNORE_NONE, 1.5f, AMP_DTYPE_F32, AMP_DTYPE_I32,
                    nullptr);
  });
  expectRejected(c, "cross_entropy_grad NULL grad_loss", [&](Backend &b) {
    return AMP_CALL(b, amp_cross_entropy_grad, nullptr, buf, labels, buf + 16,
                    4, 3, AMP_IGNORE_NONE, 0.0f, AMP_DTYPE_F32, AMP_DTYPE_F32,
                    AMP_DTYPE_I32, nullptr);
  });
  expectRejected(c, "mse negative n", [&](Backend &b) {
    return AMP_CALL(b, amp_elementwise_loss, AMP_LOSS_MSE, 0.0f, buf, buf,
                    &loss, -1, 1, AMP_DTYPE_F32, nullptr);
  });
  expectRejected(c, "mse divisor 0", [&](Backend &b) {
    return AMP_CALL(b, amp_elementwise_loss, AMP_LOSS_MSE, 0.0f, buf, buf,
                    &loss, 4, 0, AMP_DTYPE_F32, nullptr);
  });
  expectRejected(c, "unknown loss", [&](Backend &b) {
    return AMP_CALL(b, amp_elementwise_loss,
                    static_cast<amp_elementwise_loss_t>(4), 0.0f, buf, buf,
                    &loss, 4, 4, AMP_DTYPE_F32, nullptr);
  });
  expectRejected(c, "huber delta 0", [&](Backend &b) {
    return AMP_CALL(b, amp_elementwise_loss_grad, AMP_LOSS_HUBER, 0.0f, buf,
                    buf, buf, buf + 8, 4, 4, AMP_DTYPE_F32, AMP_DTYPE_F32,
                    nullptr);
  });
  expectRejected(c, "l1_grad i32 grad_loss", [&](Backend &b) {
    return AMP_CALL(b, amp_elementwise_loss_grad, AMP_LOSS_L1, 0.0f, buf, buf,
                    buf, buf + 8, 4, 4, AMP_DTYPE_I32, AMP_DTYPE_F32, nullptr);
  });
}
