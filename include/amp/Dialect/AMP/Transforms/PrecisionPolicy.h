//===- PrecisionPolicy.h - allow/deny/infer/clear policy --------*- C++ -*-===//
//
// The precision policy as data: a map from op name to one of TensorFlow
// AMP's four classes, with defaults for f16 and for bf16, overridable from
// a JSON file and from pass options.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_AMP_TRANSFORMS_PRECISIONPOLICY_H
#define AMP_DIALECT_AMP_TRANSFORMS_PRECISIONPOLICY_H

#include "amp/Interfaces/PrecisionClass.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>

namespace amp {

class PrecisionPolicy {
public:
  /// The default lists for a low-precision compute type (`bf16` = true for
  /// bf16, false for f16). docs/precision.md (Defaults) explains every entry.
  static PrecisionPolicy getDefaults(bool bf16);

  void set(llvm::StringRef opName, PrecisionClass c) { classes[opName] = c; }
  std::optional<PrecisionClass> lookup(llvm::StringRef opName) const;

  /// Applies a JSON policy `{"allow": [...], "deny": [...], "infer": [...],
  /// "clear": [...]}` over the current lists. `isKnownOp` rejects op names
  /// that no registered dialect defines. On failure `error` says why.
  mlir::LogicalResult
  applyJSON(llvm::StringRef json,
            llvm::function_ref<bool(llvm::StringRef)> isKnownOp,
            std::string &error);

  /// Reads and applies a JSON policy file.
  mlir::LogicalResult
  applyJSONFile(llvm::StringRef path,
                llvm::function_ref<bool(llvm::StringRef)> isKnownOp,
                std::string &error);

private:
  llvm::StringMap<PrecisionClass> classes;
};

} // namespace amp

#endif // AMP_DIALECT_AMP_TRANSFORMS_PRECISIONPOLICY_H
