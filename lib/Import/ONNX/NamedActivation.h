//===- NamedActivation.h - activations named by a recurrent node -*- C++
//-*-===//
//
// ONNX's RNN, GRU and LSTM name their activations in the `activations`
// attribute (Sigmoid, Tanh, Relu, and the optional Affine, LeakyRelu,
// ThresholdedRelu, ScaledTanh, HardSigmoid, Elu, Softsign and Softplus),
// with the parameters of those that take one in `activation_alpha` and
// `activation_beta`. They are built of nn ops by OpsActivation.cpp, the
// formulas of the activation ops of the same names.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_IMPORT_ONNX_NAMEDACTIVATION_H
#define AMP_LIB_IMPORT_ONNX_NAMEDACTIVATION_H

#include "Formula.h"

namespace amp::onnx_import {

struct NamedActivation {
  enum class Kind {
    Sigmoid,
    Tanh,
    Relu,
    Affine,
    LeakyRelu,
    ThresholdedRelu,
    ScaledTanh,
    HardSigmoid,
    Elu,
    Softsign,
    Softplus
  };
  Kind kind = Kind::Sigmoid;
  float alpha = 0.0f, beta = 0.0f;
};

/// The node's `count` activations (names matched without regard to case,
/// as ONNX Runtime does), or `defaults` when it names none. Each value of
/// activation_alpha and activation_beta goes, in order, to the next
/// activation that takes that parameter, as ONNX Runtime reads them. An
/// activation left without one takes the default of the ONNX op of its
/// name, as the specification says (LeakyRelu 0.01, ThresholdedRelu 1,
/// HardSigmoid 0.2 and 0.5, Elu 1; ONNX Runtime takes 0 for
/// ThresholdedRelu). Affine and ScaledTanh, which have no such op, need
/// theirs (ONNX Runtime takes 0); values left over are an error (ONNX
/// Runtime ignores them).
FailureOr<llvm::SmallVector<NamedActivation>>
readNamedActivations(NodeContext &nc, llvm::ArrayRef<llvm::StringRef> defaults,
                     unsigned count);

/// The activation `a` of `x`.
Value applyNamedActivation(Formula &f, const NamedActivation &a, Value x);

} // namespace amp::onnx_import

#endif // AMP_LIB_IMPORT_ONNX_NAMEDACTIVATION_H
