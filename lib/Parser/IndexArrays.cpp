//===- IndexArrays.cpp - dense arrays of index, which crash MLIR's parser -===//
//
// MLIR 22's parseDenseArrayAttr accepts `index` as an element type and then
// asks it for its integer-or-float width, which dereferences a null float
// type: `array<index: 1>` (or `array<!t>` with `!t = index`) crashes every
// tool that parses it, mlir-opt included (amp-pipeline-fuzzer found it).
// This scan finds such an array before the parser sees it. Type aliases are
// resolved through their definitions (`!t = index`, `!u = !t`) wherever
// they are in the text. Between tokens it skips what MLIR's lexer skips:
// whitespace, NUL bytes and // comments, also across lines
// (amp-ir-fuzzer found `!u = <NULs>!t`, which a line-based scan missed).
//
//===----------------------------------------------------------------------===//

#include "amp/Parser/ParserHazards.h"

#include "SourceScan.h"

#include "llvm/ADT/StringMap.h"

#include <cctype>

namespace {

bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '.';
}

/// The identifier at `text[i]` ("" if none).
llvm::StringRef identifierAt(llvm::StringRef text, size_t i) {
  size_t end = i;
  while (end < text.size() && isIdentifierChar(text[end]))
    ++end;
  return text.slice(i, end);
}

/// The index of the next token at or after `i`: past whitespace, NUL bytes
/// (MLIR's lexer skips a NUL that does not end the buffer) and // comments.
size_t skipTrivia(llvm::StringRef text, size_t i) {
  while (i < text.size()) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c)) || c == '\0') {
      ++i;
    } else if (c == '/' && text.substr(i).starts_with("//")) {
      i = text.find('\n', i);
      if (i == llvm::StringRef::npos)
        return text.size();
    } else {
      break;
    }
  }
  return i;
}

/// The type token at `text[i]`: an alias use `!name` or an identifier ("" if
/// none).
std::string typeTokenAt(llvm::StringRef text, size_t i) {
  if (i < text.size() && text[i] == '!')
    return "!" + identifierAt(text, i + 1).str();
  return identifierAt(text, i).str();
}

/// Whether a type at `text[i]` is `index` or an alias that resolves to it.
bool isIndexType(llvm::StringRef text, size_t i,
                 const llvm::StringMap<std::string> &aliases) {
  std::string type = typeTokenAt(text, i);
  // Alias chains are short; the bound stops a cycle.
  for (int hop = 0; hop < 64 && type.size() > 1 && type[0] == '!'; ++hop) {
    auto it = aliases.find(llvm::StringRef(type).drop_front());
    if (it == aliases.end())
      return false;
    type = it->second;
  }
  return type == "index";
}

} // namespace

std::optional<amp::ParserHazard>
amp::findIndexDenseArray(llvm::StringRef text) {
  // Type alias definitions, `!name = type` outside strings and comments:
  // the first token of each type.
  llvm::StringMap<std::string> aliases;
  parser::scanSource(text, [&](size_t i, unsigned, unsigned) {
    if (text[i] != '!')
      return false;
    llvm::StringRef name = identifierAt(text, i + 1);
    size_t eq = skipTrivia(text, i + 1 + name.size());
    if (!name.empty() && eq < text.size() && text[eq] == '=')
      aliases.try_emplace(name, typeTokenAt(text, skipTrivia(text, eq + 1)));
    return false;
  });

  ParserHazard hazard;
  const bool found =
      parser::scanSource(text, [&](size_t i, unsigned line, unsigned column) {
        if (text[i] != 'a' || !text.substr(i).starts_with("array") ||
            (i > 0 && isIdentifierChar(text[i - 1])))
          return false;
        size_t open = skipTrivia(text, i + 5);
        if (open >= text.size() || text[open] != '<' ||
            !isIndexType(text, skipTrivia(text, open + 1), aliases))
          return false;
        hazard = {line, column,
                  "a dense array of 'index' elements is not a valid "
                  "attribute (array<i64: ...> is); amp's tools refuse it, "
                  "on which MLIR's parser would crash"};
        return true;
      });
  if (found)
    return hazard;
  return std::nullopt;
}
