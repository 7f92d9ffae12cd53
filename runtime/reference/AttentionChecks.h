//===- AttentionChecks.h - Argument checks of the attention kernels -------===//
//
// The argument checks of amp_attention and amp_attention_grad, shared by the
// reference, cpu and CUDA backends (amp_kernel_core) so that a malformed
// call fails with the same status and message on each, and the geometry
// they return: the batch of independent problems and the mask's broadcast
// strides, which the host and the device kernels all index with.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_ATTENTIONCHECKS_H
#define AMP_RUNTIME_REFERENCE_ATTENTIONCHECKS_H

#include "amp_runtime/dropout.h"
#include "amp_runtime/host_device.h"
#include "reference/KernelCommon.h"

namespace amp {
namespace runtime {
namespace kernels {

/// One attention call: `batch` independent problems (the leading dims of q
/// flattened), each of sq query rows and sk keys, with head dims d (q, k)
/// and dv (v, out). Problem b reads key/value problem b / kvGroup (grouped-
/// query attention; kvGroup = 1: one each). Plain data, passed to the CUDA
/// kernels by value.
struct AttentionView {
  int64_t batch, sq, sk, d, dv, kvGroup;
  bool causal;
  /// Whether there is a mask; its element strides along the leading dims
  /// (maskStrides[0, batchRank)), the query rows and the keys, 0 where it
  /// broadcasts.
  bool hasMask;
  int32_t batchRank;
  int64_t batchDims[kMaxRank];
  int64_t maskStrides[kMaxRank];
  int64_t maskStrideI, maskStrideJ;
  /// Dropout on the probabilities: the seed (device memory on CUDA; NULL:
  /// none, also for rate 0), the keep threshold of amp_runtime/dropout.h
  /// and 1 - rate, which a kept probability is divided by.
  const int64_t *dropoutSeed;
  float dropoutThreshold, keepProb;

  /// The key/value problems: batch / kvGroup.
  AMP_HOST_DEVICE int64_t kvBatch() const { return batch / kvGroup; }

  /// The key/value problem that problem b reads.
  AMP_HOST_DEVICE int64_t kvProblem(int64_t b) const { return b / kvGroup; }

  /// The element offset into the mask of problem b's scores[0, 0].
  AMP_HOST_DEVICE int64_t maskBase(int64_t b) const {
    int64_t offset = 0;
    for (int32_t a = batchRank - 1; a >= 0; --a) {
      offset += (b % batchDims[a]) * maskStrides[a];
      b /= batchDims[a];
    }
    return offset;
  }

  /// *dropoutSeed, read where the kernel runs (device memory on CUDA), or
  /// 0 without dropout.
  AMP_HOST_DEVICE uint64_t seedValue() const {
    return dropoutSeed ? static_cast<uint64_t>(*dropoutSeed) : 0;
  }

  /// Whether problem b's probability p[i, j] is kept, `seed` being
  /// seedValue(): nn.dropout's mask of the [batch, sq, sk] probabilities.
  AMP_HOST_DEVICE bool keeps(uint64_t seed, int64_t b, int64_t i,
                             int64_t j) const {
    return dropoutKeep(seed, static_cast<uint64_t>((b * sq + i) * sk + j),
                       dropoutThreshold);
  }

  /// The keys query row i may attend: all of them, or with causal the
  /// first i + 1 (PyTorch's top-left aligned is_causal).
  AMP_HOST_DEVICE int64_t keysOf(int64_t i) const {
    return causal && i + 1 < sk ? i + 1 : sk;
  }
};

/// The dropout of a call: the seed (NULL: none) and the rate.
struct AttentionDropout {
  const int64_t *seed;
  float rate;
};

/// amp_attention: dtypes, q_dims (rank 2..AMP_KERNEL_MAX_RANK), sk, dv,
/// kv_group (>= 1, dividing q's last batch dim), the mask's shape (each dim
/// the scores' or 1), causal, the dropout (rate in [0, 1), 0 without a
/// seed), the pointers, and that no output overlaps an input or the other
/// output. Sets *view.
amp_status_t checkAttention(Checker &check, const void *q, const void *k,
                            const void *v, const void *mask, const void *out,
                            const float *lse, const int64_t *qDims,
                            int32_t rank, int64_t sk, int64_t dv,
                            int64_t kvGroup, const int64_t *maskDims,
                            amp_dtype_t dtype, amp_dtype_t maskDtype,
                            int32_t causal, AttentionDropout dropout,
                            AttentionView *view);

/// amp_attention_grad: the same, with dout and out (out's shape), and the
/// outputs dq, dk, dv_out, none overlapping an input or another output.
amp_status_t checkAttentionGrad(
    Checker &check, const void *dout, const void *q, const void *k,
    const void *v, const void *mask, const void *out, const float *lse,
    const void *dq, const void *dk, const void *dvOut, const int64_t *qDims,
    int32_t rank, int64_t sk, int64_t dv, int64_t kvGroup,
    const int64_t *maskDims, amp_dtype_t dtype, amp_dtype_t maskDtype,
    int32_t causal, AttentionDropout dropout, AttentionView *view);

/// A checked call of amp_attention (dst = out, lseOut) or
/// amp_attention_grad (out, dout, lse in; dst = dq, dk, dv out), as the
/// entry points of AttentionEntryPoints.cpp hand it to the backend.
struct AttentionCall {
  AttentionView view;
  const void *q, *k, *v, *mask, *out, *dout;
  const float *lse;
  void *dst;
  float *lseOut;
  void *dk, *dv;
  amp_dtype_t dtype;
  /// The mask's dtype, f32 when there is no mask.
  amp_dtype_t maskDtype;
  float scale;
  void *stream;

  bool maskIsF32() const { return maskDtype == AMP_DTYPE_F32; }
};

/// One backend's attention (each backend library defines both once; the C
/// entry points of AttentionEntryPoints.cpp call them after the checks).
/// Failures go to `check`, whose name is the entry point's.
amp_status_t attentionForward(Checker &check, const AttentionCall &call);
amp_status_t attentionBackward(Checker &check, const AttentionCall &call);

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_ATTENTIONCHECKS_H
