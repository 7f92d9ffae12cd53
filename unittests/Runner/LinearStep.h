//===- LinearStep.h - the hand-written C step of LinearStep.c ---*- C++ -*-===//

#ifndef AMP_UNITTESTS_RUNNER_LINEARSTEP_H
#define AMP_UNITTESTS_RUNNER_LINEARSTEP_H

#include <stdint.h>

#define LINEAR_STEP_BATCH 4

#ifdef __cplusplus
extern "C" {
#endif
/* The lowered calling convention: arguments, then results. */
int32_t linear_step(void **buffers);
/* (W, b, x) -> logits [batch, 2]. */
int32_t linear_predict(void **buffers);
/* Fails in the runtime, naming "linear.mlir:7:3" as the failing op. */
int32_t failing_step(void **buffers);
extern const char *__amp_error_site;
/* Nonzero: update the params even on a found_inf step (a broken skip). */
extern int linear_step_ignores_found_inf;
#ifdef __cplusplus
}
#endif

#endif // AMP_UNITTESTS_RUNNER_LINEARSTEP_H
