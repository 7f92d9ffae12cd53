//===- OpsConvPool.cpp - Conv and the pools -------------------------------===//
//
// Conv, ConvTranspose, MaxPool, AveragePool and LpPool on 2-D (NCHW) and 1-D
// (NCL, lifted to N x C x 1 x L) inputs map onto nn.conv2d,
// nn.conv2d_grad_input, nn.max_pool2d and nn.avg_pool2d; the window geometry
// (pads, strides, dilations, auto_pad, ceil_mode) is resolved here to the
// explicit [top, left, bottom, right] padding of nn. Conv, MaxPool and
// AveragePool on 3-D (NCDHW) inputs are 2-D windows over the depth slices
// each kernel depth reads, summed (or maxed) over the kernel's depth
// (overDepth); a 3-D ConvTranspose is nn.conv2d_grad_input per kernel
// depth, each spread and shifted onto the output depths and summed.
// An average nn.avg_pool2d cannot take (dilations; ceil_mode with
// count_include_pad and pads) and LpPool's sums are a depthwise
// nn.conv2d with a filter of ones (sumPool2D), divided by a constant count
// of each output's taps for the average.
// GlobalAveragePool and GlobalMaxPool are nn.global_avg_pool or reductions.
// Col2Im is nn.conv2d_grad_input with a one-hot filter.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include "amp_runtime/checked_size.h"

#include <limits>
#include <type_traits>

using namespace amp::onnx_import;
using namespace mlir;
namespace nn = amp::nn;

namespace {
/// The resolved window geometry of one node, per spatial dim (1 or 2).
struct Window {
  llvm::SmallVector<int64_t> kernel, strides, dilations, padBegin, padEnd;
  /// The end padding of the model's own (pads, auto_pad): padEnd without
  /// ceil_mode's extra positions, which no average counts.
  llvm::SmallVector<int64_t> modelPadEnd;
  /// Whether the model pads (pads, auto_pad), before ceil_mode's extra end
  /// padding.
  bool padded = false;
};
} // namespace

/// Reads kernel_shape/strides/dilations/pads/auto_pad (and ceil_mode when
/// `ceil` is given) for `spatial` input dims of sizes `in`.
static LogicalResult readWindow(NodeContext &nc, llvm::ArrayRef<int64_t> in,
                                llvm::ArrayRef<int64_t> kernelFromWeights,
                                bool *ceil, Window &w) {
  size_t n = in.size();
  auto ints = [&](llvm::StringRef name, int64_t dflt,
                  size_t count) -> FailureOr<llvm::SmallVector<int64_t>> {
    FailureOr<std::optional<llvm::SmallVector<int64_t>>> v = nc.intsAttr(name);
    if (failed(v))
      return failure();
    if (!*v)
      return llvm::SmallVector<int64_t>(count, dflt);
    if ((*v)->size() != count) {
      nc.error() << "attribute '" << name << "' has " << (*v)->size()
                 << " values; " << count << " expected";
      return failure();
    }
    return **v;
  };
  FailureOr<llvm::SmallVector<int64_t>> kernel =
      kernelFromWeights.empty()
          ? ints("kernel_shape", 0, n)
          : FailureOr<llvm::SmallVector<int64_t>>(
                llvm::SmallVector<int64_t>(kernelFromWeights));
  if (failed(kernel))
    return failure();
  if (!kernelFromWeights.empty() && nc.attr("kernel_shape")) {
    FailureOr<llvm::SmallVector<int64_t>> given = ints("kernel_shape", 0, n);
    if (failed(given))
      return failure();
    if (*given != *kernel)
      return nc.error() << "kernel_shape does not match the weights", failure();
  }
  if (kernelFromWeights.empty() && !nc.attr("kernel_shape"))
    return nc.error() << "attribute 'kernel_shape' is missing", failure();
  FailureOr<llvm::SmallVector<int64_t>> strides = ints("strides", 1, n);
  FailureOr<llvm::SmallVector<int64_t>> dilations = ints("dilations", 1, n);
  FailureOr<llvm::SmallVector<int64_t>> pads = ints("pads", 0, 2 * n);
  FailureOr<std::string> autoPad = nc.stringAttr("auto_pad", "NOTSET");
  if (failed(strides) || failed(dilations) || failed(pads) || failed(autoPad))
    return failure();
  for (size_t d = 0; d < n; ++d) {
    if ((*kernel)[d] <= 0 || (*strides)[d] <= 0 || (*dilations)[d] <= 0)
      return nc.error() << "kernel, strides and dilations must be positive",
             failure();
    if ((*pads)[d] < 0 || (*pads)[d + n] < 0)
      return nc.error() << "negative pads are not supported", failure();
    // The window's extent and the padded input must fit in int64, so that
    // the geometry below (and the verifier's) cannot overflow.
    std::optional<int64_t> extent =
        amp::checked::mulAdd((*kernel)[d] - 1, (*dilations)[d], 1);
    std::optional<int64_t> padded = amp::checked::add(in[d], (*pads)[d]);
    if (padded)
      padded = amp::checked::add(*padded, (*pads)[d + n]);
    if (!extent || !padded ||
        !amp::checked::add(*padded, std::max(*extent, (*strides)[d])))
      return nc.error() << "the window's geometry (kernel, strides, "
                           "dilations, pads) overflows int64",
             failure();
  }
  w.kernel = *kernel;
  w.strides = *strides;
  w.dilations = *dilations;
  w.padBegin.assign(pads->begin(), pads->begin() + n);
  w.padEnd.assign(pads->begin() + n, pads->end());
  if (*autoPad == "VALID") {
    w.padBegin.assign(n, 0);
    w.padEnd.assign(n, 0);
  } else if (*autoPad == "SAME_UPPER" || *autoPad == "SAME_LOWER") {
    for (size_t d = 0; d < n; ++d) {
      int64_t out = (in[d] + w.strides[d] - 1) / w.strides[d];
      int64_t extent = (w.kernel[d] - 1) * w.dilations[d] + 1;
      int64_t total =
          std::max<int64_t>(0, (out - 1) * w.strides[d] + extent - in[d]);
      int64_t small = total / 2;
      w.padBegin[d] = *autoPad == "SAME_UPPER" ? small : total - small;
      w.padEnd[d] = total - w.padBegin[d];
    }
  } else if (*autoPad != "NOTSET") {
    return nc.error() << "auto_pad = '" << *autoPad << "' is not supported",
           failure();
  }
  auto nonzero = [](int64_t p) { return p != 0; };
  w.padded =
      llvm::any_of(w.padBegin, nonzero) || llvm::any_of(w.padEnd, nonzero);
  w.modelPadEnd = w.padEnd;
  if (ceil && *ceil) {
    // Output sizes rounded up; a window must start inside the input or its
    // begin padding. The extra end padding makes nn's floor rule give it.
    // A window larger than the padded input still gives one output when
    // it is less than a stride larger: Hugging Face's EfficientNet pools
    // its last 7 x 7 map with a 1280-wide window (a global pool).
    bool anyExtra = false;
    for (size_t d = 0; d < n; ++d) {
      int64_t extent = (w.kernel[d] - 1) * w.dilations[d] + 1;
      int64_t span = in[d] + w.padBegin[d] + w.padEnd[d] - extent;
      if (span <= -w.strides[d])
        return nc.error() << "the window is larger than the padded input "
                             "by a stride or more (no output)",
               failure();
      int64_t out = span < 0 ? 1 : (span + w.strides[d] - 1) / w.strides[d] + 1;
      if ((out - 1) * w.strides[d] >= in[d] + w.padBegin[d])
        --out;
      int64_t extra = (out - 1) * w.strides[d] + extent -
                      (in[d] + w.padBegin[d] + w.padEnd[d]);
      if (extra > 0) {
        w.padEnd[d] += extra;
        anyExtra = true;
      }
    }
    // Whether ceil_mode changed the geometry at all.
    *ceil = anyExtra;
  }
  return success();
}

