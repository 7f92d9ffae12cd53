//===- NestingDepth.cpp - refuse IR that would exhaust the parser's stack -===//

#include "amp/Parser/NestingDepth.h"

std::optional<amp::DeepNesting> amp::findDeepNesting(llvm::StringRef text,
                                                     unsigned limit) {
  unsigned depth = 0, line = 1, column = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    ++column;
    if (c == '\n') {
      ++line;
      column = 0;
      continue;
    }
    if (c == '/' && text.substr(i).starts_with("//")) {
      // A comment: skip to its end of line (the newline itself counts).
      const size_t end = text.find('\n', i);
      if (end == llvm::StringRef::npos)
        break;
      i = end - 1;
      continue;
    }
    if (c == '"') {
      // A string literal: skip to its closing quote, past escapes; a
      // newline ends an unterminated one (the parser's error, not ours).
      size_t j = i + 1;
      for (; j < text.size() && text[j] != '"' && text[j] != '\n'; ++j)
        if (text[j] == '\\')
          ++j;
      column += j - i;
      i = j < text.size() && text[j] == '"' ? j : j - 1;
      continue;
    }
    if (c == '-' && i + 1 < text.size() && text[i + 1] == '>') {
      ++i;
      ++column;
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > limit)
        return DeepNesting{line, column};
    } else if ((c == ')' || c == ']' || c == '}' || c == '>') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

std::string amp::deepNestingMessage(unsigned limit) {
  return "brackets nest deeper than " + std::to_string(limit) +
         " levels; amp's tools refuse such input, on which MLIR's parser "
         "would run out of stack";
}
