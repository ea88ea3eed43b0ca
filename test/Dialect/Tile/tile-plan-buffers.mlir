// RUN: tilec-opt %s -split-input-file -tile-plan-buffers | FileCheck %s

// %a dies after the second kernel and %c is born in the third: %c takes
// over %a's buffer. %b is alive then, so it keeps its own.
// CHECK-LABEL: func.func @reuse
// CHECK: %[[A:.+]] = memref.alloc() : memref<4xf32>
// CHECK: %[[B:.+]] = memref.alloc() : memref<4xf32>
// CHECK-NOT: memref.alloc
// CHECK: affine.store %{{.+}}, %[[A]]
// CHECK: affine.load %[[A]]
// CHECK: affine.store %{{.+}}, %[[B]]
// CHECK: affine.load %[[B]]
// CHECK: affine.store %{{.+}}, %[[A]]
// CHECK: memref.dealloc %[[A]]
// CHECK: memref.dealloc %[[B]]
// CHECK-NOT: memref.dealloc
func.func @reuse(%out: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  %one = arith.constant 1.0 : f32
  affine.for %i = 0 to 4 {
    affine.store %one, %a[%i] : memref<4xf32>
  }
  affine.for %i = 0 to 4 {
    %v = affine.load %a[%i] : memref<4xf32>
    affine.store %v, %b[%i] : memref<4xf32>
  }
  affine.for %i = 0 to 4 {
    %v = affine.load %b[%i] : memref<4xf32>
    affine.store %v, %c[%i] : memref<4xf32>
  }
  affine.for %i = 0 to 4 {
    %v = affine.load %c[%i] : memref<4xf32>
    affine.store %v, %out[%i] : memref<4xf32>
  }
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<4xf32>
  memref.dealloc %c : memref<4xf32>
  return
}

// -----

// Buffers of different types are never shared.
// CHECK-LABEL: func.func @types
// CHECK: memref.alloc() : memref<4xf32>
// CHECK: memref.alloc() : memref<4xi32>
func.func @types(%out: memref<4xi32>) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xi32>
  %z = arith.constant 0.0 : f32
  %zi = arith.constant 0 : i32
  affine.for %i = 0 to 4 {
    affine.store %z, %a[%i] : memref<4xf32>
  }
  affine.for %i = 0 to 4 {
    affine.store %zi, %b[%i] : memref<4xi32>
  }
  affine.for %i = 0 to 4 {
    %v = affine.load %b[%i] : memref<4xi32>
    affine.store %v, %out[%i] : memref<4xi32>
  }
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<4xi32>
  return
}