/// Lifts a 1-D window (and shape) to 2-D: H = 1.
static void liftWindow(Window &w) {
  w.kernel.insert(w.kernel.begin(), 1);
  w.strides.insert(w.strides.begin(), 1);
  w.dilations.insert(w.dilations.begin(), 1);
  w.padBegin.insert(w.padBegin.begin(), 0);
  w.padEnd.insert(w.padEnd.begin(), 0);
  w.modelPadEnd.insert(w.modelPadEnd.begin(), 0);
}

static llvm::SmallVector<int64_t> padding(const Window &w) {
  return {w.padBegin[0], w.padBegin[1], w.padEnd[0], w.padEnd[1]};
}

/// The input as a 4-D value (1-D spatial inputs get H = 1).
static FailureOr<Value> input4D(NodeContext &nc, Value x) {
  llvm::SmallVector<int64_t> s = shapeOf(x);
  if (s.size() == 4)
    return x;
  return nc.reshape(x, {s[0], s[1], 1, s[2]});
}

/// 1-D and 2-D windows, and 3-D ones where `allow3D`.
static LogicalResult checkSpatialRank(NodeContext &nc, Value x, bool allow3D) {
  size_t rank = shapeOf(x).size();
  if (rank == 3 || rank == 4 || (allow3D && rank == 5))
    return success();
  return nc.error() << (allow3D ? "only 1-D, 2-D and 3-D windows (inputs of "
                                  "rank 3, 4 or 5) are supported"
                                : "only 1-D and 2-D windows (inputs of rank 3 "
                                  "or 4) are supported")
                    << "; the input has rank " << rank,
         failure();
}

/// The window without its first (depth) dim.
static Window dropDepth(const Window &w) {
  Window w2;
  w2.kernel.assign(w.kernel.begin() + 1, w.kernel.end());
  w2.strides.assign(w.strides.begin() + 1, w.strides.end());
  w2.dilations.assign(w.dilations.begin() + 1, w.dilations.end());
  w2.padBegin.assign(w.padBegin.begin() + 1, w.padBegin.end());
  w2.padEnd.assign(w.padEnd.begin() + 1, w.padEnd.end());
  w2.modelPadEnd.assign(w.modelPadEnd.begin() + 1, w.modelPadEnd.end());
  w2.padded = w.padded;
  return w2;
}

/// The most kernel depths a 3-D window may have (one 2-D op each).
constexpr int64_t kMaxKernelDepth = 1024;

static LogicalResult checkKernelDepth(NodeContext &nc, const Window &w) {
  if (w.kernel[0] <= kMaxKernelDepth)
    return success();
  return nc.error() << "a 3-D window of depth " << w.kernel[0] << " (more than "
                    << kMaxKernelDepth << ") is not supported",
         failure();
}

/// [N, C, D, H, W] <-> [N, D, C, H, W] (the permutation is its own inverse).
static FailureOr<Value> swapChannelsAndDepth(NodeContext &nc, Value v) {
  return nc.create<nn::TransposeOp>(
      {v}, {nc.named("perm", nc.i64Array({0, 2, 1, 3, 4}))});
}

/// A 3-D window on x [N, C, D, H, W] as 2-D windows over its depth: x,
/// padded along D with `padValue`, is moved to [N, D, C, H, W]; for each
/// kernel depth kd the depths that the output depths read through it (d =
/// out * stride + kd * dilation), [N, Do, C, H, W], are folded into the
/// batch and given to `apply2D(kd, slice)`, whose [N * Do, C', H', W']
/// results `combine` joins; the result is moved back to [N, C', Do, H', W'].
/// The same multiply-adds (or comparisons) as the 3-D window, in 2-D ops
/// that train through nn.slice and nn.transpose.
static FailureOr<Value>
overDepth(NodeContext &nc, Value x, const Window &w, float padValue,
          llvm::function_ref<FailureOr<Value>(int64_t, Value)> apply2D,
          llvm::function_ref<FailureOr<Value>(Value, Value)> combine) {
  llvm::SmallVector<int64_t> xs = shapeOf(x);
  const int64_t extent = (w.kernel[0] - 1) * w.dilations[0] + 1;
  if (failed(checkKernelDepth(nc, w)))
    return failure();
  if (w.padBegin[0] >= extent || w.padEnd[0] >= extent)
    return nc.error() << "a depth pad as large as the window (" << extent
                      << ") is not supported",
           failure();
  if (w.padBegin[0] || w.padEnd[0]) {
    FailureOr<Value> padded = nc.create<nn::PadOp>(
        {x}, {nc.named("low", nc.i64Array({0, 0, w.padBegin[0], 0, 0})),
              nc.named("high", nc.i64Array({0, 0, w.padEnd[0], 0, 0})),
              nc.named("value", nc.builder.getF32FloatAttr(padValue))});
    if (failed(padded))
      return failure();
    x = *padded;
  }
  const int64_t depth = xs[2] + w.padBegin[0] + w.padEnd[0];
  if (depth < extent)
    return nc.error() << "the window is larger than the padded input",
           failure();
  const int64_t outDepth = (depth - extent) / w.strides[0] + 1;
  FailureOr<Value> xt = swapChannelsAndDepth(nc, x);
  if (failed(xt))
    return failure();
  Value acc;
  for (int64_t kd = 0; kd < w.kernel[0]; ++kd) {
    FailureOr<Value> taps = nc.slice(*xt, {0, kd * w.dilations[0], 0, 0, 0},
                                     {xs[0], outDepth, xs[1], xs[3], xs[4]},
                                     {1, w.strides[0], 1, 1, 1});
    if (failed(taps))
      return failure();
    FailureOr<Value> batch =
        nc.reshape(*taps, {xs[0] * outDepth, xs[1], xs[3], xs[4]});
    if (failed(batch))
      return failure();
    FailureOr<Value> y = apply2D(kd, *batch);
    if (failed(y))
      return failure();
    if (acc) {
      y = combine(acc, *y);
      if (failed(y))
        return failure();
    }
    acc = *y;
  }
  llvm::SmallVector<int64_t> ys = shapeOf(acc);
  FailureOr<Value> y = nc.reshape(acc, {xs[0], outDepth, ys[1], ys[2], ys[3]});
  if (failed(y))
    return failure();
  return swapChannelsAndDepth(nc, *y);
}

