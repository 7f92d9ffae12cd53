//===- EmbedDialect.h - the embed dialect -----------------------*- C++ -*-===//

#ifndef EMBED_EMBEDDIALECT_H
#define EMBED_EMBEDDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Embed/EmbedOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "Embed/EmbedOps.h.inc"

#endif // EMBED_EMBEDDIALECT_H
