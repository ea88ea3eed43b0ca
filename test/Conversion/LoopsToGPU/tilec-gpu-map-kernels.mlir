// RUN: tilec-opt %s -split-input-file -tilec-gpu-map-kernels | FileCheck %s
// RUN: tilec-opt %s -split-input-file -tilec-gpu-map-kernels -mlir-print-debuginfo -mlir-print-local-scope | FileCheck %s --check-prefix=LOC

// One loop of 10, tiles of 4 with 2 elements per work-item: 3 work-groups
// of 2 work-items, element j at position group*4 + item + j*2, and a guard
// since 4 does not divide 10. The kernel keeps the nest's attributes and
// locations; the host launches it in place with constant sizes.
// CHECK-LABEL: func.func @scale
// CHECK-SAME: (%[[A:.+]]: memref<10xf32>, %[[B:.+]]: memref<10xf32>)
// CHECK-DAG: %[[G:.+]] = arith.constant 3 : index
// CHECK-DAG: %[[W:.+]] = arith.constant 2 : index
// CHECK: gpu.launch_func @tilec_kernels::@mul_0_B_2 blocks in (%[[G]], %{{.+}}, %{{.+}}) threads in (%[[W]], %{{.+}}, %{{.+}}) args(%[[A]] : memref<10xf32>, %[[B]] : memref<10xf32>)
// CHECK-NOT: affine.
// CHECK: gpu.module @tilec_kernels
// CHECK: gpu.func @mul_0_B_2(%[[KA:.+]]: memref<10xf32>, %[[KB:.+]]: memref<10xf32>) kernel
// CHECK-SAME: known_block_size = array<i32: 2, 1, 1>, known_grid_size = array<i32: 3, 1, 1>
// CHECK-SAME: tilec.fingerprint = "00ff", tilec.kernel = "mul_0.B.2"
// CHECK-SAME: tilec.schedule = #tilec.schedule<block = [4], thread = [2]>
// CHECK: %[[GROUP:.+]] = gpu.block_id x
// CHECK: %[[START:.+]] = arith.muli %[[GROUP]], %{{.+}} : index
// CHECK: %[[ITEM:.+]] = gpu.thread_id x
// CHECK: %[[FIRST:.+]] = arith.addi %[[START]], %[[ITEM]] : index
// CHECK: scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step
// CHECK: %[[OFF:.+]] = arith.muli %[[J]], %{{.+}} : index
// CHECK: %[[POS:.+]] = arith.addi %[[FIRST]], %[[OFF]] : index
// CHECK: %[[IN:.+]] = arith.cmpi ult, %[[POS]], %{{.+}} : index
// CHECK: scf.if %[[IN]] {
// CHECK: %[[X:.+]] = memref.load %[[KA]][%[[POS]]] : memref<10xf32>
// CHECK: arith.mulf %[[X]], %[[X]] : f32
// LOC: arith.mulf %{{.+}}, %{{.+}} : f32 loc("scale.tile":3:7)
// CHECK: memref.store %{{.+}}, %[[KB]][%[[POS]]]
// CHECK: gpu.return
func.func @scale(%a: memref<10xf32>, %b: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    %x = affine.load %a[%i] : memref<10xf32>
    %y = arith.mulf %x, %x : f32 loc("scale.tile":3:7)
    affine.store %y, %b[%i] : memref<10xf32>
  } {tilec.kernel = "mul_0.B.2", tilec.fingerprint = "00ff",
     tilec.schedule = #tilec.schedule<block = [4], thread = [2]>}
  return
}

// -----