/// Adds the optional bias (input 2, one value per output channel) to the
/// 4-D (or 5-D) convolution result `y`, drops the lifted H = 1 of a 1-D one,
/// and defines the node's output.
static LogicalResult finishConv(NodeContext &nc, Value y, int64_t channels,
                                bool lifted) {
  if (nc.hasInput(2)) {
    FailureOr<Value> bias = nc.floatValue(2);
    if (failed(bias))
      return failure();
    if (shapeOf(*bias) != llvm::SmallVector<int64_t>{channels})
      return nc.error() << "the bias must have shape [" << channels << "]",
             failure();
    // [channels, 1, ...]: one value per channel of y's spatial dims.
    llvm::SmallVector<int64_t> perChannel(shapeOf(y).size() - 1, 1);
    perChannel[0] = channels;
    bias = nc.reshape(*bias, perChannel);
    if (failed(bias))
      return failure();
    FailureOr<Value> sum = nc.create<nn::AddOp>({y, *bias});
    if (failed(sum))
      return failure();
    y = *sum;
  }
  if (lifted) {
    llvm::SmallVector<int64_t> ys = shapeOf(y);
    FailureOr<Value> flat = nc.reshape(y, {ys[0], ys[1], ys[3]});
    if (failed(flat))
      return failure();
    y = *flat;
  }
  return nc.setOutput(0, y);
}

namespace {
/// What Conv and ConvTranspose read: X, W (same rank), group, and the
/// window of X's spatial dims with the kernel from W.
struct ConvNode {
  Value x, weights;
  llvm::SmallVector<int64_t> xs, ws;
  int64_t group = 1;
  Window w;
};
} // namespace

static LogicalResult readConvNode(NodeContext &nc, ConvNode &c, bool allow3D) {
  nc.warnOneElementWeight(2, "bias");
  FailureOr<Value> x = nc.floatValue(0);
  FailureOr<Value> wv = nc.floatValue(1);
  FailureOr<int64_t> group = nc.intAttr("group", 1);
  if (failed(x) || failed(wv) || failed(group) ||
      failed(checkSpatialRank(nc, *x, allow3D)))
    return failure();
  c.x = *x;
  c.weights = *wv;
  c.group = *group;
  c.xs = shapeOf(c.x);
  c.ws = shapeOf(c.weights);
  if (c.ws.size() != c.xs.size())
    return nc.error() << "the weights have rank " << c.ws.size()
                      << "; the input has rank " << c.xs.size(),
           failure();
  return readWindow(nc, llvm::ArrayRef<int64_t>(c.xs).drop_front(2),
                    llvm::ArrayRef<int64_t>(c.ws).drop_front(2), nullptr, c.w);
}

/// The window attributes of nn.conv2d and nn.conv2d_grad_input.
static llvm::SmallVector<NamedAttribute>
convAttrs(NodeContext &nc, const Window &w, int64_t group) {
  return {nc.named("strides", nc.i64Array(w.strides)),
          nc.named("padding", nc.i64Array(padding(w))),
          nc.named("dilation", nc.i64Array(w.dilations)),
          nc.named("groups", nc.builder.getI64IntegerAttr(group))};
}

/// Builds `OpTy` on the node lifted to 2-D: nn.conv2d, or
/// nn.conv2d_grad_input, whose result has `outSpatial` as its spatial dims;
/// then adds the bias of `channels` and defines the output.
template <typename OpTy>
static LogicalResult buildConv(NodeContext &nc, ConvNode &c,
                               llvm::ArrayRef<int64_t> outSpatial,
                               int64_t channels) {
  bool lifted = c.xs.size() == 3;
  Value filter = c.weights;
  llvm::SmallVector<int64_t> out(outSpatial);
  if (lifted) {
    liftWindow(c.w);
    out.insert(out.begin(), 1);
    FailureOr<Value> f = nc.reshape(filter, {c.ws[0], c.ws[1], 1, c.ws[2]});
    if (failed(f))
      return failure();
    filter = *f;
  }
  FailureOr<Value> x4 = input4D(nc, c.x);
  if (failed(x4))
    return failure();
  llvm::SmallVector<NamedAttribute> attrs = convAttrs(nc, c.w, c.group);
  FailureOr<Value> y;
  if constexpr (std::is_same_v<OpTy, nn::Conv2DOp>) {
    y = nc.create<OpTy>({*x4, filter}, attrs);
  } else {
    auto type = RankedTensorType::get(
        {c.xs[0], channels, out[0], out[1]},
        cast<RankedTensorType>(x4->getType()).getElementType());
    y = nc.createTyped<OpTy>(type, {*x4, filter}, attrs);
  }
  if (failed(y))
    return failure();
  return finishConv(nc, *y, channels, lifted);
}

/// The 2-D filter W[:, :, kd] of the 3-D weights W [O, I, KD, KH, KW].
static FailureOr<Value> filterAtDepth(NodeContext &nc, const ConvNode &c,
                                      int64_t kd) {
  const llvm::SmallVector<int64_t> &ws = c.ws;
  FailureOr<Value> f =
      nc.slice(c.weights, {0, 0, kd, 0, 0}, {ws[0], ws[1], 1, ws[3], ws[4]});
  if (failed(f))
    return failure();
  return nc.reshape(*f, {ws[0], ws[1], ws[3], ws[4]});
}

