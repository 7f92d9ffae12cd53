//===- Passes.h - amp conversion passes -------------------------*- C++ -*-===//
//
// Declares every amp conversion pass (generated from Passes.td) and their
// registration, registerAMPConversionPasses().
//
//===----------------------------------------------------------------------===//

#ifndef AMP_CONVERSION_PASSES_H
#define AMP_CONVERSION_PASSES_H

#include "amp/Conversion/MatmulToCublasLt/MatmulToCublasLt.h"
#include "amp/Conversion/NNToRuntime/NNToRuntime.h"

namespace amp {

#define GEN_PASS_REGISTRATION
#include "amp/Conversion/Passes.h.inc"

} // namespace amp

#endif // AMP_CONVERSION_PASSES_H
