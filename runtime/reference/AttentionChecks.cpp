//===- AttentionChecks.cpp - Argument checks of the attention kernels -----===//

#include "reference/AttentionChecks.h"

#include <initializer_list>

using namespace amp::runtime::kernels;

namespace {

/// The element counts of the tensors of one call.
struct AttentionCounts {
  int64_t q, k, v, out, lse, mask;
};

/// A buffer of one call and its size in bytes.
struct Extent {
  const char *name;
  const void *ptr;
  int64_t bytes;
};

bool overlap(const Extent &a, const Extent &b) {
  if (a.bytes == 0 || b.bytes == 0)
    return false;
  const char *pa = static_cast<const char *>(a.ptr);
  const char *pb = static_cast<const char *>(b.ptr);
  return pa < pb + b.bytes && pb < pa + a.bytes;
}

/// No output overlaps an input or an output after it.
amp_status_t checkNoOverlap(Checker &check, std::initializer_list<Extent> outs,
                            std::initializer_list<Extent> ins) {
  for (const Extent *o = outs.begin(); o != outs.end(); ++o) {
    for (const Extent &i : ins)
      if (overlap(*o, i))
        return check.fail(AMP_STATUS_INVALID_ARGUMENT, "%s overlaps %s",
                          o->name, i.name);
    for (const Extent *p = o + 1; p != outs.end(); ++p)
      if (overlap(*o, *p))
        return check.fail(AMP_STATUS_INVALID_ARGUMENT, "%s overlaps %s",
                          o->name, p->name);
  }
  return AMP_STATUS_OK;
}

/// Everything but the pointers: the dtypes, causal, the key/value head
/// group, the shapes of q, k, v, out, lse, the scores and the mask. Sets
/// *view and *n.
amp_status_t checkGeometry(Checker &check, bool hasMask, const int64_t *qDims,
                           int32_t rank, int64_t sk, int64_t dv,
                           int64_t kvGroup, const int64_t *maskDims,
                           amp_dtype_t dtype, amp_dtype_t maskDtype,
                           int32_t causal, AttentionView *view,
                           AttentionCounts *n) {
  if (amp_status_t s = check.dtype("dtype", dtype, kFloatDtypes))
    return s;
  if (hasMask) {
    if (amp_status_t s = check.dtype("mask_dtype", maskDtype, kFloatDtypes))
      return s;
    if (maskDtype != dtype && maskDtype != AMP_DTYPE_F32)
      return check.fail(AMP_STATUS_NOT_SUPPORTED,
                        "mask_dtype is %s; it must be f32 or dtype (%s)",
                        amp_dtype_name(maskDtype), amp_dtype_name(dtype));
  }
  if (causal != 0 && causal != 1)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "causal (%d) is not 0 or 1",
                      (int)causal);
  if (amp_status_t s = check.shape("q", qDims, rank, &n->q))
    return s;
  if (rank < 2)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "q must have rank >= 2 [B..., Sq, D], got rank %d",
                      (int)rank);
  if (amp_status_t s = check.count("sk", sk))
    return s;
  if (amp_status_t s = check.count("dv", dv))
    return s;
  const int32_t b = rank - 2;
  if (kvGroup < 1)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "kv_group (%lld) is not >= 1", (long long)kvGroup);
  if (kvGroup > 1 && b < 1)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "kv_group (%lld) groups q's heads, its last batch dim, "
                      "but q has rank 2",
                      (long long)kvGroup);
  if (kvGroup > 1 && qDims[b - 1] % kvGroup != 0)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "kv_group (%lld) does not divide q's heads (dim %d, "
                      "%lld)",
                      (long long)kvGroup, (int)(b - 1),
                      (long long)qDims[b - 1]);

  // The other shapes: q's batch dims (the heads divided by kv_group for k
  // and v) with (Sk, D), (Sk, Dv), (Sq, Dv), (Sq) and (Sq, Sk). The scores
  // are never stored, but the mask may have their shape and their count
  // bounds the work.
  const int64_t sq = qDims[b], d = qDims[b + 1];
  int64_t dims[kMaxRank];
  for (int32_t a = 0; a < b; ++a)
    dims[a] = qDims[a];
  auto shapeOf = [&](const char *name, int64_t rows, int64_t cols, int32_t r,
                     int64_t *count) {
    dims[b] = rows;
    dims[b + 1] = cols;
    return check.shape(name, dims, r, count);
  };
  if (b > 0)
    dims[b - 1] = qDims[b - 1] / kvGroup;
  if (amp_status_t s = shapeOf("k", sk, d, rank, &n->k))
    return s;
  if (amp_status_t s = shapeOf("v", sk, dv, rank, &n->v))
    return s;
  if (b > 0)
    dims[b - 1] = qDims[b - 1];
  if (amp_status_t s = shapeOf("out", sq, dv, rank, &n->out))
    return s;
  if (amp_status_t s = shapeOf("lse", sq, 0, rank - 1, &n->lse))
    return s;
  int64_t scores;
  if (amp_status_t s = shapeOf("the scores", sq, sk, rank, &scores))
    return s;

  AttentionView &w = *view;
  w.batch = product(qDims, 0, b);
  w.sq = sq;
  w.sk = sk;
  w.d = d;
  w.dv = dv;
  w.kvGroup = kvGroup;
  w.causal = causal != 0;
  w.hasMask = hasMask;
  w.batchRank = b;
  for (int32_t a = 0; a < kMaxRank; ++a) {
    w.batchDims[a] = a < b ? qDims[a] : 1;
    w.maskStrides[a] = 0;
  }
  w.maskStrideI = w.maskStrideJ = 0;
  n->mask = 0;
  if (!hasMask)
    return AMP_STATUS_OK;
  // dims holds the scores' shape now.
  if (amp_status_t s = check.shape("mask", maskDims, rank, &n->mask))
    return s;
  for (int32_t a = 0; a < rank; ++a)
    if (maskDims[a] != dims[a] && maskDims[a] != 1)
      return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                        "dimension %d of mask (%lld) is neither 1 nor the "
                        "scores' (%lld)",
                        (int)a, (long long)maskDims[a], (long long)dims[a]);
  int64_t strides[kMaxRank];
  broadcastStrides(maskDims, rank, rank, strides);
  for (int32_t a = 0; a < b; ++a)
    w.maskStrides[a] = strides[a];
  w.maskStrideI = strides[b];
  w.maskStrideJ = strides[b + 1];
  return AMP_STATUS_OK;
}