/// A 3-D convolution: for each kernel depth kd, nn.conv2d of the depth
/// slices with the filter's slice W[:, :, kd], summed (overDepth).
static LogicalResult buildConv3D(NodeContext &nc, ConvNode &c) {
  llvm::SmallVector<NamedAttribute> attrs =
      convAttrs(nc, dropDepth(c.w), c.group);
  auto conv = [&](int64_t kd, Value x2) -> FailureOr<Value> {
    FailureOr<Value> f = filterAtDepth(nc, c, kd);
    if (failed(f))
      return failure();
    return nc.create<nn::Conv2DOp>({x2, *f}, attrs);
  };
  auto add = [&](Value a, Value b) { return nc.create<nn::AddOp>({a, b}); };
  FailureOr<Value> y = overDepth(nc, c.x, c.w, 0.0f, conv, add);
  if (failed(y))
    return failure();
  return finishConv(nc, *y, c.ws[0], /*lifted=*/false);
}

static LogicalResult importConv(NodeContext &nc) {
  ConvNode c;
  if (failed(readConvNode(nc, c, /*allow3D=*/true)))
    return failure();
  if (c.xs.size() == 5)
    return buildConv3D(nc, c);
  return buildConv<nn::Conv2DOp>(nc, c, {}, c.ws[0]);
}

/// ConvTranspose is the input gradient of the convolution whose filter is
/// its weights (ONNX's [C_in, C_out / group, k...] is that convolution's
/// [O, I / group, k...]): nn.conv2d_grad_input of X, whose result shape
/// holds the output size s * (in - 1) + output_padding + (k - 1) * d + 1 -
/// pads, or output_shape's with the pads that give it.
/// A 3-D ConvTranspose with output spatial dims `out`: for each kernel
/// depth kd, nn.conv2d_grad_input of every input depth (folded into the
/// batch) with the filter slice W[:, :, kd]; input depth i lands on output
/// depth i * stride + kd * dilation - padBegin, so the results are spread
/// along the depth (a stride's zeros after each, nn.pad), shifted there
/// (nn.pad, or nn.slice for what falls before 0 or past the end) and
/// summed.
static LogicalResult buildConvTranspose3D(NodeContext &nc, ConvNode &c,
                                          llvm::ArrayRef<int64_t> out,
                                          int64_t channels) {
  const Window &w = c.w;
  const int64_t n = c.xs[0], depth = c.xs[2], stride = w.strides[0];
  if (failed(checkKernelDepth(nc, w)))
    return failure();
  FailureOr<Value> xt = swapChannelsAndDepth(nc, c.x);
  if (failed(xt) ||
      failed(xt = nc.reshape(*xt, {n * depth, c.xs[1], c.xs[3], c.xs[4]})))
    return failure();
  llvm::SmallVector<NamedAttribute> attrs =
      convAttrs(nc, dropDepth(w), c.group);
  auto type = RankedTensorType::get(
      {n * depth, channels, out[1], out[2]},
      cast<RankedTensorType>(c.x.getType()).getElementType());
  const int64_t plane = channels * out[1] * out[2];
  Value acc;
  for (int64_t kd = 0; kd < w.kernel[0]; ++kd) {
    FailureOr<Value> f = filterAtDepth(nc, c, kd);
    if (failed(f))
      return failure();
    FailureOr<Value> z =
        nc.createTyped<nn::Conv2DGradInputOp>(type, {*xt, *f}, attrs);
    // [N, D, 1, plane], then a stride's zeros after each input depth.
    if (failed(z) || failed(z = nc.reshape(*z, {n, depth, 1, plane})))
      return failure();
    if (stride > 1) {
      z = nc.create<nn::PadOp>(
          {*z}, {nc.named("low", nc.i64Array({0, 0, 0, 0})),
                 nc.named("high", nc.i64Array({0, 0, stride - 1, 0}))});
      if (failed(z))
        return failure();
    }
    if (failed(z = nc.reshape(*z, {n, depth * stride, plane})))
      return failure();
    // Spread depth j = i * stride goes to j + shift.
    const int64_t shift = kd * w.dilations[0] - w.padBegin[0];
    const int64_t first = std::max<int64_t>(0, -shift);
    const int64_t last = std::min(depth * stride, out[0] - shift);
    if (last <= first)
      continue; // nothing of this depth lands inside the output
    if (failed(z = nc.slice(*z, {0, first, 0}, {n, last - first, plane})))
      return failure();
    const int64_t low = shift + first, high = out[0] - (shift + last);
    if (low > 0 || high > 0) {
      z = nc.create<nn::PadOp>({*z},
                               {nc.named("low", nc.i64Array({0, low, 0})),
                                nc.named("high", nc.i64Array({0, high, 0}))});
      if (failed(z))
        return failure();
    }
    if (acc && failed(z = nc.create<nn::AddOp>({acc, *z})))
      return failure();
    acc = *z;
  }
  if (!acc)
    return nc.error() << "no input depth lands inside the output", failure();
  FailureOr<Value> y = nc.reshape(acc, {n, out[0], channels, out[1], out[2]});
  if (failed(y) || failed(y = swapChannelsAndDepth(nc, *y)))
    return failure();
  return finishConv(nc, *y, channels, /*lifted=*/false);
}

