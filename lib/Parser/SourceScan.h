//===- SourceScan.h - walk MLIR source outside strings and comments -*- C++
//-*-//
//
// The scans of ParserHazards.h look at MLIR source before the parser does;
// they share this walk, which skips string literals (past escapes; a
// newline ends an unterminated one) and // comments.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_PARSER_SOURCESCAN_H
#define AMP_LIB_PARSER_SOURCESCAN_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

namespace amp::parser {

/// Calls visit(i, line, column) for every character text[i] outside string
/// literals and // comments, newlines excluded (1-based line and column),
/// until it returns true; returns whether it did.
bool scanSource(llvm::StringRef text,
                llvm::function_ref<bool(size_t, unsigned, unsigned)> visit);

} // namespace amp::parser

#endif // AMP_LIB_PARSER_SOURCESCAN_H
