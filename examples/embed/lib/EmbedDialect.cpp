//===- EmbedDialect.cpp - the embed dialect -------------------------------===//

#include "Embed/EmbedDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace embed;

#include "Embed/EmbedOpsDialect.cpp.inc"

void EmbedDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Embed/EmbedOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "Embed/EmbedOps.cpp.inc"