static LogicalResult importConvTranspose(NodeContext &nc) {
  ConvNode c;
  if (failed(readConvNode(nc, c, /*allow3D=*/true)))
    return failure();
  if (c.ws[0] != c.xs[1])
    return nc.error() << "the weights are for " << c.ws[0]
                      << " input channels; the input has " << c.xs[1],
           failure();
  if (c.group <= 0 || c.xs[1] % c.group != 0)
    return nc.error() << "group = " << c.group << " does not divide the "
                      << c.xs[1] << " input channels",
           failure();
  size_t n = c.xs.size() - 2;
  llvm::ArrayRef<int64_t> spatial = llvm::ArrayRef<int64_t>(c.xs).drop_front(2);
  Window &w = c.w;
  FailureOr<std::string> autoPad = nc.stringAttr("auto_pad", "NOTSET");
  FailureOr<std::optional<llvm::SmallVector<int64_t>>> outputPadding =
      nc.intsAttr("output_padding");
  FailureOr<std::optional<llvm::SmallVector<int64_t>>> outputShape =
      nc.intsAttr("output_shape");
  if (failed(autoPad) || failed(outputPadding) || failed(outputShape))
    return failure();
  llvm::SmallVector<int64_t> extra =
      outputPadding->value_or(llvm::SmallVector<int64_t>(n, 0));
  if (extra.size() != n)
    return nc.error() << "attribute 'output_padding' has " << extra.size()
                      << " values; " << n << " expected",
           failure();
  if (*outputShape && (*outputShape)->size() != n)
    return nc.error() << "attribute 'output_shape' has "
                      << (*outputShape)->size() << " values; " << n
                      << " (the spatial dims) expected",
           failure();
  bool same = *autoPad == "SAME_UPPER" || *autoPad == "SAME_LOWER";
  llvm::SmallVector<int64_t> out(n);
  for (size_t d = 0; d < n; ++d) {
    if (extra[d] < 0 ||
        (extra[d] >= w.strides[d] && extra[d] >= w.dilations[d]))
      return nc.error() << "output_padding must be non-negative and smaller "
                           "than the stride or the dilation",
             failure();
    int64_t extent = (w.kernel[d] - 1) * w.dilations[d] + 1;
    std::optional<int64_t> span =
        amp::checked::mulAdd(w.strides[d], spatial[d] - 1, extra[d]);
    if (span)
      span = amp::checked::add(*span, extent);
    if (!span)
      return nc.error() << "the output size overflows int64", failure();
    int64_t full = *span;
    if (*outputShape || same) {
      std::optional<int64_t> size =
          *outputShape ? std::optional<int64_t>((**outputShape)[d])
                       : amp::checked::mul(spatial[d], w.strides[d]);
      if (!size || *size <= 0)
        return nc.error() << "the output size is not positive or overflows "
                             "int64",
               failure();
      out[d] = *size;
      // ONNX's rule, with its floor division: a negative total (an output
      // larger than the full one) is a negative end pad, rows past the
      // last window, zero as output_padding's; a negative begin pad would
      // crop the start, which nn cannot express.
      int64_t total = full - out[d];
      int64_t half = total >= 0 ? total / 2 : -((1 - total) / 2);
      w.padBegin[d] = *autoPad == "SAME_UPPER" ? half : total - half;
      w.padEnd[d] = std::max<int64_t>(0, total - w.padBegin[d]);
      if (w.padBegin[d] < 0)
        return nc.error() << "an output size of " << out[d]
                          << " needs a negative begin pad (the full output "
                             "has "
                          << full << ")",
               failure();
    } else {
      out[d] = full - w.padBegin[d] - w.padEnd[d];
    }
    if (out[d] <= 0)
      return nc.error() << "the output size " << out[d] << " is not positive",
             failure();
  }
  // output_padding extends the end: rows no window of the convolution
  // reads, which nn.conv2d_grad_input leaves zero (the verifier checks that
  // they are fewer than a stride).
  if (c.xs.size() == 5)
    return buildConvTranspose3D(nc, c, out, c.ws[1] * c.group);
  return buildConv<nn::Conv2DGradInputOp>(nc, c, out, c.ws[1] * c.group);
}

/// nn.max_pool2d or nn.avg_pool2d (`includePad`) with window `w`.
static FailureOr<Value> pool2D(NodeContext &nc, Value x, const Window &w,
                               bool isMax, bool includePad) {
  llvm::SmallVector<NamedAttribute> attrs = {
      nc.named("kernel", nc.i64Array(w.kernel)),
      nc.named("strides", nc.i64Array(w.strides)),
      nc.named("padding", nc.i64Array(padding(w)))};
  if (isMax) {
    attrs.push_back(nc.named("dilation", nc.i64Array(w.dilations)));
    return nc.create<nn::MaxPool2DOp>({x}, attrs);
  }
  if (includePad)
    attrs.push_back(nc.named("count_include_pad", nc.builder.getUnitAttr()));
  return nc.create<nn::AvgPool2DOp>({x}, attrs);
}

/// The sums of the windows `w` of x [N, C, H, W], zero padded: a depthwise
/// nn.conv2d (groups = C) with a filter of ones, which has the dilations
/// that nn.avg_pool2d lacks and trains through the convolution's input
/// gradient. Pinned to f32: a sum of K values can pass f16's range where
/// the values do not (LpPool sums their p-th powers).
static FailureOr<Value> sumPool2D(NodeContext &nc, Value x, const Window &w) {
  const int64_t channels = shapeOf(x)[1];
  llvm::SmallVector<NamedAttribute> attrs = convAttrs(nc, w, channels);
  attrs.push_back(nc.pinnedF32());
  return nc.create<nn::Conv2DOp>(
      {x, nc.splat({channels, 1, w.kernel[0], w.kernel[1]}, 1.0f)}, attrs);
}

/// Applies the 2-D window op `apply2D` to x of rank 3, 4 or 5 with the
/// window `w` of its spatial dims: a 1-D window lifted to H = 1 (and the
/// result brought back to rank 3), a 3-D one as 2-D windows over the
/// depths, padded with `padValue` and joined by `combine` (overDepth).
static FailureOr<Value> overSpatialDims(
    NodeContext &nc, Value x, Window w, float padValue,
    llvm::function_ref<FailureOr<Value>(Value, const Window &)> apply2D,
    llvm::function_ref<FailureOr<Value>(Value, Value)> combine) {
  llvm::SmallVector<int64_t> xs = shapeOf(x);
  if (xs.size() == 5) {
    Window w2 = dropDepth(w);
    return overDepth(
        nc, x, w, padValue, [&](int64_t, Value x2) { return apply2D(x2, w2); },
        combine);
  }
  const bool lifted = xs.size() == 3;
  if (lifted)
    liftWindow(w);
  FailureOr<Value> x4 = input4D(nc, x);
  if (failed(x4))
    return failure();
  FailureOr<Value> y = apply2D(*x4, w);
  if (failed(y) || !lifted)
    return y;
  llvm::SmallVector<int64_t> ys = shapeOf(*y);
  return nc.reshape(*y, {ys[0], ys[1], ys[3]});
}

/// How many taps of the window along dim `d` (of input size `in`) output
/// position `o` averages: those inside the input, or with `includePad`
/// also those on the model's own pads, never on ceil_mode's extra end
/// positions (ONNX's reference, PyTorch). The taps are at o * stride -
/// padBegin + k * dilation for k in [0, kernel); counted in closed form.
static int64_t tapsCounted(const Window &w, size_t d, int64_t in, int64_t o,
                           bool includePad) {
  const int64_t lo = includePad ? -w.padBegin[d] : 0;
  const int64_t hi = includePad ? in + w.modelPadEnd[d] : in;
  const int64_t base = o * w.strides[d] - w.padBegin[d], dil = w.dilations[d];
  auto floorDiv = [](int64_t a, int64_t b) {
    return a / b - (a % b != 0 && a < 0);
  };
  // The first k with base + k * dil >= lo, the last with it < hi.
  const int64_t first = std::max<int64_t>(0, -floorDiv(base - lo, dil));
  const int64_t last = std::min(w.kernel[d] - 1, floorDiv(hi - 1 - base, dil));
  return std::max<int64_t>(0, last - first + 1);
}

