//===- NestingDepth.cpp - refuse IR that would exhaust the parser's stack -===//

#include "amp/Parser/NestingDepth.h"

#include "SourceScan.h"

std::optional<amp::DeepNesting> amp::findDeepNesting(llvm::StringRef text,
                                                     unsigned limit) {
  unsigned depth = 0;
  DeepNesting at;
  const bool deep = parser::scanSource(text, [&](size_t i, unsigned line,
                                                 unsigned column) {
    const char c = text[i];
    if (c == '(' || c == '[' || c == '{' || c == '<') {
      at = {line, column};
      return ++depth > limit;
    }
    // "->" is no bracket; a closer without an opener counts as nothing.
    const bool arrow = c == '>' && i > 0 && text[i - 1] == '-';
    if ((c == ')' || c == ']' || c == '}' || c == '>') && !arrow && depth > 0)
      --depth;
    return false;
  });
  if (!deep)
    return std::nullopt;
  return at;
}

std::string amp::deepNestingMessage(unsigned limit) {
  return "brackets nest deeper than " + std::to_string(limit) +
         " levels; amp's tools refuse such input, on which MLIR's parser "
         "would run out of stack";
}
