//===- OpsDFT.cpp - DFT as a matmul with a constant Fourier matrix --------===//
//
// ONNX's DFT (opsets 17 and 20) of a real ([..., 1]) or complex ([..., 2])
// signal along one axis, as one nn.matmul with a constant matrix that maps
// the axis's real and imaginary parts to the output's: the axis and the
// complex pair are moved last (nn.transpose) and joined (nn.reshape),
// multiplied by the matrix (transpose_b), and moved back. This is how
// Resize applies its interpolation matrices, and it trains like any matmul
// (FNet mixes its tokens with a 2-D DFT of the hidden states,
// `torch.fft.fftn(x).real`). The matmul is pinned to f32 (amp.precision),
// as PyTorch's autocast runs its FFTs in f32: a transform sums N terms of
// its input's scale, which passes f16's range long before the input does,
// and bf16's 8 bits would round every one. An N-point DFT costs N
// multiply-adds per output element where an FFT takes about log N, which
// is small next to the layers around it for the transform lengths of
// models (the hidden size, the sequence).
//
// For dft_length L (default: the axis's length N; an input longer than L
// is truncated, a shorter one zero-padded: the matrix's columns past L are
// zero) and K output frequencies (L, or L / 2 + 1 with onesided), with
// theta = 2 pi k n / L:
//   forward  X[k] = sum_n x[n] (cos theta - i sin theta)
//   inverse  x[n] = 1/L sum_k X[k] (cos theta + i sin theta)
//   inverse and onesided (a real signal from its one-sided spectrum, as
//            numpy's irfft): x[n] = 1/L sum_k w_k (Re X[k] cos theta -
//            Im X[k] sin theta), w_k = 2 but 1 at k = 0 and k = L / 2,
//            over k <= L / 2; its output is real ([..., 1]) of length L
//            (default 2 (N - 1)).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Dialect/NN/IR/NNOps.h"

#include "amp_runtime/checked_size.h"

#include <cmath>
#include <numeric>

using namespace amp::onnx_import;
using namespace mlir;
namespace nn = amp::nn;

namespace {
/// The transform of one node: `in` complex components (1 or 2) of `n`
/// samples to `out` components of `k` samples.
struct DftShape {
  int64_t n, length, k, in, out;
  bool inverse, onesided;
};
} // namespace

/// The [out * k, in * n] matrix of the transform, row-major: output
/// component c of sample j from input component d of sample m is entry
/// (c * k + j, d * n + m), the components real then imaginary.
static std::vector<float> fourierMatrix(const DftShape &s) {
  std::vector<float> m(s.out * s.k * s.in * s.n, 0.0f);
  const double pi = std::acos(-1.0);
  auto at = [&](int64_t c, int64_t j, int64_t d, int64_t sample) -> float & {
    return m[(c * s.k + j) * (s.in * s.n) + d * s.n + sample];
  };
  const bool irfft = s.inverse && s.onesided;
  for (int64_t j = 0; j < s.k; ++j) {
    for (int64_t sample = 0; sample < s.n; ++sample) {
      // irfft sums over the input's frequencies into each output sample;
      // the others over the input's samples into each output frequency.
      const int64_t freq = irfft ? sample : j, time = irfft ? j : sample;
      if (time >= s.length || (irfft && freq > s.length / 2))
        continue;
      // 2 pi k n / L, with k n reduced modulo L first so that the angle
      // stays exact for long transforms.
      const double theta =
          2.0 * pi * double((freq * time) % s.length) / double(s.length);
      const double c = std::cos(theta), sn = std::sin(theta);
      if (irfft) {
        double w = (freq == 0 || 2 * freq == s.length) ? 1.0 : 2.0;
        w /= double(s.length);
        at(0, j, 0, sample) = float(w * c);
        if (s.in == 2)
          at(0, j, 1, sample) = float(-w * sn);
        continue;
      }
      // X = x (cos - i sin) forward, (cos + i sin) / L inverse.
      const double scale = s.inverse ? 1.0 / double(s.length) : 1.0;
      const double sign = s.inverse ? 1.0 : -1.0;
      at(0, j, 0, sample) = float(scale * c);
      at(1, j, 0, sample) = float(scale * sign * sn);
      if (s.in == 2) {
        at(0, j, 1, sample) = float(-scale * sign * sn);
        at(1, j, 1, sample) = float(scale * c);
      }
    }
  }
  return m;
}

