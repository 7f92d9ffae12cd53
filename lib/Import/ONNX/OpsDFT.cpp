//===- OpsDFT.cpp - DFT and STFT with a constant Fourier matrix -----------===//
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
// STFT (opset 17) frames a signal [batch, length, 1 | 2] and transforms
// each frame, weighted by the window, with the same matrix: one nn.conv2d
// whose filter is the matrix with the window folded into its columns, laid
// out as [2 * bins, components, 1, frame_length], strided by frame_step
// over the signal as [batch, components, 1, length], does both (frames =
// (length - frame_length) / frame_step + 1), pinned to f32 like the DFT.
// The output is [batch, frames, bins, 2]: torch.stft's frames, as
// torchaudio's spectrograms compute them.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

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

/// Counts the bytes of the transform's matrix against the import's budget;
/// an error when it is too large.
static LogicalResult reserveFourierMatrix(NodeContext &nc, const DftShape &s) {
  std::optional<int64_t> rows = amp::checked::mul(s.out, s.k);
  std::optional<int64_t> entries =
      rows ? amp::checked::mul(*rows, s.in * s.n) : std::nullopt;
  if (!entries || !constElementCount({*entries}, onnx::TensorProto::FLOAT) ||
      failed(nc.reserveFoldedBytes(*entries * int64_t(sizeof(float)))))
    return nc.error() << "the Fourier matrix of " << s.n << " samples to "
                      << s.k << " is too large",
           failure();
  return success();
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
    FailureOr<const Const *> a = nc.scalarInput(2, "the axis");
    if (failed(a))
      return failure();
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
    FailureOr<const Const *> l = nc.scalarInput(1, "dft_length");
    if (failed(l))
      return failure();
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
  if (failed(reserveFourierMatrix(nc, s)))
    return failure();
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
        {nc.named("transpose_b", nc.builder.getUnitAttr()), nc.pinnedF32()});
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

/// A scalar constant input `i` of STFT, which must be positive.
static FailureOr<int64_t> positiveScalar(NodeContext &nc, unsigned i,
                                         llvm::StringRef what) {
  FailureOr<const Const *> c = nc.scalarInput(i, what);
  if (failed(c))
    return failure();
  const int64_t v = (*c)->ints()[0];
  if (v < 1)
    return nc.error() << what << " must be positive, got " << v, failure();
  return v;
}

static LogicalResult importSTFT(NodeContext &nc) {
  FailureOr<Value> x = nc.floatValue(0);
  FailureOr<int64_t> onesided = nc.intAttr("onesided", 1);
  if (failed(x) || failed(onesided))
    return failure();
  llvm::SmallVector<int64_t> xs = shapeOf(*x);
  if (xs.size() != 3 || (xs[2] != 1 && xs[2] != 2))
    return nc.error() << "the signal must be [batch, length, 1] (real) or "
                         "[batch, length, 2] (complex), got ["
                      << xs << "]",
           failure();
  FailureOr<int64_t> step = positiveScalar(nc, 1, "frame_step");
  if (failed(step))
    return failure();
  // The frame length: frame_length's, else the window's, else the signal's.
  const Const *window = nullptr;
  int64_t frameLength = xs[1];
  if (nc.hasInput(2)) {
    FailureOr<const Const *> c = nc.constInput(2, "the window");
    if (failed(c))
      return failure();
    if ((*c)->shape.size() != 1)
      return nc.error() << "the window must have rank 1, got [" << (*c)->shape
                        << "]",
             failure();
    window = *c;
    frameLength = window->shape[0];
  }
  if (nc.hasInput(3)) {
    FailureOr<int64_t> l = positiveScalar(nc, 3, "frame_length");
    if (failed(l))
      return failure();
    if (window && *l != frameLength)
      return nc.error() << "frame_length " << *l
                        << " differs from the window's length " << frameLength,
             failure();
    frameLength = *l;
  }
  if (frameLength < 1 || frameLength > xs[1])
    return nc.error() << "the frame length " << frameLength
                      << " must be in [1, " << xs[1]
                      << "] (the signal's length)",
           failure();
  if (*onesided && xs[2] == 2)
    return nc.error() << "onesided = 1 needs a real signal ([batch, length, "
                         "1])",
           failure();
  DftShape s;
  s.n = s.length = frameLength;
  s.in = xs[2];
  s.out = 2;
  s.inverse = false;
  s.onesided = *onesided != 0;
  s.k = s.onesided ? s.length / 2 + 1 : s.length;
  if (failed(reserveFourierMatrix(nc, s)))
    return failure();
  // The filter [2 * bins, components, 1, frame_length]: the Fourier
  // matrix's rows, each sample's column weighted by the window.
  std::vector<float> filter = fourierMatrix(s);
  if (window)
    for (size_t e = 0; e < filter.size(); ++e)
      filter[e] *= float(window->at(int64_t(e) % s.n));
  const int64_t frames = (xs[1] - frameLength) / *step + 1;
  FailureOr<Value> y = nc.create<nn::TransposeOp>(
      {*x}, {nc.named("perm", nc.i64Array({0, 2, 1}))});
  if (succeeded(y))
    y = nc.reshape(*y, {xs[0], s.in, 1, xs[1]});
  if (succeeded(y))
    y = nc.create<nn::Conv2DOp>(
        {*y, nc.constant({s.out * s.k, s.in, 1, s.n}, filter)},
        {nc.named("strides", nc.i64Array({1, *step})),
         nc.named("padding", nc.i64Array({0, 0, 0, 0})),
         nc.named("dilation", nc.i64Array({1, 1})),
         nc.named("groups", nc.builder.getI64IntegerAttr(1)), nc.pinnedF32()});
  // [batch, 2 * bins, 1, frames] -> [batch, 2, bins, frames] -> [batch,
  // frames, bins, 2].
  if (succeeded(y))
    y = nc.reshape(*y, {xs[0], s.out, s.k, frames});
  if (succeeded(y))
    y = nc.create<nn::TransposeOp>(
        {*y}, {nc.named("perm", nc.i64Array({0, 3, 2, 1}))});
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

void amp::onnx_import::registerDFTOps(OpTable &t) {
  t["DFT"] = {importDFT, {"axis", "inverse", "onesided"}};
  t["STFT"] = {importSTFT, {"onesided"}};
}
