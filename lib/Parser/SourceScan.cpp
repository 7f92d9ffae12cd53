//===- SourceScan.cpp - walk MLIR source outside strings and comments -----===//

#include "SourceScan.h"

bool amp::parser::scanSource(
    llvm::StringRef text,
    llvm::function_ref<bool(size_t, unsigned, unsigned)> visit) {
  unsigned line = 1, column = 0;
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
        return false;
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
    if (visit(i, line, column))
      return true;
  }
  return false;
}
