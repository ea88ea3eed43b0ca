//===- MLIRGen.cpp - The typed program as tile dialect IR ------*- C++ -*-===//
//
// The entry function, element types and source locations. Statements are in
// StatementGen.cpp, contractions in ContractionGen.cpp.
//
//===----------------------------------------------------------------------===//

#include "tilec/MLIRGen/MLIRGen.h"
#include "MLIRGenImpl.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::mlirgen;

Location Generator::locationOf(llvm::SMLoc loc) {
  if (!loc.isValid())
    return functionLoc;
  unsigned bufferId = sourceMgr.FindBufferContainingLoc(loc);
  if (bufferId == 0)
    return functionLoc;
  auto [line, column] = sourceMgr.getLineAndColumn(loc, bufferId);
  StringRef file = sourceMgr.getMemoryBuffer(bufferId)->getBufferIdentifier();
  return FileLineColLoc::get(builder.getContext(), file, line, column);
}

Location Generator::namedLocation(llvm::SMLoc loc, StringRef name) {
  if (name.empty())
    return locationOf(loc);
  return NameLoc::get(builder.getStringAttr(name), locationOf(loc));
}

Type Generator::elementType(DType dtype) {
  MLIRContext *context = builder.getContext();
  auto signedInt = [&](unsigned bits) {
    return IntegerType::get(context, bits, IntegerType::Signed);
  };
  auto unsignedInt = [&](unsigned bits) {
    return IntegerType::get(context, bits, IntegerType::Unsigned);
  };
  switch (dtype) {
  case DType::Bool:
    return builder.getI1Type();
  case DType::I8:
  case DType::I16:
  case DType::I32:
  case DType::I64:
    return signedInt(dtypeBits(dtype));
  case DType::U8:
  case DType::U16:
  case DType::U32:
  case DType::U64:
    return unsignedInt(dtypeBits(dtype));
  case DType::F16:
    return builder.getF16Type();
  case DType::BF16:
    return builder.getBF16Type();
  case DType::F32:
    return builder.getF32Type();
  case DType::F64:
    return builder.getF64Type();
  }
  return builder.getF32Type();
}

RankedTensorType Generator::tensorType(const TensorType &type) {
  return RankedTensorType::get(type.shape, elementType(type.dtype));
}

/// An ArrayAttr of the names of `ids`.
static ArrayAttr namesOf(Builder &builder, const typed::Program &program,
                         ArrayRef<typed::ValueId> ids) {
  SmallVector<Attribute> names;
  for (typed::ValueId id : ids)
    names.push_back(builder.getStringAttr(program.value(id).name));
  return builder.getArrayAttr(names);
}

OwningOpRef<ModuleOp> tilec::genModule(MLIRContext &context,
                                       const typed::Program &program,
                                       const llvm::SourceMgr &sourceMgr) {
  // The kernel dialect too: every later level puts its attributes on the IR.
  context.loadDialect<tile::TileDialect, func::FuncDialect,
                      tilec::kernel::KernelDialect>();
  Generator gen(context, program, sourceMgr);
  OpBuilder &builder = gen.builder;

  SMLoc headerLoc;
  if (!program.inputs.empty())
    headerLoc = program.value(program.inputs.front()).loc;
  else if (!program.statements.empty())
    headerLoc = program.statements.front().loc;
  gen.functionLoc = gen.locationOf(headerLoc);
  OwningOpRef<ModuleOp> module = ModuleOp::create(gen.functionLoc);

  SmallVector<Type> inputTypes, outputTypes;
  for (typed::ValueId id : program.inputs)
    inputTypes.push_back(gen.tensorType(program.value(id).type));
  for (typed::ValueId id : program.outputs)
    outputTypes.push_back(gen.tensorType(program.value(id).type));

  builder.setInsertionPointToEnd(module->getBody());
  std::string name = program.entryName.empty() ? "main" : program.entryName;
  auto function =
      func::FuncOp::create(builder, gen.functionLoc, name,
                           builder.getFunctionType(inputTypes, outputTypes));
  tilec::kernel::InputNames(&context).setAttr(
      function, namesOf(builder, program, program.inputs));
  tilec::kernel::OutputNames(&context).setAttr(
      function, namesOf(builder, program, program.outputs));

  Block *body = function.addEntryBlock();
  for (auto [id, argument] : llvm::zip(program.inputs, body->getArguments())) {
    const typed::Value &value = program.value(id);
    argument.setLoc(gen.namedLocation(value.loc, value.name));
    gen.values[id] = argument;
  }
  builder.setInsertionPointToEnd(body);
  if (!gen.genStatements())
    return nullptr;

  SmallVector<Value> results;
  for (typed::ValueId id : program.outputs)
    results.push_back(gen.values[id]);
  func::ReturnOp::create(builder, gen.functionLoc, results);
  return module;
}
