/* gemm.c - one f32 GEMM with a bias epilogue through amp's C runtime ABI
 * (amp_runtime/gemm.h, libamp_runtime_ref), and one rejected request. */
#include "amp_runtime/gemm.h"

#include <stdio.h>

int main(void) {
  /* D (2x2) = A (2x3) * B (3x2) + bias (2) */
  const float a[6] = {1, 2, 3, 4, 5, 6};
  const float b[6] = {1, 0, 0, 1, 1, 1};
  float bias[2] = {0.5f, -0.5f};
  float d[4] = {0, 0, 0, 0};

  amp_gemm_desc_t desc;
  amp_gemm_desc_init(&desc);
  desc.a = a;
  desc.b = b;
  desc.d = d;
  desc.bias = bias;
  desc.m = 2;
  desc.n = 2;
  desc.k = 3;
  desc.lda = 3;
  desc.ldb = 2;
  desc.ldd = 2;
  desc.a_dtype = desc.b_dtype = desc.d_dtype = AMP_DTYPE_F32;
  desc.epilogue = AMP_GEMM_EPILOGUE_BIAS;
  amp_status_t status = amp_gemm(&desc, NULL);
  if (status != AMP_STATUS_OK) {
    fprintf(stderr, "amp_gemm: %s\n", amp_gemm_last_error());
    return 1;
  }
  printf("d = [%g %g; %g %g]\n", d[0], d[1], d[2], d[3]);

  desc.k = 0; /* malformed: rejected, nothing written */
  status = amp_gemm(&desc, NULL);
  printf("k = 0: status %d: %s\n", (int)status, amp_gemm_last_error());
  return status == AMP_STATUS_INVALID_ARGUMENT ? 0 : 1;
}
