// RUN: tilec-opt %s --tilec-ptx-lower-bf16-mma | FileCheck %s

// A bf16 mma.sync becomes nvvm.mma.sync on 32-bit registers: each row of
// A and B (a pair of bf16) bitcast to one i32, the accumulator's four f32
// in row order, and the result's four put back the same way.
// CHECK-LABEL: func.func @bf16(
// CHECK-SAME: %[[A:.+]]: vector<4x2xbf16>, %[[B:.+]]: vector<2x2xbf16>, %[[C:.+]]: vector<2x2xf32>)
// CHECK-DAG: %[[C0:.+]] = vector.extract %[[C]][0, 0] : f32 from vector<2x2xf32>
// CHECK-DAG: %[[C3:.+]] = vector.extract %[[C]][1, 1] : f32 from vector<2x2xf32>
// CHECK-DAG: %[[ROW0:.+]] = vector.extract %[[A]][0] : vector<2xbf16> from vector<4x2xbf16>
// CHECK-DAG: %[[BITS0:.+]] = vector.bitcast %[[ROW0]] : vector<2xbf16> to vector<1xi32>
// CHECK-DAG: %[[A0:.+]] = vector.extract %[[BITS0]][0] : i32 from vector<1xi32>
// CHECK: %[[MMA:.+]] = nvvm.mma.sync A[%[[A0]], %{{.+}}, %{{.+}}, %{{.+}}]  B[%{{.+}}, %{{.+}}]  C[%[[C0]], %{{.+}}, %{{.+}}, %[[C3]]]
// CHECK-SAME: layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>
// CHECK-SAME: multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
// CHECK-SAME: shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK: %[[D0:.+]] = llvm.extractvalue %[[MMA]][0]
// CHECK: %[[D3:.+]] = llvm.extractvalue %[[MMA]][3]
// CHECK: %[[D:.+]] = vector.from_elements %[[D0]], %{{.+}}, %{{.+}}, %[[D3]] : vector<2x2xf32>
// CHECK: return %[[D]]
// CHECK-NOT: nvgpu.mma.sync
func.func @bf16(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// f16 is left to upstream's convert-nvgpu-to-nvvm.
// CHECK-LABEL: func.func @f16(
// CHECK: nvgpu.mma.sync
// CHECK-NOT: nvvm.mma.sync
func.func @f16(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}
