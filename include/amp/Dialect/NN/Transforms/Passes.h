//===- Passes.h - nn transformation passes ----------------------*- C++ -*-===//
//
// Declares the nn passes (generated from Passes.td) and their registration.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_NN_TRANSFORMS_PASSES_H
#define AMP_DIALECT_NN_TRANSFORMS_PASSES_H

#include "amp/Dialect/NN/IR/NNDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace amp::nn {

#define GEN_PASS_DECL
#include "amp/Dialect/NN/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "amp/Dialect/NN/Transforms/Passes.h.inc"

} // namespace amp::nn

#endif // AMP_DIALECT_NN_TRANSFORMS_PASSES_H
