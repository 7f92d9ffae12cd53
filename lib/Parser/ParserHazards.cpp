//===- ParserHazards.cpp - refuse IR on which MLIR's parser crashes -------===//

#include "amp/Parser/ParserHazards.h"

#include "amp/Parser/NestingDepth.h"

std::optional<amp::ParserHazard> amp::findParserHazard(llvm::StringRef text) {
  if (std::optional<DeepNesting> deep = findDeepNesting(text))
    return ParserHazard{deep->line, deep->column, deepNestingMessage()};
  return findIndexDenseArray(text);
}

bool amp::reportParserHazard(const llvm::MemoryBuffer &buffer,
                             llvm::raw_ostream &os) {
  std::optional<ParserHazard> hazard = findParserHazard(buffer.getBuffer());
  if (!hazard)
    return false;
  os << buffer.getBufferIdentifier() << ":" << hazard->line << ":"
     << hazard->column << ": error: " << hazard->message << "\n";
  return true;
}
