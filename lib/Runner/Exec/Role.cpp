//===- Role.cpp - role spellings ------------------------------------------===//

#include "amp/Runner/Role.h"

using namespace amp::runner;

const char *amp::runner::roleName(Role role) {
  switch (role) {
  case Role::Param:
    return "param";
  case Role::OptState:
    return "opt_state";
  case Role::Input:
    return "input";
  case Role::Label:
    return "label";
  case Role::Loss:
    return "loss";
  case Role::LossScale:
    return "loss_scale";
  case Role::GrowthTracker:
    return "growth_tracker";
  case Role::HysteresisTracker:
    return "hysteresis_tracker";
  case Role::FoundInf:
    return "found_inf";
  }
  return "?";
}

std::optional<Role> amp::runner::parseRole(std::string_view name) {
  for (Role role : kAllRoles)
    if (name == roleName(role))
      return role;
  return std::nullopt;
}

bool amp::runner::isThreadedRole(Role role) {
  return role != Role::Input && role != Role::Label && role != Role::Loss;
}