// Loops that divide their tiles need no guard; the reduction stays inside
// the work-item; the outermost of three parallel loops goes to z. A nest
// that writes one cell on every iteration runs as one work-item, its loops
// as they were. Kernel names are made unique C identifiers, in launch order.
// CHECK-LABEL: func.func @nests
// CHECK: gpu.launch_func @tilec_kernels::@k_0_sum
// CHECK: gpu.launch_func @tilec_kernels::@k_0_sum_0
// CHECK: gpu.func @k_0_sum(
// CHECK-SAME: known_block_size = array<i32: 8, 2, 2>, known_grid_size = array<i32: 1, 2, 1>
// CHECK-DAG: gpu.block_id z
// CHECK-DAG: gpu.block_id y
// CHECK-DAG: gpu.block_id x
// CHECK-NOT: scf.if
// CHECK: scf.for {{.*}} iter_args
// CHECK: gpu.return
// CHECK: gpu.func @k_0_sum_0(
// CHECK-SAME: known_block_size = array<i32: 1, 1, 1>, known_grid_size = array<i32: 1, 1, 1>
// CHECK-NOT: gpu.block_id
// CHECK: scf.for
// CHECK: memref.store
// CHECK: gpu.return
func.func @nests(%a: memref<2x4x8x5xf32>, %b: memref<2x4x8xf32>, %t: memref<1xf32>) {
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 4 {
      affine.for %k = 0 to 8 {
        %zero = arith.constant 0.0 : f32
        %s = affine.for %r = 0 to 5 iter_args(%acc = %zero) -> (f32) {
          %x = affine.load %a[%i, %j, %k, %r] : memref<2x4x8x5xf32>
          %n = arith.addf %acc, %x : f32
          affine.yield %n : f32
        }
        affine.store %s, %b[%i, %j, %k] : memref<2x4x8xf32>
      }
    }
  } {tilec.kernel = "0.sum", tilec.schedule = #tilec.schedule<block = [2, 2, 8]>}
  affine.for %i = 0 to 2 {
    %x = affine.load %b[%i, 0, 0] : memref<2x4x8xf32>
    %o = affine.load %t[0] : memref<1xf32>
    %y = arith.addf %x, %o : f32
    affine.store %y, %t[0] : memref<1xf32>
  } {tilec.kernel = "0.sum", tilec.schedule = #tilec.schedule<>}
  return
}

// -----

// Four parallel loops: x and y take the inner two, z the outer two
// flattened (2*3 work-groups, one point each, split by division). A
// gather's data-dependent load reads a memref the nest does not write, so
// the loops stay parallel; constants from outside are cloned in and a
// constant buffer becomes a kernel argument.
// CHECK-LABEL: func.func @gather
// CHECK: %[[IDX:.+]] = memref.get_global @indices
// CHECK: gpu.launch_func @tilec_kernels::@gather_0 blocks in (%{{.+}}, %{{.+}}, %[[Z:.+]]) threads
// CHECK-SAME: args(%[[IDX]] : memref<2x3x4x4xi32>
// CHECK: gpu.func @gather_0(
// CHECK-SAME: known_grid_size = array<i32: 1, 1, 6>
// CHECK: %[[C7:.+]] = arith.constant 7 : index
// CHECK: %[[LIN:.+]] = gpu.block_id z
// CHECK: arith.remui %[[LIN]]
// CHECK: arith.divui %[[LIN]]
// CHECK: memref.load
// CHECK: arith.index_cast
// CHECK: arith.addi %{{.+}}, %[[C7]]
memref.global "private" constant @indices : memref<2x3x4x4xi32> = dense<1>
func.func @gather(%a: memref<16xf32>, %o: memref<2x3x4x4xf32>) {
  %idx = memref.get_global @indices : memref<2x3x4x4xi32>
  %seven = arith.constant 7 : index
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 3 {
      affine.for %k = 0 to 4 {
        affine.for %l = 0 to 4 {
          %n = affine.load %idx[%i, %j, %k, %l] : memref<2x3x4x4xi32>
          %c = arith.index_cast %n : i32 to index
          %p = arith.addi %c, %seven : index
          %x = memref.load %a[%p] : memref<16xf32>
          affine.store %x, %o[%i, %j, %k, %l] : memref<2x3x4x4xf32>
        }
      }
    }
  } {tilec.kernel = "gather_0", tilec.schedule = #tilec.schedule<block = [1, 1, 4, 4]>}
  return
}

// -----

// unroll = 2 on a reduction of 5 iterations: two steps per iteration of the
// main loop, then the last one.
// CHECK-LABEL: gpu.func @unrolled
// CHECK: scf.for {{.*}} iter_args
// CHECK-COUNT-2: arith.addf
// CHECK: scf.yield
// CHECK: arith.addf
// CHECK: memref.store
func.func @unroll(%a: memref<4x5xf32>, %b: memref<4xf32>) {
  affine.for %i = 0 to 4 {
    %zero = arith.constant 0.0 : f32
    %s = affine.for %k = 0 to 5 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%i, %k] : memref<4x5xf32>
      %n = arith.addf %acc, %x : f32
      affine.yield %n : f32
    }
    affine.store %s, %b[%i] : memref<4xf32>
  } {tilec.kernel = "unrolled", tilec.schedule = #tilec.schedule<unroll = 2>}
  return
}
