//===- PromisedModels.h - promised interfaces were attached -*- C++ -*-===//
//
// The nn dialect promises the interfaces amp attaches to its ops later
// (MixedPrecisionOpInterface, DifferentiableOpInterface). MLIR itself checks
// a promise on every interface query only in builds with assertions; the
// passes that need an interface check once per run, in every build.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INTERFACES_PROMISEDMODELS_H
#define AMP_INTERFACES_PROMISEDMODELS_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"
#include "mlir/Support/TypeID.h"

namespace amp {

/// Fails, with an error naming the op, when a loaded dialect promised
/// `interface` (spelled `interfaceName`) for one of its ops but no model was
/// attached; `registration` says what registers the models.
mlir::LogicalResult checkPromisedModels(mlir::MLIRContext *ctx,
                                        mlir::TypeID interface,
                                        llvm::StringRef interfaceName,
                                        llvm::StringRef passName,
                                        llvm::StringRef registration);

} // namespace amp

#endif // AMP_INTERFACES_PROMISEDMODELS_H
