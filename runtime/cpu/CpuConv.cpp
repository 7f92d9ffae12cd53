//===- CpuConv.cpp - 2-D convolution and its gradients on oneDNN ----------===//
//
// amp_conv2d, amp_conv2d_grad_input and amp_conv2d_grad_filter of
// libamp_runtime_cpu: oneDNN convolution primitives (forward, backward
// data, backward weights) over the caller's NCHW / OIHW buffers, with the
// reference's argument checks (ConvChecks.h, through the entry points of
// ConvEntryPoints.cpp). Asymmetric padding is
// oneDNN's padding_l / padding_r, dilation its "extra gaps" form (d - 1),
// groups a goihw filter. oneDNN 2.6 has no f16 convolution on the CPU, so
// f16 operands are widened in blocks and convolved in f32 (exact products,
// f32 sums, one rounding at the end, as the ABI asks); f32 and bf16 run
// natively, with an f32 result for bf16 operands where out_dtype asks.
// Primitives are cached by geometry and dtypes.
//
//===----------------------------------------------------------------------===//

#include "cpu/CpuContext.h"
#include "reference/ConvChecks.h"
#include "reference/Convert.h"
#include "reference/KernelCommon.h"

#include <cstring>
#include <unordered_map>

using namespace amp::runtime;
using namespace amp::runtime::cpu;
using namespace amp::runtime::kernels;
using dnnl::memory;

