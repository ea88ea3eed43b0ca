// RUN: tilec-opt %s -split-input-file -tilec-kernel-reuse-temporary-buffers | FileCheck %s

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

// -----

// %a is read through a view made at the top level, after the kernel that
// writes %c: %a lives until the last kernel, so %c keeps its own buffer.
// CHECK-LABEL: func.func @alias
// CHECK: %[[A:.+]] = memref.alloc() : memref<2x2xf32>
// CHECK: %[[C:.+]] = memref.alloc() : memref<2x2xf32>
// CHECK: affine.store %{{.+}}, %[[C]]
func.func @alias(%out: memref<4xf32>) {
  %a = memref.alloc() : memref<2x2xf32>
  %c = memref.alloc() : memref<2x2xf32>
  %one = arith.constant 1.0 : f32
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 2 {
      affine.store %one, %a[%i, %j] : memref<2x2xf32>
    }
  }
  %flat = memref.collapse_shape %a [[0, 1]] : memref<2x2xf32> into memref<4xf32>
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 2 {
      affine.store %one, %c[%i, %j] : memref<2x2xf32>
    }
  }
  affine.for %i = 0 to 4 {
    %v = affine.load %flat[%i] : memref<4xf32>
    affine.store %v, %out[%i] : memref<4xf32>
  }
  memref.dealloc %a : memref<2x2xf32>
  memref.dealloc %c : memref<2x2xf32>
  return
}

// -----

// Two buffers of one dynamic type may differ in size: neither takes over
// the other.
// CHECK-LABEL: func.func @dynamic
// CHECK: memref.alloc(%{{.+}}) : memref<?xf32>
// CHECK: memref.alloc(%{{.+}}) : memref<?xf32>
func.func @dynamic(%out: memref<8xf32>) {
  %four = arith.constant 4 : index
  %eight = arith.constant 8 : index
  %a = memref.alloc(%four) : memref<?xf32>
  %b = memref.alloc(%eight) : memref<?xf32>
  %one = arith.constant 1.0 : f32
  affine.for %i = 0 to 4 {
    affine.store %one, %a[%i] : memref<?xf32>
  }
  affine.for %i = 0 to 8 {
    affine.store %one, %b[%i] : memref<?xf32>
  }
  affine.for %i = 0 to 8 {
    %v = affine.load %b[%i] : memref<?xf32>
    affine.store %v, %out[%i] : memref<8xf32>
  }
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return
}
