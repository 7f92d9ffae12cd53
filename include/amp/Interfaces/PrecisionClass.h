//===- PrecisionClass.h - the four classes of the precision policy -*- C++ -*-===//
//
// TensorFlow AMP's four op classes (allow, deny, infer, clear). The policy
// maps op names to them, and an op's MixedPrecisionOpInterface model may
// carry a default one, so the enum lives below both.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INTERFACES_PRECISIONCLASS_H
#define AMP_INTERFACES_PRECISIONCLASS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace amp {

enum class PrecisionClass : uint8_t {
  Allow, ///< always low precision (matmul, conv)
  Deny,  ///< always f32, and f32 spreads downstream through infer/clear
  Infer, ///< low precision when on a path between low-precision ops
  Clear, ///< follows its neighbours (reshape, transpose, relu, max)
};

llvm::StringRef stringifyPrecisionClass(PrecisionClass c);
std::optional<PrecisionClass> parsePrecisionClass(llvm::StringRef s);

} // namespace amp

#endif // AMP_INTERFACES_PRECISIONCLASS_H
