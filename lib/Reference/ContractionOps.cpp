//===- ContractionOps.cpp - f64 evaluators of matmul and conv2d -----------===//
//
// nn.matmul (transpose flags, numpy-broadcast batch dims) and nn.conv2d with
// its input and filter gradients (strides, [top, left, bottom, right]
// padding, dilation, groups). The three convolutions visit the same
// (input, filter, output) triples; only what they accumulate differs.
//
//===----------------------------------------------------------------------===//

#include "Evaluators.h"

#include "amp/Dialect/NN/IR/NNOps.h"

using namespace mlir;
using namespace amp::nn;
using namespace amp::reference;

namespace {

RefTensor evalMatmul(MatmulOp op, Operands in) {
  const RefTensor &a = *in[0], &b = *in[1];
  RefTensor c = resultLike(op);
  int64_t rank = c.getRank();
  int64_t m = c.shape[rank - 2], n = c.shape[rank - 1];
  int64_t k =
      op.getTransposeA() ? a.shape[a.getRank() - 2] : a.shape[a.getRank() - 1];
  bool ta = op.getTransposeA(), tb = op.getTransposeB();
  ArrayRef<int64_t> batch = ArrayRef<int64_t>(c.shape).drop_back(2);
  SmallVector<int64_t> aStrides =
      getBroadcastStrides(ArrayRef<int64_t>(a.shape).drop_back(2), batch);
  SmallVector<int64_t> bStrides =
      getBroadcastStrides(ArrayRef<int64_t>(b.shape).drop_back(2), batch);
  forEachIndex(batch, [&](ArrayRef<int64_t> index, int64_t offset) {
    const double *pa = a.data.data() + offsetOf(index, aStrides) * m * k;
    const double *pb = b.data.data() + offsetOf(index, bStrides) * k * n;
    double *pc = c.data.data() + offset * m * n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t l = 0; l < k; ++l)
          sum += (ta ? pa[l * m + i] : pa[i * k + l]) *
                 (tb ? pb[j * k + l] : pb[l * n + j]);
        pc[i * n + j] = sum;
      }
  });
  return c;
}

/// The sizes and attributes of one convolution: input [n, c, h, w], filter
/// [o, c / groups, kh, kw], output [n, o, oh, ow].
struct ConvGeometry {
  template <typename OpT>
  ConvGeometry(OpT op, ArrayRef<int64_t> x, ArrayRef<int64_t> w,
               ArrayRef<int64_t> y)
      : n(x[0]), c(x[1]), h(x[2]), wd(x[3]), o(w[0]), kh(w[2]), kw(w[3]),
        oh(y[2]), ow(y[3]), groups(op.getGroups()), strides(op.getStrides()),
        padding(op.getPadding()), dilation(op.getDilation()) {}

  /// Calls `fn(xOffset, wOffset, yOffset)` for every product of the
  /// convolution: output element y += x * w, skipping the zero padding.
  void forEachTap(function_ref<void(int64_t, int64_t, int64_t)> fn) const {
    int64_t cPerGroup = c / groups, oPerGroup = o / groups;
    for (int64_t in = 0; in < n; ++in)
      for (int64_t io = 0; io < o; ++io)
        for (int64_t y = 0; y < oh; ++y)
          for (int64_t x = 0; x < ow; ++x) {
            int64_t yOffset = ((in * o + io) * oh + y) * ow + x;
            int64_t group = io / oPerGroup;
            for (int64_t ic = 0; ic < cPerGroup; ++ic)
              for (int64_t ky = 0; ky < kh; ++ky)
                for (int64_t kx = 0; kx < kw; ++kx) {
                  int64_t iy = y * strides[0] - padding[0] + ky * dilation[0];
                  int64_t ix = x * strides[1] - padding[1] + kx * dilation[1];
                  if (iy < 0 || iy >= h || ix < 0 || ix >= wd)
                    continue;
                  int64_t channel = group * cPerGroup + ic;
                  int64_t xOffset = ((in * c + channel) * h + iy) * wd + ix;
                  int64_t wOffset = ((io * cPerGroup + ic) * kh + ky) * kw + kx;
                  fn(xOffset, wOffset, yOffset);
                }
          }
  }

  int64_t n, c, h, wd, o, kh, kw, oh, ow, groups;
  ArrayRef<int64_t> strides, padding, dilation;
};

/// The tensors of a convolution, as forEachTap passes their offsets.
enum Slot { X, W, Y };

/// The three convolutions accumulate one product per tap into their result:
/// result[out] += operand0[a] * operand1[b], with the slots naming which of
/// the input, filter and output each one is.
template <typename OpT>
RefTensor convolve(OpT op, Operands in, Slot out, Slot a, Slot b) {
  RefTensor result = resultLike(op);
  ArrayRef<int64_t> shapes[3];
  shapes[out] = result.shape;
  shapes[a] = in[0]->shape;
  shapes[b] = in[1]->shape;
  ConvGeometry(op, shapes[X], shapes[W], shapes[Y])
      .forEachTap([&](int64_t xi, int64_t wi, int64_t yi) {
        int64_t offsets[3] = {xi, wi, yi};
        result.data[offsets[out]] +=
            in[0]->data[offsets[a]] * in[1]->data[offsets[b]];
      });
  return result;
}

} // namespace

void amp::reference::registerContractionOps(EvaluatorTable &table) {
  table.add<MatmulOp>(evalMatmul);
  // conv2d(x, w) -> y; conv2d_grad_input(dy, w) -> dx;
  // conv2d_grad_filter(dy, x) -> dw.
  table.add<Conv2DOp>(
      [](Conv2DOp op, Operands in) { return convolve(op, in, Y, X, W); });
  table.add<Conv2DGradInputOp>([](Conv2DGradInputOp op, Operands in) {
    return convolve(op, in, X, Y, W);
  });
  table.add<Conv2DGradFilterOp>([](Conv2DGradFilterOp op, Operands in) {
    return convolve(op, in, W, Y, X);
  });
}