int64_t bytesOf(int64_t count, amp_dtype_t dtype) {
  return count * amp_dtype_size(dtype);
}

/// The dropout: rate in [0, 1) (0 without a seed), the seed's pointer.
/// Sets the view's dropout (none for rate 0).
amp_status_t checkDropout(Checker &check, AttentionDropout dropout,
                          AttentionView *view) {
  if (!dropout.seed && dropout.rate != 0.0f)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "dropout_rate (%g) is not 0, but dropout_seed is NULL",
                      (double)dropout.rate);
  if (!(dropout.rate >= 0.0f && dropout.rate < 1.0f))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "dropout_rate (%g) is not in [0, 1)",
                      (double)dropout.rate);
  if (dropout.seed)
    if (amp_status_t s =
            check.pointer("dropout_seed", dropout.seed, 1, AMP_DTYPE_I64))
      return s;
  const bool drops = dropout.seed && dropout.rate > 0.0f;
  view->dropoutSeed = drops ? dropout.seed : nullptr;
  view->dropoutThreshold = amp::runtime::dropoutThreshold(dropout.rate);
  view->keepProb = 1.0f - dropout.rate;
  return AMP_STATUS_OK;
}

} // namespace

amp_status_t amp::runtime::kernels::checkAttention(
    Checker &check, const void *q, const void *k, const void *v,
    const void *mask, const void *out, const float *lse, const int64_t *qDims,
    int32_t rank, int64_t sk, int64_t dv, int64_t kvGroup,
    const int64_t *maskDims, amp_dtype_t dtype, amp_dtype_t maskDtype,
    int32_t causal, AttentionDropout dropout, AttentionView *view) {
  AttentionCounts n;
  if (amp_status_t s =
          checkGeometry(check, mask != nullptr, qDims, rank, sk, dv, kvGroup,
                        maskDims, dtype, maskDtype, causal, view, &n))
    return s;
  if (amp_status_t s = checkDropout(check, dropout, view))
    return s;
  if (amp_status_t s = check.pointers({{"q", q, n.q, dtype},
                                       {"k", k, n.k, dtype},
                                       {"v", v, n.v, dtype},
                                       {"mask", mask, n.mask, maskDtype},
                                       {"out", out, n.out, dtype},
                                       {"lse", lse, n.lse, AMP_DTYPE_F32}}))
    return s;
  const int64_t maskBytes = mask ? bytesOf(n.mask, maskDtype) : 0;
  return checkNoOverlap(check,
                        {{"out", out, bytesOf(n.out, dtype)},
                         {"lse", lse, bytesOf(n.lse, AMP_DTYPE_F32)}},
                        {{"q", q, bytesOf(n.q, dtype)},
                         {"k", k, bytesOf(n.k, dtype)},
                         {"v", v, bytesOf(n.v, dtype)},
                         {"mask", mask, maskBytes}});
}

amp_status_t amp::runtime::kernels::checkAttentionGrad(
    Checker &check, const void *dout, const void *q, const void *k,
    const void *v, const void *mask, const void *out, const float *lse,
    const void *dq, const void *dk, const void *dvOut, const int64_t *qDims,
    int32_t rank, int64_t sk, int64_t dv, int64_t kvGroup,
    const int64_t *maskDims, amp_dtype_t dtype, amp_dtype_t maskDtype,
    int32_t causal, AttentionDropout dropout, AttentionView *view) {
  AttentionCounts n;
  if (amp_status_t s =
          checkGeometry(check, mask != nullptr, qDims, rank, sk, dv, kvGroup,
                        maskDims, dtype, maskDtype, causal, view, &n))
    return s;
  if (amp_status_t s = checkDropout(check, dropout, view))
    return s;
  if (amp_status_t s = check.pointers({{"dout", dout, n.out, dtype},
                                       {"q", q, n.q, dtype},
                                       {"k", k, n.k, dtype},
                                       {"v", v, n.v, dtype},
                                       {"mask", mask, n.mask, maskDtype},
                                       {"out", out, n.out, dtype},
                                       {"lse", lse, n.lse, AMP_DTYPE_F32},
                                       {"dq", dq, n.q, dtype},
                                       {"dk", dk, n.k, dtype},
                                       {"dv_out", dvOut, n.v, dtype}}))
    return s;
  const int64_t maskBytes = mask ? bytesOf(n.mask, maskDtype) : 0;
  return checkNoOverlap(check,
                        {{"dq", dq, bytesOf(n.q, dtype)},
                         {"dk", dk, bytesOf(n.k, dtype)},
                         {"dv_out", dvOut, bytesOf(n.v, dtype)}},
                        {{"dout", dout, bytesOf(n.out, dtype)},
                         {"q", q, bytesOf(n.q, dtype)},
                         {"k", k, bytesOf(n.k, dtype)},
                         {"v", v, bytesOf(n.v, dtype)},
                         {"mask", mask, maskBytes},
                         {"out", out, bytesOf(n.out, dtype)},
                         {"lse", lse, bytesOf(n.lse, AMP_DTYPE_F32)}});
}
