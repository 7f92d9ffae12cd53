//===- NestingDepth.h - refuse IR that would exhaust the parser's stack ---===//
//
// MLIR's parser descends once per nested bracket (a function type in a
// function type, a tuple in a tuple, an array in an array attribute), so a
// few tens of thousands of '(' overflow the stack of any tool that parses
// them (32 KB of input crashed amp-opt; amp-pipeline-fuzzer found it). amp's
// tools scan their input first and refuse nesting deeper than any real
// program uses, with one error line (ParserHazards.h).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_PARSER_NESTINGDEPTH_H
#define AMP_PARSER_NESTINGDEPTH_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace amp {

/// The deepest that (), [], {} and <> may nest in IR amp's tools parse.
constexpr unsigned kMaxIRNesting = 1000;

/// Where an open bracket first nests deeper than `limit` (1-based line and
/// column).
struct DeepNesting {
  unsigned line = 0, column = 0;
};

/// Scans MLIR source `text` for (, [, {, < and their closers, outside
/// string literals and // comments ("->" is no bracket; a closer without
/// an opener counts as nothing), and says where the nesting first exceeds
/// `limit`, or std::nullopt.
std::optional<DeepNesting> findDeepNesting(llvm::StringRef text,
                                           unsigned limit = kMaxIRNesting);

/// The error for such input (without the location).
std::string deepNestingMessage(unsigned limit = kMaxIRNesting);

} // namespace amp

#endif // AMP_PARSER_NESTINGDEPTH_H
