//===- NNOps.h - nn dialect operations --------------------------*- C++ -*-===//
//
// Declares the operations of the nn dialect (generated from NNOps.td).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_NN_IR_NNOPS_H
#define AMP_DIALECT_NN_IR_NNOPS_H

#include "amp/Dialect/NN/IR/LrSchedule.h"
#include "amp/Dialect/NN/IR/NNDialect.h"
#include "amp/Interfaces/ComputeBoundTrait.h"
#include "amp/Interfaces/TensorSizeTrait.h"
#include "amp/Interfaces/ZeroDerivativeTrait.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "amp/Dialect/NN/IR/ElementwiseLossOpInterface.h.inc"
#include "amp/Dialect/NN/IR/GradientClipOpInterface.h.inc"
#include "amp/Dialect/NN/IR/OptimizerUpdateOpInterface.h.inc"

namespace amp::nn {

/// nn.adafactor_update's factored state types for a param of rank >= 2:
/// row_var is the param's type with its last dimension 1, col_var with its
/// second-to-last dimension 1. The param's type itself at lower rank (which
/// the op's verifier rejects as factored).
mlir::Type adafactorRowVarType(mlir::Type param);
mlir::Type adafactorColVarType(mlir::Type param);

} // namespace amp::nn

#define GET_OP_CLASSES
#include "amp/Dialect/NN/IR/NNOps.h.inc"

namespace amp::nn {

/// nn.attention's shape inference on operand types (`mask` may be null):
/// its output and log-sum-exp types, or failure (with an error at `loc`
/// when it is set). For rewrites that check a fusion before building the
/// operands.
llvm::LogicalResult inferAttentionTypes(mlir::MLIRContext *ctx,
                                        std::optional<mlir::Location> loc,
                                        mlir::Type query, mlir::Type key,
                                        mlir::Type value, mlir::Type mask,
                                        llvm::SmallVectorImpl<mlir::Type> &out);

/// The query heads per key/value head of an nn.attention (or its gradient)
/// whose operand types verified: the query's last batch dim over the key's
/// (grouped-query attention), 1 at rank 2 or when the key has no heads.
int64_t attentionKvGroup(mlir::Type query, mlir::Type key);

/// The elementwise loss of `kind` (nn.mse_loss ... nn.bce_with_logits_loss)
/// of `pred` against `target` with `reduction`; `param` is Huber's delta,
/// which the others ignore.
mlir::Value createElementwiseLoss(mlir::OpBuilder &b, mlir::Location loc,
                                  ElementwiseLossKind kind, float param,
                                  LossReduction reduction, mlir::Value pred,
                                  mlir::Value target);

} // namespace amp::nn

#endif // AMP_DIALECT_NN_IR_NNOPS_H
