//===- LowerBF16Mma.cpp - tilec-ptx-lower-bf16-mma ------------------------===//
//
// bf16 nvgpu.mma.sync as nvvm.mma.sync, which upstream's conversion cannot
// make (Passes.td says why). A 16-bit pair is one 32-bit register of the
// instruction: row i of A (vector<4x2xbf16>) is a_i, row i of B b_i, and
// the accumulator's rows are c0, c1 and c2, c3.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/PTX/Passes.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

namespace tilec {
#define GEN_PASS_DEF_TILECPTXLOWERBF16MMAPASS
#include "tilec/Target/PTX/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// Each row of `matrix`, a vector<N x 2 x bf16>, as one i32.
SmallVector<Value> packedRows(OpBuilder &b, Location loc, Value matrix) {
  auto type = cast<VectorType>(matrix.getType());
  auto word = VectorType::get({1}, b.getI32Type());
  SmallVector<Value> rows;
  for (int64_t i = 0; i < type.getDimSize(0); ++i) {
    Value row = vector::ExtractOp::create(b, loc, matrix, i);
    Value bits = vector::BitCastOp::create(b, loc, word, row);
    rows.push_back(vector::ExtractOp::create(b, loc, bits, 0));
  }
  return rows;
}

void lowerBF16Mma(nvgpu::MmaSyncOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value accumulator = op.getMatrixC();
  SmallVector<Value> c;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 2; ++j)
      c.push_back(vector::ExtractOp::create(b, loc, accumulator,
                                            ArrayRef<int64_t>{i, j}));
  Type f32 = b.getF32Type();
  auto resultType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(4, f32));
  SmallVector<int64_t> shape = llvm::map_to_vector(
      op.getMmaShape(), [](Attribute a) { return cast<IntegerAttr>(a).getInt(); });
  auto mma = NVVM::MmaOp::create(
      b, loc, resultType, packedRows(b, loc, op.getMatrixA()),
      packedRows(b, loc, op.getMatrixB()), c, shape, std::nullopt,
      std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value> results;
  for (int64_t i = 0; i < 4; ++i)
    results.push_back(LLVM::ExtractValueOp::create(b, loc, mma, i));
  Value result = vector::FromElementsOp::create(
      b, loc, cast<VectorType>(op.getType()), results);
  op.replaceAllUsesWith(result);
  op.erase();
}

struct LowerBF16MmaPass
    : tilec::impl::TilecPTXLowerBF16MmaPassBase<LowerBF16MmaPass> {
  void runOnOperation() override {
    SmallVector<nvgpu::MmaSyncOp> bf16;
    getOperation().walk([&](nvgpu::MmaSyncOp op) {
      if (cast<VectorType>(op.getMatrixA().getType())
              .getElementType()
              .isBF16())
        bf16.push_back(op);
    });
    for (nvgpu::MmaSyncOp op : bf16)
      lowerBF16Mma(op);
  }
};

} // namespace
