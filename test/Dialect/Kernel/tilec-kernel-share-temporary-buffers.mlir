// RUN: tilec-opt %s -split-input-file -tilec-kernel-share-temporary-buffers | FileCheck %s

// A chain of four kernels through three temporaries of different types and
// sizes. %a (64 bytes) and %b (128 bytes) are alive together in the second
// kernel, %b and %c in the third; %a and %c never are. Largest first: %b
// opens a slot of 128 bytes, %a one of 64, and %c (i32, 40 bytes, rounded
// up to 64) joins %a's.
// CHECK-LABEL: func.func @chain
// CHECK-DAG: %[[S0:.+]] = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// CHECK-DAG: %[[S1:.+]] = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
// CHECK-DAG: %[[Z:.+]] = arith.constant 0 : index
// CHECK: %[[A:.+]] = memref.view %[[S1]][%[[Z]]][] : memref<64xi8> to memref<16xf32>
// CHECK: %[[B:.+]] = memref.view %[[S0]][%[[Z]]][] : memref<128xi8> to memref<2x16xf32>
// CHECK: %[[C:.+]] = memref.view %[[S1]][%[[Z]]][] : memref<64xi8> to memref<10xi32>
// CHECK-NOT: memref.alloc
// CHECK: affine.store %{{.+}}, %[[A]]
// CHECK: affine.store %{{.+}}, %[[B]]
// CHECK: affine.store %{{.+}}, %[[C]]
// CHECK: affine.store %{{.+}}, %arg0
// CHECK-NOT: memref.dealloc %[[A]]
// CHECK-DAG: memref.dealloc %[[S0]] : memref<128xi8>
// CHECK-DAG: memref.dealloc %[[S1]] : memref<64xi8>
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @chain(%out: memref<10xi32>) {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<2x16xf32>
  %c = memref.alloc() : memref<10xi32>
  %one = arith.constant 1.0 : f32
  affine.for %i = 0 to 16 {
    affine.store %one, %a[%i] : memref<16xf32>
  } {tilec.kernel = "k0"}
  affine.for %i = 0 to 16 {
    %v = affine.load %a[%i] : memref<16xf32>
    affine.store %v, %b[0, %i] : memref<2x16xf32>
    affine.store %v, %b[1, %i] : memref<2x16xf32>
  } {tilec.kernel = "k1"}
  affine.for %i = 0 to 10 {
    %v = affine.load %b[1, %i] : memref<2x16xf32>
    %w = arith.fptosi %v : f32 to i32
    affine.store %w, %c[%i] : memref<10xi32>
  } {tilec.kernel = "k2"}
  affine.for %i = 0 to 10 {
    %v = affine.load %c[%i] : memref<10xi32>
    affine.store %v, %out[%i] : memref<10xi32>
  } {tilec.kernel = "k3"}
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<2x16xf32>
  memref.dealloc %c : memref<10xi32>
  return
}

// -----

// Temporaries passed to outlined kernels (func.call at the top level) are
// planned the same way: %x dies in the first call and %y is born in the
// second, so both take one slot.
// CHECK-LABEL: func.func @calls
// CHECK: %[[S:.+]] = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
// CHECK-NOT: memref.alloc()
// CHECK: %[[X:.+]] = memref.view %[[S]]
// CHECK: %[[Y:.+]] = memref.view %[[S]]
// CHECK: call @fill(%[[X]])
// CHECK: call @copy(%[[X]], %arg0)
// CHECK: call @fill(%[[Y]])
// CHECK: call @copy(%[[Y]], %arg1)
// CHECK: memref.dealloc %[[S]]
func.func private @fill(memref<4xf32>)
func.func private @copy(memref<4xf32>, memref<4xf32>)
func.func @calls(%o0: memref<4xf32>, %o1: memref<4xf32>) {
  %x = memref.alloc() : memref<4xf32>
  %y = memref.alloc() : memref<4xf32>
  call @fill(%x) : (memref<4xf32>) -> ()
  call @copy(%x, %o0) : (memref<4xf32>, memref<4xf32>) -> ()
  call @fill(%y) : (memref<4xf32>) -> ()
  call @copy(%y, %o1) : (memref<4xf32>, memref<4xf32>) -> ()
  memref.dealloc %x : memref<4xf32>
  memref.dealloc %y : memref<4xf32>
  return
}

// -----

// What is no temporary is left alone: a returned buffer, one aliased at the
// top level, and one of a dynamic shape.
// CHECK-LABEL: func.func @escapes
// CHECK: %[[R:.+]] = memref.alloc() : memref<4xf32>
// CHECK: %[[V:.+]] = memref.alloc() : memref<2x2xf32>
// CHECK: memref.collapse_shape %[[V]]
// CHECK: %[[D:.+]] = memref.alloc(%arg0) : memref<?xf32>
// CHECK-NOT: memref.view
// CHECK: return %[[R]]
func.func @escapes(%n: index) -> (memref<4xf32>, memref<4xf32>) {
  %r = memref.alloc() : memref<4xf32>
  %v = memref.alloc() : memref<2x2xf32>
  %flat = memref.collapse_shape %v [[0, 1]] : memref<2x2xf32> into memref<4xf32>
  %d = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %d : memref<?xf32>
  return %r, %flat : memref<4xf32>, memref<4xf32>
}

// -----

// A function without temporaries is unchanged.
// CHECK-LABEL: func.func @none
// CHECK-NEXT: return
func.func @none(%a: memref<4xf32>) {
  return
}
