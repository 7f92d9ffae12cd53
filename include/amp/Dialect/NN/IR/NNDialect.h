//===- NNDialect.h - The nn dialect -----------------------------*- C++ -*-===//
//
// Declares the nn dialect class.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_NN_IR_NNDIALECT_H
#define AMP_DIALECT_NN_IR_NNDIALECT_H

#include "mlir/IR/Dialect.h"

#include "amp/Dialect/NN/IR/NNOpsDialect.h.inc"

#endif // AMP_DIALECT_NN_IR_NNDIALECT_H
