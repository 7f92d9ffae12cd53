//===- OpsWindows.cpp - window functions and the mel filter bank ----------===//
//
// HannWindow, HammingWindow and BlackmanWindow (opset 17) of a size known
// at import time, and MelWeightMatrix (opset 17), the triangular filters
// that map a one-sided spectrum onto mel bands: tables of constants that
// feed STFT and the matmul of a log-mel front end. Each is computed in
// double, as ONNX's reference does, and given the type of
// `output_datatype` (default FLOAT) as a Cast to it would (castValues).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include <cmath>

using namespace amp::onnx_import;
using namespace mlir;

/// Defines output 0 as the `n` values `at(k)` of `shape`, row-major, in the
/// type of the node's `output_datatype` (default FLOAT); their bytes are
/// counted against the import's budget before any is computed.
static LogicalResult setTable(NodeContext &nc, llvm::ArrayRef<int64_t> shape,
                              int64_t n,
                              llvm::function_ref<double(int64_t)> at) {
  FailureOr<int64_t> dtype =
      nc.intAttr("output_datatype", onnx::TensorProto::FLOAT);
  if (failed(dtype))
    return failure();
  if (!isSupportedDataType(*dtype) || *dtype == onnx::TensorProto::BOOL)
    return nc.error() << "output_datatype " << dataTypeName(*dtype)
                      << " is not supported",
           failure();
  if (failed(nc.reserveFoldedBytes(
          n * constValueBytes(importedDataType(*dtype)))) ||
      failed(nc.setOutput(0, castValues(shape, n, at, *dtype))))
    return failure();
  nc.declareType(0, *dtype);
  return success();
}

namespace {
/// A cosine-sum window w[n] = a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N),
/// N = size (periodic, the default) or size - 1 (symmetric).
struct CosineSum {
  double a0, a1, a2;
};
} // namespace

static LogicalResult importWindow(NodeContext &nc, CosineSum coefficients) {
  FailureOr<const Const *> size = nc.scalarInput(0, "the size");
  FailureOr<int64_t> periodic = nc.intAttr("periodic", 1);
  if (failed(size) || failed(periodic))
    return failure();
  const int64_t n = (*size)->ints()[0];
  if (n < 1 || n > maxConstElements(onnx::TensorProto::INT64))
    return nc.error() << "the size must be in [1, "
                      << maxConstElements(onnx::TensorProto::INT64) << "], got "
                      << n,
           failure();
  // A symmetric window of one sample divides by 0 in ONNX's reference;
  // PyTorch's is [1].
  const double period = *periodic ? double(n) : double(n - 1);
  const double pi = std::acos(-1.0);
  return setTable(nc, {n}, n, [&](int64_t k) {
    if (period == 0)
      return 1.0;
    const double theta = 2.0 * pi * double(k) / period;
    return coefficients.a0 - coefficients.a1 * std::cos(theta) +
           coefficients.a2 * std::cos(2.0 * theta);
  });
}

static LogicalResult importHannWindow(NodeContext &nc) {
  return importWindow(nc, {0.5, 0.5, 0.0});
}
static LogicalResult importHammingWindow(NodeContext &nc) {
  // ONNX's (and PyTorch's default) alpha = 25 / 46, beta = 1 - alpha.
  return importWindow(nc, {25.0 / 46.0, 21.0 / 46.0, 0.0});
}
static LogicalResult importBlackmanWindow(NodeContext &nc) {
  return importWindow(nc, {0.42, 0.5, 0.08});
}

/// MelWeightMatrix: [dft_length / 2 + 1, num_mel_bins] triangular filters
/// whose num_mel_bins + 2 edges are equally spaced in mel (2595 log10(1 +
/// f / 700)) from lower_edge_hertz, in steps of the mel range over
/// num_mel_bins + 2, and fall on the spectrum's bins floor((dft_length + 1)
/// f / sample_rate), as ONNX's reference and onnxruntime compute them.
/// Filter i rises from 0 at edge i to 1 at edge i + 1 and falls to 0 at
/// edge i + 2 (a single 1 where two edges share a bin).
static LogicalResult importMelWeightMatrix(NodeContext &nc) {
  static constexpr const char *kWhat[] = {"num_mel_bins", "dft_length",
                                          "sample_rate", "lower_edge_hertz",
                                          "upper_edge_hertz"};
  double in[5];
  for (unsigned k = 0; k < 5; ++k) {
    FailureOr<const Const *> v = nc.scalarInput(k, kWhat[k]);
    if (failed(v))
      return failure();
    in[k] = (*v)->at(0);
  }
  const int64_t mels = toInt64(in[0]), dftLength = toInt64(in[1]),
                rate = toInt64(in[2]);
  const double lower = in[3], upper = in[4];
  if (mels < 1 || dftLength < 1 || rate < 1)
    return nc.error() << "num_mel_bins, dft_length and sample_rate must be "
                         "positive",
           failure();
  if (!(lower >= 0 && lower <= upper && std::isfinite(upper)))
    return nc.error() << "the edges must satisfy 0 <= lower_edge_hertz ("
                      << lower << ") <= upper_edge_hertz (" << upper << ")",
           failure();
  const int64_t bins = dftLength / 2 + 1;
  std::optional<int64_t> count =
      constElementCount({bins, mels}, onnx::TensorProto::INT64);
  if (!count)
    return nc.error() << "the matrix of " << bins << " x " << mels
                      << " is over the importer's limit on constants",
           failure();
  auto toMel = [](double hz) { return 2595.0 * std::log10(1.0 + hz / 700.0); };
  const double low = toMel(lower);
  const double step = (toMel(upper) - low) / double(mels + 2);
  std::vector<int64_t> edge(mels + 2);
  for (int64_t i = 0; i < mels + 2; ++i) {
    const double hz =
        700.0 * (std::pow(10.0, (double(i) * step + low) / 2595.0) - 1.0);
    edge[i] = toInt64(std::floor(double(dftLength + 1) * hz / double(rate)));
    if (edge[i] < 0 || edge[i] >= bins)
      return nc.error() << "mel edge " << i << " falls on bin " << edge[i]
                        << ", outside the " << bins << " bins",
             failure();
  }
  // Bin j of filter i: rising on [left, center), 1 at the center, falling
  // on (center, right).
  return setTable(nc, {bins, mels}, *count, [&](int64_t k) {
    const int64_t j = k / mels, i = k % mels;
    const int64_t left = edge[i], center = edge[i + 1], right = edge[i + 2];
    if (j >= left && j < center)
      return double(j - left) / double(center - left);
    if (j == center)
      return 1.0;
    if (j > center && j < right)
      return double(right - j) / double(right - center);
    return 0.0;
  });
}

void amp::onnx_import::registerWindowOps(OpTable &t) {
  t["BlackmanWindow"] = {importBlackmanWindow, {"output_datatype", "periodic"}};
  t["HammingWindow"] = {importHammingWindow, {"output_datatype", "periodic"}};
  t["HannWindow"] = {importHannWindow, {"output_datatype", "periodic"}};
  t["MelWeightMatrix"] = {importMelWeightMatrix, {"output_datatype"}};
}
