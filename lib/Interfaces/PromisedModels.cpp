//===- PromisedModels.cpp - check that promised interfaces were attached --===//

#include "amp/Interfaces/PromisedModels.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/OperationSupport.h"

using namespace mlir;

LogicalResult amp::checkPromisedModels(MLIRContext *ctx, TypeID interface,
                                       StringRef interfaceName,
                                       StringRef passName,
                                       StringRef registration) {
  for (RegisteredOperationName name : ctx->getRegisteredOperations()) {
    if (!name.getDialect().hasPromisedInterface(name.getTypeID(), interface))
      continue;
    return emitError(UnknownLoc::get(ctx))
           << passName << ": '" << name.getStringRef() << "' has no "
           << interfaceName << " model, which the '"
           << name.getDialectNamespace()
           << "' dialect promises: register the models with the dialects ("
           << registration << ", or amp::registerAllDialects)";
  }
  return success();
}
