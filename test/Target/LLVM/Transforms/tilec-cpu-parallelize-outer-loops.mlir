// RUN: tilec-opt %s --pass-pipeline='builtin.module(func.func(tilec-cpu-parallelize-outer-loops))' | FileCheck %s

// The outermost loop that runs more than once and is parallel gets the
// threads; nothing inside it does.
// CHECK-LABEL: func.func @rows
// CHECK:         affine.for %{{.*}} = 0 to 1 {
// CHECK-NEXT:      affine.parallel (%{{.*}}) = (0) to (8) {
// CHECK-NEXT:        affine.for %{{.*}} = 0 to 1024 {
// CHECK-NOT:     affine.parallel
func.func @rows(%a: memref<1x8x1024xf32>, %b: memref<1x8x1024xf32>) {
  affine.for %n = 0 to 1 {
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 1024 {
        %x = affine.load %a[%n, %i, %j] : memref<1x8x1024xf32>
        affine.store %x, %b[%n, %i, %j] : memref<1x8x1024xf32>
      }
    }
  }
  return
}

// A loop carried dependence (a prefix sum along i) keeps the outer loop
// sequential; the independent inner loop gets the threads.
// CHECK-LABEL: func.func @scan
// CHECK:         affine.for %{{.*}} = 1 to 8 {
// CHECK-NEXT:      affine.parallel (%{{.*}}) = (0) to (1024) {
func.func @scan(%a: memref<8x1024xf32>) {
  affine.for %i = 1 to 8 {
    affine.for %j = 0 to 1024 {
      %prev = affine.load %a[%i - 1, %j] : memref<8x1024xf32>
      %cur = affine.load %a[%i, %j] : memref<8x1024xf32>
      %sum = arith.addf %prev, %cur : f32
      affine.store %sum, %a[%i, %j] : memref<8x1024xf32>
    }
  }
  return
}

// `tilec.parallel` is trusted without analysis: the schedule pass set it on
// the loops of a kernel's parallel band. (This loop does have a
// dependence; only the mark makes it parallel, which shows the analysis
// was skipped.)
// CHECK-LABEL: func.func @marked
// CHECK:         affine.parallel (%{{.*}}) = (1) to (4096) {
func.func @marked(%a: memref<4096xf32>) {
  affine.for %i = 1 to 4096 {
    %prev = affine.load %a[%i - 1] : memref<4096xf32>
    affine.store %prev, %a[%i] : memref<4096xf32>
  } {tilec.parallel}
  return
}

// A nest of fewer than 4096 operations runs alone: threads would cost more
// than they save. 8 x 255 x 2 stays sequential, 8 x 256 x 2 does not; an
// unknown trip count counts as large.
// CHECK-LABEL: func.func @small
// CHECK-NOT:     affine.parallel
// CHECK:         affine.for %{{.*}} = 0 to 8 {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 255 {
// CHECK:         affine.parallel (%{{.*}}) = (0) to (8) {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 256 {
// CHECK:         affine.parallel (%{{.*}}) = (0) to (symbol(%{{.*}})) {
func.func @small(%a: memref<8x256xf32>, %b: memref<8x256xf32>, %n: index) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 255 {
      %x = affine.load %a[%i, %j] : memref<8x256xf32>
      affine.store %x, %b[%i, %j] : memref<8x256xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 256 {
      %x = affine.load %a[%i, %j] : memref<8x256xf32>
      affine.store %x, %b[%i, %j] : memref<8x256xf32>
    }
  }
  affine.for %i = 0 to %n {
    %x = affine.load %a[0, 0] : memref<8x256xf32>
    affine.store %x, %b[0, 0] : memref<8x256xf32>
  } {tilec.parallel}
  return
}

// A loop that runs no times adds no work, even around one of unknown trip
// count (0 x infinity would have made the whole nest's work NaN, and kept
// it on one thread).
// CHECK-LABEL: func.func @zero_trip
// CHECK:         affine.parallel (%{{.*}}) = (0) to (8) {
func.func @zero_trip(%a: memref<8x512xf32>, %b: memref<8x512xf32>, %n: index) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 0 {
      affine.for %k = 0 to %n {
        %x = affine.load %a[%i, 0] : memref<8x512xf32>
        affine.store %x, %b[%i, 0] : memref<8x512xf32>
      }
    }
    affine.for %j = 0 to 512 {
      %x = affine.load %a[%i, %j] : memref<8x512xf32>
      affine.store %x, %b[%i, %j] : memref<8x512xf32>
    }
  }
  return
}
