//===- Role.h - roles of training-step arguments and results ----*- C++ -*-===//
//
// The training-step convention (docs/dialects.md): every argument and result
// of a step carries a role that says how a runner feeds or threads it. The
// compiler spells them in the IR (`nn.role`); this is the runner's plain C++
// copy, so that the execution half needs no MLIR. The spellings below must
// stay those of the IR (RoleTest checks the table; the compile half parses
// the IR's spelling with parseRole).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_ROLE_H
#define AMP_RUNNER_ROLE_H

#include <optional>
#include <string_view>

namespace amp::runner {

enum class Role {
  Param,             // "param": a trained parameter (f32), threaded
  OptState,          // "opt_state": optimizer state (f32), threaded
  Input,             // "input": the batch's features or token ids
  Label,             // "label": the batch's labels
  Loss,              // "loss": the 0-d f32 loss (a result)
  LossScale,         // "loss_scale": the dynamic loss scale, threaded
  GrowthTracker,     // "growth_tracker": clean steps since the last change
  HysteresisTracker, // "hysteresis_tracker": overflows tolerated so far
  FoundInf,          // "found_inf": whether the step's gradients overflowed
  Buffer,            // "buffer": untrained state (running statistics), threaded
  ScheduleState, // "schedule_state": an lr schedule's step counter, threaded
  Lr,            // "lr": the learning rate the step used (a 0-d f32 result)
  GradNorm,      // "grad_norm": the gradients' norm before clipping (result)
  RngState,      // "rng_state": the step count that offsets dropout seeds
  Ema,           // "ema": a moving average of a param or buffer, threaded
  EmaCount,      // "ema_count": the updates the averages have had, threaded
};

/// Every role, in declaration order.
inline constexpr Role kAllRoles[] = {
    Role::Param,         Role::OptState,
    Role::Input,         Role::Label,
    Role::Loss,          Role::LossScale,
    Role::GrowthTracker, Role::HysteresisTracker,
    Role::FoundInf,      Role::Buffer,
    Role::ScheduleState, Role::Lr,
    Role::GradNorm,      Role::RngState,
    Role::Ema,           Role::EmaCount};

/// The IR spelling of `role` ("param", "opt_state", ...).
const char *roleName(Role role);

/// The role spelled `name`, or nullopt for an unknown spelling.
std::optional<Role> parseRole(std::string_view name);

/// Whether a result with this role feeds the next step's argument of the
/// same role (params, buffers, optimizer and loss-scale state), as opposed to
/// data (input, label) and what a step reports (loss, lr, grad_norm).
bool isThreadedRole(Role role);

/// Whether this role is one of a result a step reports and does not take:
/// the loss, lr and grad_norm (each a 0-d f32, at most one of each).
bool isReportedRole(Role role);

} // namespace amp::runner

#endif // AMP_RUNNER_ROLE_H