/// The reciprocals of the taps each output of `y` (the window sums of an
/// input of spatial sizes `in`) averages along its first `dims` spatial
/// dims, as a constant that broadcasts against y: [O1, ..., Odims, 1, ...]
/// over y's spatial dims, or a scalar when every output counts alike. An
/// output that counts no tap gets 1 / 0, and its average NaN, as in ONNX's
/// reference.
static FailureOr<Value> reciprocalCounts(NodeContext &nc, const Window &w,
                                         llvm::ArrayRef<int64_t> in, Value y,
                                         bool includePad, size_t dims) {
  // y's spatial dims.
  const llvm::SmallVector<int64_t> ys = shapeOf(y);
  llvm::SmallVector<int64_t> shape(ys.begin() + 2, ys.end());
  std::fill(shape.begin() + dims, shape.end(), 1);
  std::optional<int64_t> size =
      constElementCount(shape, onnx::TensorProto::FLOAT);
  if (!size || failed(nc.reserveFoldedBytes(*size * int64_t(sizeof(float)))))
    return nc.error() << "the divisors of [" << shape
                      << "] averages are over the importer's limit on "
                         "constants",
           failure();
  std::vector<int64_t> counts(*size, 1);
  // Row-major over `shape`: the count is the product of each dim's.
  for (int64_t flat = 0; flat < *size; ++flat) {
    int64_t rest = flat;
    for (size_t d = shape.size(); d-- > 0;) {
      const int64_t o = rest % shape[d];
      rest /= shape[d];
      if (d < dims)
        counts[flat] *= tapsCounted(w, d, in[d], o, includePad);
    }
  }
  std::vector<float> scale;
  for (int64_t c : counts)
    scale.push_back(1.0f / float(c));
  if (llvm::all_equal(scale))
    return nc.splat({}, scale[0]);
  return nc.constant(shape, scale);
}

/// The most window taps MaxPool's Indices output compares (an nn.slice,
/// nn.compare and nn.where each).
constexpr int64_t kMaxIndexTaps = 256;

/// MaxPool's Indices for the maxima `y` of the window `w` on x of rank 3 or
/// 4: the flat index into x, (n C + c) H W + h W + w (with `columnMajor`,
/// storage_order 1: (n C + c) H W + h + w H), of the first tap in the
/// window's row-major order that holds the maximum, as ONNX's reference and
/// PyTorch's. Each tap of x padded with -inf (nn.pad) is one strided
/// nn.slice compared with y (nn.compare eq), and nn.where keeps the
/// earliest matching tap's constant positions; the planes' offsets are
/// added last. Indices pass no gradient.
static FailureOr<Value> poolIndices(NodeContext &nc, Value x, Value y, Window w,
                                    bool columnMajor) {
  llvm::SmallVector<int64_t> xs = shapeOf(x), ys = shapeOf(y);
  if (xs.size() == 5)
    return nc.error() << "the Indices output of a 3-D MaxPool is not supported",
           failure();
  const bool lifted = xs.size() == 3;
  if (lifted) {
    liftWindow(w);
    xs.insert(xs.begin() + 2, 1);
    ys.insert(ys.begin() + 2, 1);
  }
  const int64_t taps = w.kernel[0] * w.kernel[1];
  if (taps > kMaxIndexTaps)
    return nc.error() << "the Indices output of a window of " << taps
                      << " taps (more than " << kMaxIndexTaps
                      << ") is not supported",
           failure();
  const int64_t outH = ys[2], outW = ys[3], height = xs[2], width = xs[3];
  std::optional<int64_t> bytes = amp::checked::mul(taps * outH, outW);
  if (!bytes || failed(nc.reserveFoldedBytes(*bytes * 8)))
    return failure();
  FailureOr<Value> x4 = nc.reshape(x, xs);
  FailureOr<Value> y4 = nc.reshape(y, ys);
  // Pads (ceil_mode's extra end positions among them) read -inf, which no
  // maximum of a window that reads the input equals.
  auto nonzero = [](int64_t p) { return p != 0; };
  if (succeeded(x4) &&
      (llvm::any_of(w.padBegin, nonzero) || llvm::any_of(w.padEnd, nonzero)))
    x4 = nc.create<nn::PadOp>(
        {*x4},
        {nc.named("low", nc.i64Array({0, 0, w.padBegin[0], w.padBegin[1]})),
         nc.named("high", nc.i64Array({0, 0, w.padEnd[0], w.padEnd[1]})),
         nc.named("value", nc.builder.getF32FloatAttr(
                               -std::numeric_limits<float>::infinity()))});
  if (failed(x4) || failed(y4))
    return failure();
  Value idx;
  for (int64_t tap = taps - 1; tap >= 0; --tap) {
    const int64_t i = tap / w.kernel[1], j = tap % w.kernel[1];
    std::vector<int64_t> positions;
    positions.reserve(outH * outW);
    for (int64_t oh = 0; oh < outH; ++oh)
      for (int64_t ow = 0; ow < outW; ++ow) {
        const int64_t h =
            oh * w.strides[0] - w.padBegin[0] + i * w.dilations[0];
        const int64_t c =
            ow * w.strides[1] - w.padBegin[1] + j * w.dilations[1];
        positions.push_back(columnMajor ? h + c * height : h * width + c);
      }
    Value at = nc.constant({outH, outW}, positions);
    if (!idx) {
      // The last tap: what no earlier one overrides.
      idx = at;
      continue;
    }
    FailureOr<Value> t =
        nc.slice(*x4, {0, 0, i * w.dilations[0], j * w.dilations[1]}, ys,
                 {1, 1, w.strides[0], w.strides[1]});
    FailureOr<Value> eq =
        failed(t) ? t
                  : nc.create<nn::CompareOp>(
                        {*t, *y4}, {nc.predicate(nn::ComparePredicate::EQ)});
    FailureOr<Value> picked =
        failed(eq) ? eq : nc.create<nn::WhereOp>({*eq, at, idx});
    if (failed(picked))
      return failure();
    idx = *picked;
  }
  // Each plane's offset, (n C + c) H W.
  std::vector<int64_t> planes;
  for (int64_t p = 0; p < xs[0] * xs[1]; ++p)
    planes.push_back(p * height * width);
  FailureOr<Value> r =
      nc.create<nn::AddOp>({idx, nc.constant({xs[0], xs[1], 1, 1}, planes)});
  if (succeeded(r) && lifted)
    r = nc.reshape(*r, {xs[0], xs[1], outW});
  return r;
}