static LogicalResult importDFT(NodeContext &nc) {
  FailureOr<Value> x = nc.floatValue(0);
  FailureOr<int64_t> inverse = nc.intAttr("inverse", 0);
  FailureOr<int64_t> onesided = nc.intAttr("onesided", 0);
  if (failed(x) || failed(inverse) || failed(onesided))
    return failure();
  llvm::SmallVector<int64_t> shape = shapeOf(*x);
  const int64_t rank = shape.size();
  if (rank < 2 || (shape.back() != 1 && shape.back() != 2))
    return nc.error() << "the input must be [..., 1] (real) or [..., 2] "
                         "(complex), got ["
                      << shape << "]",
           failure();
  // The axis: an attribute (default 1) before opset 20, then an input
  // (default -2); negative counts from the end.
  int64_t axis = nc.opset < 20 ? 1 : -2;
  if (nc.opset < 20) {
    FailureOr<int64_t> a = nc.intAttr("axis", 1);
    if (failed(a))
      return failure();
    axis = *a;
  } else if (nc.hasInput(2)) {
    FailureOr<const Const *> a = nc.constInput(2, "the axis");
    if (failed(a))
      return failure();
    if ((*a)->numel() != 1)
      return nc.error() << "the axis must be a scalar", failure();
    axis = (*a)->ints()[0];
  }
  if (axis < -rank || axis >= rank - 1 || axis == -1)
    return nc.error() << "the axis " << axis << " is not a signal axis of rank "
                      << rank << " (the last holds the complex components)",
           failure();
  if (axis < 0)
    axis += rank;
  DftShape s;
  s.n = shape[axis];
  s.in = shape.back();
  s.inverse = *inverse != 0;
  s.onesided = *onesided != 0;
  s.length = s.inverse && s.onesided ? 2 * (s.n - 1) : s.n;
  if (nc.hasInput(1)) {
    FailureOr<const Const *> l = nc.constInput(1, "dft_length");
    if (failed(l))
      return failure();
    if ((*l)->numel() != 1)
      return nc.error() << "dft_length must be a scalar", failure();
    s.length = (*l)->ints()[0];
  }
  if (s.length < 1)
    return nc.error() << "dft_length must be positive, got " << s.length,
           failure();
  if (s.inverse && s.onesided) {
    s.k = s.length;
    s.out = 1;
  } else {
    s.k = s.onesided ? s.length / 2 + 1 : s.length;
    s.out = 2;
  }
  std::optional<int64_t> rows = amp::checked::mul(s.out, s.k);
  std::optional<int64_t> entries =
      rows ? amp::checked::mul(*rows, s.in * s.n) : std::nullopt;
  if (!entries || !constElementCount({*entries}, onnx::TensorProto::FLOAT) ||
      failed(nc.reserveFoldedBytes(*entries * int64_t(sizeof(float)))))
    return nc.error() << "the Fourier matrix of " << s.n << " samples to "
                      << s.k << " is too large",
           failure();
  // [others..., component, axis] -> [others..., in * n].
  llvm::SmallVector<int64_t> perm, others;
  for (int64_t d = 0; d < rank - 1; ++d)
    if (d != axis) {
      perm.push_back(d);
      others.push_back(shape[d]);
    }
  perm.push_back(rank - 1);
  perm.push_back(axis);
  llvm::SmallVector<int64_t> joined(others);
  joined.push_back(s.in * s.n);
  FailureOr<Value> y =
      nc.create<nn::TransposeOp>({*x}, {nc.named("perm", nc.i64Array(perm))});
  if (succeeded(y))
    y = nc.reshape(*y, joined);
  if (succeeded(y))
    y = nc.create<nn::MatmulOp>(
        {*y, nc.constant({s.out * s.k, s.in * s.n}, fourierMatrix(s))},
        {nc.named("transpose_b", nc.builder.getUnitAttr()),
         nc.named(amp::AMPDialect::getPrecisionAttrName(),
                  TypeAttr::get(nc.builder.getF32Type()))});
  // [others..., out * k] -> [others..., out, k] -> the axis back in place,
  // the components last.
  llvm::SmallVector<int64_t> split(others);
  split.push_back(s.out);
  split.push_back(s.k);
  if (succeeded(y))
    y = nc.reshape(*y, split);
  llvm::SmallVector<int64_t> back;
  for (int64_t d = 0, o = 0; d < rank - 1; ++d)
    back.push_back(d == axis ? rank - 1 : o++);
  back.push_back(rank - 2);
  if (succeeded(y))
    y = nc.create<nn::TransposeOp>({*y}, {nc.named("perm", nc.i64Array(back))});
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

void amp::onnx_import::registerDFTOps(OpTable &t) {
  t["DFT"] = {importDFT, {"axis", "inverse", "onesided"}};
}
