//===- ParseNamingArguments.h - parse, keeping argument names ---*- C++ -*-===//
//
// A parser entry point for tools whose messages name function arguments as
// the source does (`%w1`): amp-grad-check and amp-run.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_PARSER_PARSENAMINGARGUMENTS_H
#define AMP_PARSER_PARSENAMINGARGUMENTS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

namespace amp {

/// Parses `filename` like mlir::parseSourceFile and gives every function
/// argument the name it has in the source (`%w1`) as a NameLoc around its
/// location, which reports print; an argument located at a name
/// (`loc("ids")`) keeps it. Errors go to the context's handler.
mlir::OwningOpRef<mlir::ModuleOp>
parseFileNamingArguments(llvm::StringRef filename, mlir::MLIRContext *context);

} // namespace amp

#endif // AMP_PARSER_PARSENAMINGARGUMENTS_H