namespace {

struct ConvPlan {
  dnnl::primitive primitive;
  memory::desc x, w, y; // as the primitive reads or writes them
};

ConvPlan makePlan(ConvKind kind, const ConvGeometry &g, amp_dtype_t inDtype,
                  amp_dtype_t outDtype) {
  OneDnnThreads threads;
  const memory::data_type in = dnnlType(inDtype);
  const memory::data_type out = dnnlType(outDtype);
  // The result's dtype, the operands' dtype otherwise.
  auto typeOf = [&](ConvKind result) { return kind == result ? out : in; };
  ConvPlan plan;
  plan.x = memory::desc({g.n, g.c, g.h, g.w}, typeOf(ConvKind::GradInput),
                        memory::format_tag::nchw);
  plan.y = memory::desc({g.n, g.o, g.oh, g.ow}, typeOf(ConvKind::Forward),
                        memory::format_tag::nchw);
  plan.w = g.groups == 1 ? memory::desc({g.o, g.cg, g.kh, g.kw},
                                        typeOf(ConvKind::GradFilter),
                                        memory::format_tag::oihw)
                         : memory::desc({g.groups, g.og, g.cg, g.kh, g.kw},
                                        typeOf(ConvKind::GradFilter),
                                        memory::format_tag::goihw);
  const memory::dims strides{g.sh, g.sw}, dilation{g.dh - 1, g.dw - 1},
      padL{g.pt, g.pl}, padR{g.pb, g.pr};
  auto forwardDesc = [&](const memory::desc &x, const memory::desc &w,
                         const memory::desc &y) {
    return dnnl::convolution_forward::desc(
        dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct,
        x, w, y, strides, dilation, padL, padR);
  };
  // The backward primitives take a forward one as a hint, over the types
  // the forward pass would have had.
  const memory::desc xIn(plan.x.dims(), in, memory::format_tag::nchw);
  const memory::desc wIn(plan.w.dims(), in,
                         g.groups == 1 ? memory::format_tag::oihw
                                       : memory::format_tag::goihw);
  const memory::desc yIn(plan.y.dims(), in, memory::format_tag::nchw);
  switch (kind) {
  case ConvKind::Forward: {
    dnnl::convolution_forward::primitive_desc pd(
        forwardDesc(plan.x, plan.w, plan.y), engine());
    plan.primitive = dnnl::convolution_forward(pd);
    break;
  }
  case ConvKind::GradInput: {
    dnnl::convolution_forward::primitive_desc hint(forwardDesc(xIn, wIn, yIn),
                                                   engine());
    dnnl::convolution_backward_data::primitive_desc pd(
        dnnl::convolution_backward_data::desc(
            dnnl::algorithm::convolution_direct, plan.x, plan.w, plan.y,
            strides, dilation, padL, padR),
        engine(), hint);
    plan.primitive = dnnl::convolution_backward_data(pd);
    break;
  }
  case ConvKind::GradFilter: {
    dnnl::convolution_forward::primitive_desc hint(forwardDesc(xIn, wIn, yIn),
                                                   engine());
    dnnl::convolution_backward_weights::primitive_desc pd(
        dnnl::convolution_backward_weights::desc(
            dnnl::algorithm::convolution_direct, plan.x, plan.w, plan.y,
            strides, dilation, padL, padR),
        engine(), hint);
    plan.primitive = dnnl::convolution_backward_weights(pd);
    break;
  }
  }
  return plan;
}

PlanCache<ConvPlan> &planCache() {
  static PlanCache<ConvPlan> cache;
  return cache;
}

/// Runs one checked call: operands `a`, `b` and result `out` in the roles of
/// `kind` (x, w -> y; dy, w -> dx; dy, x -> dw).
void runConv(ConvKind kind, const ConvGeometry &g, const void *a, const void *b,
             void *out, amp_dtype_t inDtype, amp_dtype_t outDtype) {
  // f16 has no primitive: widen the operands, compute an f32 result,
  // narrow it if the result is f16.
  const bool widen = inDtype == AMP_DTYPE_F16;
  const int64_t sizeOf[3] = {g.inputSize(), g.filterSize(), g.outputSize()};
  // Element counts of a, b and out by kind, in x / w / y terms.
  const int64_t aCount = kind == ConvKind::Forward ? sizeOf[0] : sizeOf[2];
  const int64_t bCount = kind == ConvKind::GradFilter ? sizeOf[0] : sizeOf[1];
  const int64_t outCount = convResultSize(kind, g);
  void *result = out;
  if (widen) {
    float *wa = scratch(Scratch::A, aCount);
    float *wb = scratch(Scratch::B, bCount);
    widenToF32(inDtype, a, wa, aCount);
    widenToF32(inDtype, b, wb, bCount);
    a = wa;
    b = wb;
    if (outDtype == AMP_DTYPE_F16)
      result = scratch(Scratch::Output, outCount);
  }
  const amp_dtype_t planIn = widen ? AMP_DTYPE_F32 : inDtype;
  const amp_dtype_t planOut = widen ? AMP_DTYPE_F32 : outDtype;
  PlanCache<ConvPlan>::Key key = {static_cast<int64_t>(kind),
                                  planIn,
                                  planOut,
                                  g.n,
                                  g.c,
                                  g.h,
                                  g.w,
                                  g.o,
                                  g.kh,
                                  g.kw,
                                  g.sh,
                                  g.sw,
                                  g.dh,
                                  g.dw,
                                  g.pt,
                                  g.pl,
                                  g.pb,
                                  g.pr,
                                  g.groups};
  bool hit = false;
  std::shared_ptr<const ConvPlan> plan = planCache().get(
      key, hit, [&] { return makePlan(kind, g, planIn, planOut); });

  auto mem = [&](const memory::desc &md, const void *p) {
    return memory(md, engine(), const_cast<void *>(p));
  };
  std::unordered_map<int, memory> args;
  switch (kind) {
  case ConvKind::Forward:
    args = {{DNNL_ARG_SRC, mem(plan->x, a)},
            {DNNL_ARG_WEIGHTS, mem(plan->w, b)},
            {DNNL_ARG_DST, mem(plan->y, result)}};
    break;
  case ConvKind::GradInput:
    args = {{DNNL_ARG_DIFF_DST, mem(plan->y, a)},
            {DNNL_ARG_WEIGHTS, mem(plan->w, b)},
            {DNNL_ARG_DIFF_SRC, mem(plan->x, result)}};
    break;
  case ConvKind::GradFilter:
    args = {{DNNL_ARG_DIFF_DST, mem(plan->y, a)},
            {DNNL_ARG_SRC, mem(plan->x, b)},
            {DNNL_ARG_DIFF_WEIGHTS, mem(plan->w, result)}};
    break;
  }
  {
    OneDnnThreads threads;
    plan->primitive.execute(stream(), args);
    stream().wait();
  }
  if (result != out)
    narrowFromF32(outDtype, static_cast<const float *>(result), out, outCount);
}

} // namespace

amp_status_t amp::runtime::kernels::convolve(Checker &check, ConvKind kind,
                                             const ConvGeometry &g,
                                             const void *a, const void *b,
                                             void *out, amp_dtype_t inDtype,
                                             amp_dtype_t outDtype,
                                             void * /*stream*/) {
  if (!threadSettingError().empty())
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "%s",
                      threadSettingError().c_str());
  // A result over operands with no elements (an empty batch, say) is zero.
  if (g.inputSize() == 0 || g.outputSize() == 0) {
    std::memset(out, 0, convResultSize(kind, g) * amp_dtype_size(outDtype));
    return AMP_STATUS_OK;
  }
  try {
    runConv(kind, g, a, b, out, inDtype, outDtype);
  } catch (const dnnl::error &e) {
    return check.fail(AMP_STATUS_BACKEND_ERROR, "oneDNN convolution failed: %s",
                      e.what());
  } catch (const std::bad_alloc &) {
    return check.fail(AMP_STATUS_BACKEND_ERROR,
                      "out of memory for the kernel's scratch buffers");
  }
  return AMP_STATUS_OK;
}
