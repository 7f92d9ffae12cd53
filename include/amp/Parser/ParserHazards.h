//===- ParserHazards.h - refuse IR on which MLIR's parser crashes -*- C++ -*-=//
//
// Input that crashes MLIR 22's parser instead of getting an error, which
// amp's tools scan for and refuse before parsing, with one error line:
//   - brackets nested deeper than kMaxIRNesting, which run the parser out
//     of stack (NestingDepth.h);
//   - a dense array of `index` elements, `array<index: 1>` (also through
//     a type alias): the parser takes `index` for an integer or float type
//     and reads its width through a null float type (IndexArrays.cpp).
// amp-opt, amp-run, amp-compile, amp-grad-check (through
// parseFileNamingArguments), the IR fuzzers and examples/embed run it.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_PARSER_PARSERHAZARDS_H
#define AMP_PARSER_PARSERHAZARDS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace amp {

/// Where MLIR source would crash the parser (1-based line and column), and
/// why.
struct ParserHazard {
  unsigned line = 0, column = 0;
  std::string message;
};

/// A dense array of index elements in `text` (IndexArrays.cpp): the first
/// `array<` whose element type is `index` or a type alias of it, outside
/// string literals and // comments.
std::optional<ParserHazard> findIndexDenseArray(llvm::StringRef text);

/// The first hazard of `text`, or std::nullopt.
std::optional<ParserHazard> findParserHazard(llvm::StringRef text);

/// For tools that read a buffer before MLIR parses it: when `buffer` holds
/// a hazard, writes "<buffer id>:<line>:<column>: error: <message>" to `os`
/// and returns true.
bool reportParserHazard(const llvm::MemoryBuffer &buffer,
                        llvm::raw_ostream &os);

} // namespace amp

#endif // AMP_PARSER_PARSERHAZARDS_H