static LogicalResult importPool(NodeContext &nc, bool isMax) {
  // MaxPool of INT8 or UINT8 (an image's bytes) runs on their f32 values,
  // which are exact, and converts the maxima back.
  FailureOr<Tensor *> in = nc.input(0);
  if (failed(in))
    return failure();
  const bool bytes =
      isMax && ((*in)->declaredType() == onnx::TensorProto::INT8 ||
                (*in)->declaredType() == onnx::TensorProto::UINT8);
  FailureOr<Value> x = bytes ? nc.anyValue(0) : nc.floatValue(0);
  if (succeeded(x) && bytes)
    x = nc.convert(*x, nc.builder.getF32Type());
  if (failed(x) || failed(checkSpatialRank(nc, *x, /*allow3D=*/true)))
    return failure();
  FailureOr<int64_t> ceilMode = nc.intAttr("ceil_mode", 0);
  FailureOr<int64_t> storageOrder = nc.intAttr("storage_order", 0);
  FailureOr<int64_t> countPad = nc.intAttr("count_include_pad", 0);
  if (failed(ceilMode) || failed(storageOrder) || failed(countPad))
    return failure();
  // The storage order concerns only the Indices.
  if (*storageOrder != 0 && *storageOrder != 1)
    return nc.error() << "storage_order must be 0 or 1, got " << *storageOrder,
           failure();
  llvm::SmallVector<int64_t> xs = shapeOf(*x);
  llvm::ArrayRef<int64_t> spatial = llvm::ArrayRef<int64_t>(xs).drop_front(2);
  Window w;
  bool ceil = *ceilMode != 0;
  if (failed(readWindow(nc, spatial, {}, &ceil, w)))
    return failure();
  auto add = [&](Value a, Value b) { return nc.create<nn::AddOp>({a, b}); };
  FailureOr<Value> y;
  if (isMax) {
    y = overSpatialDims(
        nc, *x, w, -std::numeric_limits<float>::infinity(),
        [&](Value x2, const Window &w2) {
          return pool2D(nc, x2, w2, /*isMax=*/true, false);
        },
        [&](Value a, Value b) {
          return nc.create<nn::MaximumOp>({a, b});
        });
    FailureOr<Value> indices = Value();
    if (succeeded(y) && nc.hasOutput(1))
      indices = poolIndices(nc, *x, *y, w, *storageOrder == 1);
    if (succeeded(y) && bytes)
      y = nc.convert(*y, nc.builder.getI32Type());
    if (failed(y) || failed(indices) || failed(nc.setOutput(0, *y)))
      return failure();
    return *indices ? nc.setOutput(1, *indices) : success();
  }
  // ceil_mode's extra end positions never count (PyTorch, ONNX): without
  // pads of the model's own, count_include_pad counts nothing more.
  const bool includePad = *countPad && w.padded;
  const bool dilated =
      llvm::any_of(w.dilations, [](int64_t d) { return d != 1; });
  // The constant to multiply by, if any.
  FailureOr<Value> divisor = Value();
  if (dilated || (ceil && includePad)) {
    // What nn.avg_pool2d cannot divide by (it has no dilations, and with
    // count_include_pad divides by the whole window, ceil_mode's extra
    // positions included): the window sums over a constant count of each
    // output's taps.
    y = overSpatialDims(
        nc, *x, w, 0.0f,
        [&](Value x2, const Window &w2) { return sumPool2D(nc, x2, w2); }, add);
    if (succeeded(y))
      divisor =
          reciprocalCounts(nc, w, spatial, *y, includePad, spatial.size());
  } else {
    // A 3-D average sums the depths' 2-D averages: divided by the depths
    // each output counts.
    y = overSpatialDims(
        nc, *x, w, 0.0f,
        [&](Value x2, const Window &w2) {
          return pool2D(nc, x2, w2, /*isMax=*/false, includePad);
        },
        add);
    if (succeeded(y) && spatial.size() == 3)
      divisor = reciprocalCounts(nc, w, spatial, *y, includePad, 1);
  }
  if (failed(y) || failed(divisor))
    return failure();
  if (*divisor)
    y = nc.create<nn::MulOp>({*y, *divisor});
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

static LogicalResult importMaxPool(NodeContext &nc) {
  return importPool(nc, true);
}
static LogicalResult importAveragePool(NodeContext &nc) {
  return importPool(nc, false);
}

/// LpPool: (sum over the window of |x|^p)^(1 / p), zero padded, as the
/// window sums (sumPool2D, dilations included) of |x|^p; p = 1 and 2 are
/// nn.abs and nn.sqrt, other p nn.pow, pinned to f32 like the sums.
static LogicalResult importLpPool(NodeContext &nc) {
  FailureOr<Value> x = nc.floatValue(0);
  FailureOr<int64_t> p = nc.intAttr("p", 2);
  FailureOr<int64_t> ceilMode = nc.intAttr("ceil_mode", 0);
  if (failed(x) || failed(p) || failed(ceilMode) ||
      failed(checkSpatialRank(nc, *x, /*allow3D=*/true)))
    return failure();
  if (*p < 1)
    return nc.error() << "p must be positive, got " << *p, failure();
  llvm::SmallVector<int64_t> xs = shapeOf(*x);
  Window w;
  bool ceil = *ceilMode != 0;
  if (failed(readWindow(nc, llvm::ArrayRef<int64_t>(xs).drop_front(2), {},
                        &ceil, w)))
    return failure();
  auto power = [&](Value v, double exponent) {
    return nc.create<nn::PowOp>(
        {v}, {nc.named("exponent", nc.builder.getF32FloatAttr(exponent)),
              nc.pinnedF32()});
  };
  FailureOr<Value> y = nc.create<nn::AbsOp>({*x});
  if (succeeded(y) && *p > 1)
    y = power(*y, double(*p));
  if (succeeded(y))
    y = overSpatialDims(
        nc, *y, w, 0.0f,
        [&](Value x2, const Window &w2) { return sumPool2D(nc, x2, w2); },
        [&](Value a, Value b) {
          return nc.create<nn::AddOp>({a, b});
        });
  if (succeeded(y) && *p == 2)
    y = nc.create<nn::SqrtOp>({*y});
  else if (succeeded(y) && *p > 2)
    y = power(*y, 1.0 / double(*p));
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

static LogicalResult importGlobalPool(NodeContext &nc, bool isMax) {
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(x))
    return failure();
  llvm::SmallVector<int64_t> xs = shapeOf(*x);
  if (xs.size() < 3)
    return nc.error() << "the input must have rank >= 3 (N x C x ...)",
           failure();
  FailureOr<Value> y;
  if (!isMax && xs.size() == 4) {
    y = nc.create<nn::GlobalAvgPoolOp>({*x});
  } else {
    llvm::SmallVector<int64_t> axes;
    for (size_t d = 2; d < xs.size(); ++d)
      axes.push_back(d);
    llvm::SmallVector<NamedAttribute> attrs = {
        nc.named("axes", nc.i64Array(axes)),
        nc.named("keep_dims", nc.builder.getUnitAttr())};
    y = isMax ? nc.create<nn::ReduceMaxOp>({*x}, attrs)
              : nc.create<nn::ReduceMeanOp>({*x}, attrs);
  }
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

static LogicalResult importGlobalAveragePool(NodeContext &nc) {
  return importGlobalPool(nc, false);
}
static LogicalResult importGlobalMaxPool(NodeContext &nc) {
  return importGlobalPool(nc, true);
}

/// Col2Im (opset 18; PyTorch's F.fold): input [N, C * kh * kw, L], the
/// sliding blocks' columns, summed back into an image of `image_shape` (2-D
/// only). Folding is the input gradient of the convolution that unfolds:
/// nn.conv2d_grad_input of the columns laid out as [N, C * kh * kw, Lh, Lw]
/// with a constant one-hot filter, groups = C, whose output channel
/// c * kh * kw + i * kw + j reads its channel c at kernel position (i, j).
/// It trains through nn.conv2d_grad_input's gradient (nn.conv2d, which
/// unfolds).
static LogicalResult importCol2Im(NodeContext &nc) {
  FailureOr<Value> x = nc.floatValue(0);
  FailureOr<const Const *> image = failed(x)
                                       ? FailureOr<const Const *>(failure())
                                       : nc.constInput(1, "the image shape");
  FailureOr<const Const *> block =
      failed(image) ? image : nc.constInput(2, "the block shape");
  if (failed(block))
    return failure();
  std::vector<int64_t> imageShape = (*image)->ints();
  std::vector<int64_t> kernel = (*block)->ints();
  if (imageShape.size() != 2 || kernel.size() != 2)
    return nc.error() << "only 2-D images are supported: image_shape and "
                         "block_shape must hold 2 values, got "
                      << imageShape.size() << " and " << kernel.size(),
           failure();
  llvm::SmallVector<int64_t> xs = shapeOf(*x);
  if (xs.size() != 3)
    return nc.error() << "the input must be [N, C * kh * kw, L], got [" << xs
                      << "]",
           failure();
  if (llvm::any_of(imageShape, [](int64_t v) { return v < 1; }))
    return nc.error() << "image_shape must be positive, got [" << imageShape
                      << "]",
           failure();
  // The unfolding convolution's window over the image: the block is its
  // kernel (checked positive, with the strides and dilations, and the
  // geometry checked to fit in int64).
  Window w;
  if (failed(readWindow(nc, imageShape, kernel, nullptr, w)))
    return failure();
  const int64_t n = xs[0];
  std::optional<int64_t> window =
      constElementCount(kernel, onnx::TensorProto::FLOAT);
  if (!window || xs[1] % *window != 0)
    return nc.error() << "the input's " << xs[1]
                      << " rows are no multiple of the block's " << kernel[0]
                      << " x " << kernel[1] << " positions",
           failure();
  const int64_t channels = xs[1] / *window;
  // The blocks along each dim, as nn.conv2d's output size.
  int64_t blocks[2];
  for (int d = 0; d < 2; ++d) {
    const int64_t span = imageShape[d] + w.padBegin[d] + w.padEnd[d] -
                         ((kernel[d] - 1) * w.dilations[d] + 1);
    blocks[d] = span < 0 ? 0 : span / w.strides[d] + 1;
  }
  const int64_t out[] = {n, channels, imageShape[0], imageShape[1]};
  if (!amp::checked::byteSize(out, 4, sizeof(float)))
    return nc.error() << "the image of [" << llvm::ArrayRef<int64_t>(out)
                      << "] does not fit in int64 bytes",
           failure();
  if (!amp::checked::mul(blocks[0], blocks[1]) ||
      blocks[0] * blocks[1] != xs[2])
    return nc.error() << "the image [" << imageShape << "] holds " << blocks[0]
                      << " x " << blocks[1]
                      << " blocks of the geometry, but the input has " << xs[2],
           failure();
  std::optional<int64_t> filterSize =
      constElementCount({xs[1], *window}, onnx::TensorProto::FLOAT);
  if (!filterSize)
    return nc.error() << "the one-hot filter of " << xs[1] << " x " << *window
                      << " values is over the importer's limit on constants",
           failure();
  if (failed(nc.reserveFoldedBytes(*filterSize * int64_t(sizeof(float)))))
    return failure();
  std::vector<float> filter(*filterSize, 0.0f);
  for (int64_t o = 0; o < xs[1]; ++o)
    filter[o * *window + o % *window] = 1.0f;
  FailureOr<Value> columns = nc.reshape(*x, {n, xs[1], blocks[0], blocks[1]});
  if (failed(columns))
    return failure();
  auto type = RankedTensorType::get(
      {n, channels, imageShape[0], imageShape[1]},
      cast<RankedTensorType>(x->getType()).getElementType());
  FailureOr<Value> y = nc.createTyped<nn::Conv2DGradInputOp>(
      type, {*columns, nc.constant({xs[1], 1, kernel[0], kernel[1]}, filter)},
      convAttrs(nc, w, channels));
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

void amp::onnx_import::registerConvPoolOps(OpTable &t) {
  t["Col2Im"] = {importCol2Im, {"dilations", "pads", "strides"}};
  t["Conv"] = {
      importConv,
      {"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"}};
  t["ConvTranspose"] = {importConvTranspose,
                        {"auto_pad", "dilations", "group", "kernel_shape",
                         "output_padding", "output_shape", "pads", "strides"}};
  t["MaxPool"] = {importMaxPool,
                  {"auto_pad", "ceil_mode", "dilations", "kernel_shape", "pads",
                   "storage_order", "strides"}};
  t["AveragePool"] = {importAveragePool,
                      {"auto_pad", "ceil_mode", "count_include_pad",
                       "dilations", "kernel_shape", "pads", "strides"}};
  t["LpPool"] = {importLpPool,
                 {"auto_pad", "ceil_mode", "dilations", "kernel_shape", "p",
                  "pads", "strides"}};
  t["GlobalAveragePool"] = {importGlobalAveragePool, {}};
  t["GlobalMaxPool"] = {importGlobalMaxPool, {}};
}
