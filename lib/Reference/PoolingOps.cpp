//===- PoolingOps.cpp - f64 evaluators of the pooling ops -----------------===//
//
// nn.max_pool2d, nn.avg_pool2d and nn.global_avg_pool (NCHW, conv2d's
// window geometry) and the gradients nn.max_pool2d_grad and
// nn.avg_pool2d_grad. Positions in the padding are skipped: they never win
// a maximum, and they count in an average's divisor only with
// count_include_pad. A global average pool is an average pool whose window
// is the image.
//
//===----------------------------------------------------------------------===//

#include "Evaluators.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace amp::nn;
using namespace amp::reference;

namespace {

/// The windows of a pool from x [n, c, h, w] to y [n, c, oh, ow].
struct PoolWindows {
  PoolWindows(ArrayRef<int64_t> x, ArrayRef<int64_t> y,
              ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
              ArrayRef<int64_t> padding, ArrayRef<int64_t> dilation)
      : planes(x[0] * x[1]), h(x[2]), w(x[3]), oh(y[2]), ow(y[3]),
        kernel(kernel), strides(strides), padding(padding), dilation(dilation) {
  }

  template <typename OpT>
  static PoolWindows of(OpT op, ArrayRef<int64_t> x, ArrayRef<int64_t> y) {
    static constexpr int64_t kNoDilation[] = {1, 1};
    ArrayRef<int64_t> dilation = kNoDilation;
    if constexpr (std::is_same_v<OpT, MaxPool2DOp> ||
                  std::is_same_v<OpT, MaxPool2DGradOp>)
      dilation = op.getDilation();
    return PoolWindows(x, y, op.getKernel(), op.getStrides(), op.getPadding(),
                       dilation);
  }

  /// The number of positions of a window, padding included.
  int64_t getSize() const { return kernel[0] * kernel[1]; }

  /// Calls fn(yOffset, xOffsets) for every output element, with the
  /// offsets of its window's in-bounds inputs in row-major window order.
  void forEach(function_ref<void(int64_t, ArrayRef<int64_t>)> fn) const {
    SmallVector<int64_t> window;
    for (int64_t p = 0; p < planes; ++p)
      for (int64_t oy = 0; oy < oh; ++oy)
        for (int64_t ox = 0; ox < ow; ++ox) {
          window.clear();
          for (int64_t ky = 0; ky < kernel[0]; ++ky)
            for (int64_t kx = 0; kx < kernel[1]; ++kx) {
              int64_t iy = oy * strides[0] - padding[0] + ky * dilation[0];
              int64_t ix = ox * strides[1] - padding[1] + kx * dilation[1];
              if (iy >= 0 && iy < h && ix >= 0 && ix < w)
                window.push_back((p * h + iy) * w + ix);
            }
          fn((p * oh + oy) * ow + ox, window);
        }
  }

  int64_t planes, h, w, oh, ow;
  ArrayRef<int64_t> kernel, strides, padding, dilation;
};

/// The first maximum of `window` in `x` (a NaN beats every number), or -1
/// for a window entirely in the padding.
int64_t selectMax(const RefTensor &x, ArrayRef<int64_t> window) {
  int64_t best = -1;
  for (int64_t i : window) {
    double v = x.data[i];
    if (best < 0 ||
        (!std::isnan(x.data[best]) && (std::isnan(v) || v > x.data[best])))
      best = i;
  }
  return best;
}

RefTensor evalMaxPool(MaxPool2DOp op, Operands in) {
  const RefTensor &x = *in[0];
  RefTensor y = resultLike(op);
  PoolWindows::of(op, x.shape, y.shape)
      .forEach([&](int64_t out, ArrayRef<int64_t> window) {
        int64_t best = selectMax(x, window);
        y.data[out] =
            best < 0 ? -std::numeric_limits<double>::infinity() : x.data[best];
      });
  return y;
}

/// dy goes to the position the forward op selected; windows accumulate.
RefTensor evalMaxPoolGrad(MaxPool2DGradOp op, Operands in) {
  const RefTensor &dy = *in[0], &x = *in[1];
  RefTensor dx = resultLike(op);
  PoolWindows::of(op, x.shape, dy.shape)
      .forEach([&](int64_t out, ArrayRef<int64_t> window) {
        int64_t best = selectMax(x, window);
        if (best >= 0)
          dx.data[best] += dy.data[out];
      });
  return dx;
}

/// The divisor of a window: every position with count_include_pad, else
/// its in-bounds ones (a window entirely in the padding divides by 0).
double divisor(const PoolWindows &windows, ArrayRef<int64_t> window,
               bool countIncludePad) {
  return static_cast<double>(countIncludePad ? windows.getSize()
                                             : window.size());
}

RefTensor avgPool(const PoolWindows &windows, const RefTensor &x, RefTensor y,
                  bool countIncludePad) {
  windows.forEach([&](int64_t out, ArrayRef<int64_t> window) {
    double sum = 0;
    for (int64_t i : window)
      sum += x.data[i];
    y.data[out] = sum / divisor(windows, window, countIncludePad);
  });
  return y;
}

RefTensor evalAvgPoolGrad(AvgPool2DGradOp op, Operands in) {
  const RefTensor &dy = *in[0];
  RefTensor dx = resultLike(op);
  PoolWindows windows = PoolWindows::of(op, dx.shape, dy.shape);
  windows.forEach([&](int64_t out, ArrayRef<int64_t> window) {
    double share =
        dy.data[out] / divisor(windows, window, op.getCountIncludePad());
    for (int64_t i : window)
      dx.data[i] += share;
  });
  return dx;
}

} // namespace

void amp::reference::registerPoolingOps(EvaluatorTable &table) {
  table.add<MaxPool2DOp>(evalMaxPool);
  table.add<MaxPool2DGradOp>(evalMaxPoolGrad);
  table.add<AvgPool2DOp>([](AvgPool2DOp op, Operands in) {
    RefTensor y = resultLike(op);
    PoolWindows windows = PoolWindows::of(op, in[0]->shape, y.shape);
    return avgPool(windows, *in[0], std::move(y), op.getCountIncludePad());
  });
  table.add<AvgPool2DGradOp>(evalAvgPoolGrad);
  table.add<GlobalAvgPoolOp>([](GlobalAvgPoolOp op, Operands in) {
    RefTensor y = resultLike(op);
    ArrayRef<int64_t> x = in[0]->shape;
    int64_t kernel[] = {x[2], x[3]}, strides[] = {1, 1},
            padding[] = {0, 0, 0, 0}, dilation[] = {1, 1};
    PoolWindows windows(x, y.shape, kernel, strides, padding, dilation);
    return avgPool(windows, *in[0], std::move(y), /*countIncludePad=*/true);
  });
}
