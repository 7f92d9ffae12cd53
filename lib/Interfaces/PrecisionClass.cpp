//===- PrecisionClass.cpp - names of the four policy classes --------------===//

#include "amp/Interfaces/PrecisionClass.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

using namespace amp;
using llvm::StringRef;

StringRef amp::stringifyPrecisionClass(PrecisionClass c) {
  switch (c) {
  case PrecisionClass::Allow:
    return "allow";
  case PrecisionClass::Deny:
    return "deny";
  case PrecisionClass::Infer:
    return "infer";
  case PrecisionClass::Clear:
    return "clear";
  }
  llvm_unreachable("unknown precision class");
}

std::optional<PrecisionClass> amp::parsePrecisionClass(StringRef s) {
  return llvm::StringSwitch<std::optional<PrecisionClass>>(s)
      .Case("allow", PrecisionClass::Allow)
      .Case("deny", PrecisionClass::Deny)
      .Case("infer", PrecisionClass::Infer)
      .Case("clear", PrecisionClass::Clear)
      .Default(std::nullopt);
}
