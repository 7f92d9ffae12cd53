/*===- LinearStep.c - a training step written by hand in C -----------------===
 *
 * What a compiled step looks like to the execution half: the lowered calling
 * convention (one array of buffer pointers, arguments then results, an
 * amp_status_t back, `__amp_error_site` naming the failing op), calling the
 * runtime's C ABI. A 2-feature, 2-class softmax regression trained with SGD
 * and momentum, with dynamic loss-scale state: a batch with a non-finite
 * feature sets found_inf, halves the scale and skips the update.
 *
 *   args:    W [2,2] param, b [2] param, vW [2,2] opt_state, vb [2] opt_state,
 *            scale [] loss_scale, found_inf [] i1, tracker [] i32,
 *            x [4,2] input, y [4] i32 label
 *   results: W, b, vW, vb, scale, found_inf, tracker, loss
 *
 *===----------------------------------------------------------------------===*/

#include "LinearStep.h"

#include "amp_runtime/kernels.h"

#include <math.h>

const char *__amp_error_site = 0;
int linear_step_ignores_found_inf = 0;

enum { B = LINEAR_STEP_BATCH, F = 2, C = 2 };

static void logits(const float *W, const float *b, const float *x, float *out) {
  for (int r = 0; r < B; ++r)
    for (int c = 0; c < C; ++c) {
      float sum = b[c];
      for (int f = 0; f < F; ++f)
        sum += x[r * F + f] * W[f * C + c];
      out[r * C + c] = sum;
    }
}

int32_t linear_step(void **buffers) {
  const float *W = buffers[0], *b = buffers[1], *vW = buffers[2],
              *vb = buffers[3], *scale = buffers[4];
  const int32_t *tracker = buffers[6];
  const float *x = buffers[7];
  const int32_t *y = buffers[8];
  float *W2 = buffers[9], *b2 = buffers[10], *vW2 = buffers[11],
        *vb2 = buffers[12], *scale2 = buffers[13], *loss = buffers[16];
  int8_t *found2 = buffers[14];
  int32_t *tracker2 = buffers[15];

  float z[B * C], gW[F * C] = {0}, gb[C] = {0};
  logits(W, b, x, z);
  float total = 0;
  int finite = 1;
  for (int r = 0; r < B; ++r) {
    float m = fmaxf(z[r * C], z[r * C + 1]);
    float e0 = expf(z[r * C] - m), e1 = expf(z[r * C + 1] - m);
    float p[C] = {e0 / (e0 + e1), e1 / (e0 + e1)};
    total += -logf(p[y[r]]);
    for (int c = 0; c < C; ++c) {
      float d = (p[c] - (c == y[r])) / B;
      gb[c] += d;
      for (int f = 0; f < F; ++f)
        gW[f * C + c] += x[r * F + f] * d;
    }
  }
  for (int i = 0; i < F * C; ++i)
    finite &= isfinite(gW[i]);
  *loss = total / B;
  *found2 = !finite;

  /* The state is copied through the runtime, as lowered code does. */
  const float *from[] = {W, b, vW, vb};
  float *to[] = {W2, b2, vW2, vb2};
  const int64_t bytes[] = {4 * F * C, 4 * C, 4 * F * C, 4 * C};
  for (int i = 0; i < 4; ++i)
    if (amp_memcpy(to[i], from[i], bytes[i], 0) != AMP_STATUS_OK)
      return AMP_STATUS_BACKEND_ERROR;
  if (finite || linear_step_ignores_found_inf) {
    for (int i = 0; i < F * C; ++i) {
      vW2[i] = 0.9f * vW[i] + gW[i];
      W2[i] = W[i] - 0.5f * vW2[i];
    }
    for (int c = 0; c < C; ++c) {
      vb2[c] = 0.9f * vb[c] + gb[c];
      b2[c] = b[c] - 0.5f * vb2[c];
    }
  }
  *scale2 = finite ? *scale : *scale / 2;
  *tracker2 = finite ? *tracker + 1 : 0;
  return AMP_STATUS_OK;
}

int32_t linear_predict(void **buffers) {
  logits(buffers[0], buffers[1], buffers[2], buffers[3]);
  return AMP_STATUS_OK;
}

int32_t failing_step(void **buffers) {
  __amp_error_site = "linear.mlir:7:3";
  /* A negative size: the runtime rejects the call and says why. */
  return amp_memcpy(buffers[9], buffers[0], -1, 0);
}
