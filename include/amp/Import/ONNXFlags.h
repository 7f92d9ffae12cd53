//===- ONNXFlags.h - the command-line flags of an ONNX import ---*- C++ -*-===//
//
// The llvm::cl flags that say what an import builds (ONNXImportOptions):
// declared once for the tools that import a model, amp-import-onnx and
// amp-export-onnx, which must import it the same way. They exist only once
// registerONNXImportFlags is called, so that linking the importer adds no
// flags to a program.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_IMPORT_ONNXFLAGS_H
#define AMP_IMPORT_ONNXFLAGS_H

#include "amp/Import/ONNX.h"

#include "llvm/Support/CommandLine.h"

#include <string>

namespace amp {

/// Registers the flags (before llvm::cl parses the command line).
void registerONNXImportFlags();
/// Their category ("amp-import-onnx options").
llvm::cl::OptionCategory &onnxImportFlagsCategory();
/// The options the parsed flags give; returns an error message or "".
std::string onnxImportOptionsFromFlags(ONNXImportOptions &options);

} // namespace amp

#endif // AMP_IMPORT_ONNXFLAGS_H
