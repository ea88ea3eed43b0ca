// RUN: tilec-opt %s -split-input-file '--pass-pipeline=builtin.module(gpu.module(gpu.func(tilec-gpu-infer-overflow-flags)))' | FileCheck %s

// Index arithmetic of a 16x16 work-group on an 8x8 grid: ids below 16
// and 8, so tid * 16 + bid * 256 and the loop's i + 4 cannot wrap either
// way; tid - 20 may be negative (it wraps unsigned), tid * big may
// overflow int32; an op without known ranges (a loaded value) stays as
// it is.
// CHECK-LABEL: gpu.func @k
// CHECK: arith.muli %{{.+}}, %{{.+}} overflow<nsw, nuw> : i32
// CHECK: arith.muli %{{.+}}, %{{.+}} overflow<nsw, nuw> : i32
// CHECK: arith.addi %{{.+}}, %{{.+}} overflow<nsw, nuw> : i32
// CHECK: arith.subi %{{.+}}, %{{.+}} overflow<nsw> : i32
// CHECK: arith.muli %{{.+}}, %{{.+}} overflow<nuw> : i32
// CHECK: scf.for
// CHECK:   arith.addi %{{.+}}, %{{.+}} overflow<nsw, nuw> : i32
// CHECK:   %[[V:.+]] = memref.load
// CHECK:   arith.addi %[[V]], %{{.+}} : i32
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%buf: memref<64xi32>) kernel attributes {known_block_size = array<i32: 16, 1, 1>, known_grid_size = array<i32: 8, 1, 1>} {
      %tidx = gpu.thread_id x
      %bidx = gpu.block_id x
      %tid = arith.index_cast %tidx : index to i32
      %bid = arith.index_cast %bidx : index to i32
      %c16 = arith.constant 16 : i32
      %c256 = arith.constant 256 : i32
      %c20 = arith.constant 20 : i32
      %big = arith.constant 200000000 : i32
      %a = arith.muli %tid, %c16 : i32
      %b = arith.muli %bid, %c256 : i32
      %s = arith.addi %a, %b : i32
      %d = arith.subi %tid, %c20 : i32
      %e = arith.muli %tid, %big : i32
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c1 = arith.constant 1 : index
      %c4i = arith.constant 4 : i32
      scf.for %i = %c0 to %c4 step %c1 {
        %ii = arith.index_cast %i : index to i32
        %f = arith.addi %ii, %c4i : i32
        %v = memref.load %buf[%i] : memref<64xi32>
        %g = arith.addi %v, %f : i32
        %gi = arith.index_cast %s : i32 to index
        memref.store %g, %buf[%gi] : memref<64xi32>
        memref.store %d, %buf[%c0] : memref<64xi32>
        memref.store %e, %buf[%c1] : memref<64xi32>
      }
      gpu.return
    }
  }
}
