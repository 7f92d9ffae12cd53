//===- ParseNamingArguments.cpp - parse, keeping argument names -----------===//
//
// Reports name params as the source does (%w1): amp-grad-check's gradient
// reports and amp-run's errors about params. MLIR keeps no SSA names, so the
// parser's AsmParserState is asked where each function argument was defined,
// and the name is kept in a NameLoc around the argument's location. An
// argument whose location already is a name (`loc("ids")`, an imported
// model's input or weight name) keeps that one.
//
//===----------------------------------------------------------------------===//

#include "amp/Parser/ParseNamingArguments.h"
#include "amp/Parser/ParserHazards.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

OwningOpRef<ModuleOp>
amp::parseFileNamingArguments(StringRef filename,
                                         MLIRContext *context) {
  Location fileLoc = FileLineColLoc::get(context, filename, 0, 0);
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(filename, &error);
  if (!file) {
    emitError(fileLoc) << error;
    return nullptr;
  }
  if (std::optional<ParserHazard> hazard =
          findParserHazard(file->getBuffer())) {
    emitError(
        FileLineColLoc::get(context, filename, hazard->line, hazard->column))
        << hazard->message;
    return nullptr;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  AsmParserState state;
  Block block;
  if (failed(
          parseAsmSourceFile(sourceMgr, &block, ParserConfig(context), &state)))
    return nullptr;

  for (const AsmParserState::BlockDefinition &def : state.getBlockDefs()) {
    auto fn = dyn_cast_if_present<func::FuncOp>(def.block->getParentOp());
    if (!fn || def.block != &fn.getBody().front())
      continue;
    for (auto [arg, source] :
         llvm::zip(def.block->getArguments(), def.arguments)) {
      SMRange range = source.loc;
      if (!range.isValid() || isa<NameLoc>(arg.getLoc()))
        continue;
      StringRef name(range.Start.getPointer(),
                     range.End.getPointer() - range.Start.getPointer());
      arg.setLoc(NameLoc::get(StringAttr::get(context, name), arg.getLoc()));
    }
  }
  return detail::constructContainerOpForParserIfNecessary<ModuleOp>(
      &block, context, fileLoc);
}
