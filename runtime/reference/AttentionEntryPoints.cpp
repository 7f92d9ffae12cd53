//===- AttentionEntryPoints.cpp - amp_attention(_grad), every backend -----===//
//
// The two C entry points of the fused attention, compiled into each backend
// library: the shared checks (AttentionChecks.h), then the backend's
// attentionForward() / attentionBackward() (reference/KernelsAttention.cpp,
// cpu/CpuAttention.cpp, cuda/KernelsAttention.cu).
//
//===----------------------------------------------------------------------===//

#include "reference/AttentionChecks.h"

using namespace amp::runtime::kernels;

/// A call's operands that both entry points take; the checks fill the view,
/// each entry point its own buffers.
static AttentionCall callOf(const void *q, const void *k, const void *v,
                            const void *mask, amp_dtype_t dtype,
                            amp_dtype_t maskDtype, float scale, void *stream) {
  AttentionCall call{};
  call.q = q;
  call.k = k;
  call.v = v;
  call.mask = mask;
  call.dtype = dtype;
  call.maskDtype = mask ? maskDtype : AMP_DTYPE_F32;
  call.scale = scale;
  call.stream = stream;
  return call;
}

extern "C" {

amp_status_t amp_attention(const void *q, const void *k, const void *v,
                           const void *mask, void *out, float *lse,
                           const int64_t *q_dims, int32_t rank, int64_t sk,
                           int64_t dv, int64_t kv_group,
                           const int64_t *mask_dims, amp_dtype_t dtype,
                           amp_dtype_t mask_dtype, float scale, int32_t causal,
                           const int64_t *dropout_seed, float dropout_rate,
                           void *stream) {
  Checker check("amp_attention");
  AttentionCall call = callOf(q, k, v, mask, dtype, mask_dtype, scale, stream);
  if (amp_status_t s =
          checkAttention(check, q, k, v, mask, out, lse, q_dims, rank, sk, dv,
                         kv_group, mask_dims, dtype, mask_dtype, causal,
                         {dropout_seed, dropout_rate}, &call.view))
    return s;
  call.dst = out;
  call.lseOut = lse;
  return attentionForward(check, call);
}

amp_status_t amp_attention_grad(
    const void *dout, const void *q, const void *k, const void *v,
    const void *mask, const void *out, const float *lse, void *dq, void *dk,
    void *dv_out, const int64_t *q_dims, int32_t rank, int64_t sk, int64_t dv,
    int64_t kv_group, const int64_t *mask_dims, amp_dtype_t dtype,
    amp_dtype_t mask_dtype, float scale, int32_t causal,
    const int64_t *dropout_seed, float dropout_rate, void *stream) {
  Checker check("amp_attention_grad");
  AttentionCall call = callOf(q, k, v, mask, dtype, mask_dtype, scale, stream);
  if (amp_status_t s = checkAttentionGrad(
          check, dout, q, k, v, mask, out, lse, dq, dk, dv_out, q_dims, rank,
          sk, dv, kv_group, mask_dims, dtype, mask_dtype, causal,
          {dropout_seed, dropout_rate}, &call.view))
    return s;
  call.out = out;
  call.dout = dout;
  call.lse = lse;
  call.dst = dq;
  call.dk = dk;
  call.dv = dv_out;
  return attentionBackward(check, call);
}

} // extern "C"
