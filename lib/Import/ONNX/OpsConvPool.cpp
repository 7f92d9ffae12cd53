//===- OpsConvPool.cpp - Conv and the pools -------------------------------===//
//
// Conv, ConvTranspose, MaxPool and AveragePool on 2-D (NCHW) and 1-D (NCL,
// lifted to N x C x 1 x L) inputs map onto nn.conv2d,
// nn.conv2d_grad_input, nn.max_pool2d and nn.avg_pool2d; the window geometry
// (pads, strides, dilations, auto_pad, ceil_mode) is resolved here to the
// explicit [top, left, bottom, right] padding of nn. GlobalAveragePool and
// GlobalMaxPool are nn.global_avg_pool or reductions.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include "amp_runtime/checked_size.h"

#include <type_traits>

using namespace amp::onnx_import;
using namespace mlir;
namespace nn = amp::nn;

namespace {
/// The resolved window geometry of one node, per spatial dim (1 or 2).
struct Window {
  llvm::SmallVector<int64_t> kernel, strides, dilations, padBegin, padEnd;
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
  if (ceil && *ceil) {
    // Output sizes rounded up; a window must start inside the input or its
    // begin padding. The extra end padding makes nn's floor rule give it.
    bool anyExtra = false;
    for (size_t d = 0; d < n; ++d) {
      int64_t extent = (w.kernel[d] - 1) * w.dilations[d] + 1;
      int64_t span = in[d] + w.padBegin[d] + w.padEnd[d] - extent;
      if (span < 0)
        return nc.error() << "the window is larger than the padded input",
               failure();
      int64_t out = (span + w.strides[d] - 1) / w.strides[d] + 1;
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

static LogicalResult checkSpatialRank(NodeContext &nc, Value x) {
  size_t rank = shapeOf(x).size();
  if (rank != 3 && rank != 4)
    return nc.error() << "only 1-D and 2-D windows (inputs of rank 3 or 4) are "
                         "supported; the input has rank "
                      << rank,
           failure();
  return success();
}

/// Adds the optional bias (input 2, one value per output channel) to the
/// 4-D convolution result `y`, drops the lifted H = 1 of a 1-D one, and
/// defines the node's output.
static LogicalResult finishConv(NodeContext &nc, Value y, int64_t channels,
                                bool lifted) {
  if (nc.hasInput(2)) {
    FailureOr<Value> bias = nc.floatValue(2);
    if (failed(bias))
      return failure();
    if (shapeOf(*bias) != llvm::SmallVector<int64_t>{channels})
      return nc.error() << "the bias must have shape [" << channels << "]",
             failure();
    bias = nc.reshape(*bias, {channels, 1, 1});
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

static LogicalResult readConvNode(NodeContext &nc, ConvNode &c) {
  FailureOr<Value> x = nc.floatValue(0);
  FailureOr<Value> wv = nc.floatValue(1);
  FailureOr<int64_t> group = nc.intAttr("group", 1);
  if (failed(x) || failed(wv) || failed(group) ||
      failed(checkSpatialRank(nc, *x)))
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
  llvm::SmallVector<NamedAttribute> attrs = {
      nc.named("strides", nc.i64Array(c.w.strides)),
      nc.named("padding", nc.i64Array(padding(c.w))),
      nc.named("dilation", nc.i64Array(c.w.dilations)),
      nc.named("groups", nc.builder.getI64IntegerAttr(c.group))};
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

static LogicalResult importConv(NodeContext &nc) {
  ConvNode c;
  if (failed(readConvNode(nc, c)))
    return failure();
  return buildConv<nn::Conv2DOp>(nc, c, {}, c.ws[0]);
}

/// ConvTranspose is the input gradient of the convolution whose filter is
/// its weights (ONNX's [C_in, C_out / group, k...] is that convolution's
/// [O, I / group, k...]): nn.conv2d_grad_input of X, whose result shape
/// holds the output size s * (in - 1) + output_padding + (k - 1) * d + 1 -
/// pads, or output_shape's with the pads that give it.
static LogicalResult importConvTranspose(NodeContext &nc) {
  ConvNode c;
  if (failed(readConvNode(nc, c)))
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
  return buildConv<nn::Conv2DGradInputOp>(nc, c, out, c.ws[1] * c.group);
}

static LogicalResult importPool(NodeContext &nc, bool isMax) {
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(x) || failed(checkSpatialRank(nc, *x)))
    return failure();
  if (isMax && nc.hasOutput(1))
    return nc.error() << "the Indices output is not supported", failure();
  FailureOr<int64_t> ceilMode = nc.intAttr("ceil_mode", 0);
  FailureOr<int64_t> storageOrder = nc.intAttr("storage_order", 0);
  FailureOr<int64_t> includePad = nc.intAttr("count_include_pad", 0);
  if (failed(ceilMode) || failed(storageOrder) || failed(includePad))
    return failure();
  if (*storageOrder != 0)
    return nc.error() << "storage_order = " << *storageOrder
                      << " is not supported",
           failure();
  llvm::SmallVector<int64_t> xs = shapeOf(*x);
  Window w;
  bool ceil = *ceilMode != 0;
  if (failed(readWindow(nc, llvm::ArrayRef<int64_t>(xs).drop_front(2), {},
                        &ceil, w)))
    return failure();
  if (!isMax && ceil && *includePad)
    return nc.error() << "ceil_mode with count_include_pad is not supported "
                         "(nn.avg_pool2d divides by the whole window)",
           failure();
  if (!isMax && llvm::any_of(w.dilations, [](int64_t d) { return d != 1; }))
    return nc.error() << "dilations are not supported (nn.avg_pool2d has none)",
           failure();
  bool lifted = xs.size() == 3;
  if (lifted)
    liftWindow(w);
  FailureOr<Value> x4 = input4D(nc, *x);
  if (failed(x4))
    return failure();
  llvm::SmallVector<NamedAttribute> attrs = {
      nc.named("kernel", nc.i64Array(w.kernel)),
      nc.named("strides", nc.i64Array(w.strides)),
      nc.named("padding", nc.i64Array(padding(w)))};
  FailureOr<Value> y;
  if (isMax) {
    attrs.push_back(nc.named("dilation", nc.i64Array(w.dilations)));
    y = nc.create<nn::MaxPool2DOp>({*x4}, attrs);
  } else {
    if (*includePad)
      attrs.push_back(nc.named("count_include_pad", nc.builder.getUnitAttr()));
    y = nc.create<nn::AvgPool2DOp>({*x4}, attrs);
  }
  if (failed(y))
    return failure();
  if (lifted) {
    llvm::SmallVector<int64_t> ys = shapeOf(*y);
    y = nc.reshape(*y, {ys[0], ys[1], ys[3]});
    if (failed(y))
      return failure();
  }
  return nc.setOutput(0, *y);
}

static LogicalResult importMaxPool(NodeContext &nc) {
  return importPool(nc, true);
}
static LogicalResult importAveragePool(NodeContext &nc) {
  return importPool(nc, false);
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

void amp::onnx_import::registerConvPoolOps(OpTable &t) {
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
  t["GlobalAveragePool"] = {importGlobalAveragePool, {}};
  t["GlobalMaxPool"] = {importGlobalMaxPool, {}};
}
