//===- Role.cpp - role spellings ------------------------------------------===//

#include "amp/Runner/Role.h"

#include <iterator>

using namespace amp::runner;

/// The IR's spellings, indexed by Role.
static constexpr const char *kRoleNames[] = {
    "param",
    "opt_state",
    "input",
    "label",
    "loss",
    "loss_scale",
    "growth_tracker",
    "hysteresis_tracker",
    "found_inf",
    "buffer",
    "schedule_state",
    "lr",
    "grad_norm",
    "rng_state",
    "ema",
    "ema_count",
};
static_assert(std::size(kRoleNames) == std::size(kAllRoles),
              "one spelling per role");

const char *amp::runner::roleName(Role role) {
  return kRoleNames[static_cast<int>(role)];
}

std::optional<Role> amp::runner::parseRole(std::string_view name) {
  for (Role role : kAllRoles)
    if (name == roleName(role))
      return role;
  return std::nullopt;
}

bool amp::runner::isReportedRole(Role role) {
  return role == Role::Loss || role == Role::Lr || role == Role::GradNorm;
}

bool amp::runner::isThreadedRole(Role role) {
  return role != Role::Input && role != Role::Label && !isReportedRole(role);
}
