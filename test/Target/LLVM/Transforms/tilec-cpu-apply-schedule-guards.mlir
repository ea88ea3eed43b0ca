// RUN: tilec-opt %s -tilec-cpu-apply-schedule="prefetch-min-bytes=0" | FileCheck %s
// RUN: tilec-opt %s -tilec-cpu-apply-schedule | FileCheck %s --check-prefix=SMALL
//
// A padded convolution along one axis (x, taps kx, channels ci, outputs co
// in 16-lane vectors), four points of x per micro-kernel: the guard of the
// padding differs between the points.

// The filter, read inside the guard, is packed per lane tile all the same
// (into its place among the four tiles' panels: it is an argument), with
// room after them for the 32 rows of 16 lanes the first pass prefetches
// ahead (4 * 96 * 16 + 32 * 16 floats).
// CHECK-DAG:   #[[$AHEAD_32_ROWS:.*]] = affine_map<(d0) -> (d0 + 512)>
// CHECK-DAG:   #[[$FIRST:.*]] = affine_set<(d0) : (d0 == 0)>
// CHECK-LABEL: func.func @conv_row
// By default a filter under 1 MiB is not prefetched: no second view, no
// copy of the micro-kernel, a buffer without room past its panels.
// SMALL-LABEL: func.func @conv_row
// SMALL:         memref.alloc() {tilec.packed_argument = 1 : i64} : memref<6144xf32>
// SMALL-NOT:     affine.prefetch
// SMALL-LABEL: func.func @conv_row_two_vectors
// CHECK:         %[[PANEL:.*]] = memref.alloc() {tilec.packed_argument = 1 : i64} : memref<6656xf32>
// CHECK:         affine.for %[[CO:.*]] = 0 to 64 step 16 {
// CHECK:           %[[AT:.*]] = affine.apply
// CHECK:           %[[VIEW:.*]] = memref.reinterpret_cast %[[PANEL]] to offset: [%[[AT]]]
// CHECK:           %[[AHEAD_AT:.*]] = affine.apply #[[$AHEAD_32_ROWS]](%[[AT]])
// CHECK:           %[[AHEAD:.*]] = memref.reinterpret_cast %[[PANEL]] to offset: [%[[AHEAD_AT]]]
// The first pass over the rows (x = 0) prefetches the panel 32 rows ahead,
// once per channel.
// CHECK:           affine.for %[[X:.*]] = 0 to 8 step 4 {
// CHECK:             affine.if #[[$FIRST]](%[[X]]) {
// Every point inside: the four jammed, the filter loaded once per channel.
// CHECK:             affine.if #[[ALL:.*]](%[[X]], %[[KX:.*]], %{{.*}}, %{{.*}}, %{{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK:               affine.for %[[CI:.*]] = 0 to 32 iter_args
// CHECK:                 affine.prefetch %[[AHEAD]][%[[KX]], %[[CI]], %{{.*}}], read, locality<2>, data
// CHECK-NOT:             affine.prefetch
// CHECK:                 affine.vector_load %[[VIEW]][%[[KX]], %[[CI]]
// CHECK-NOT:             affine.prefetch
// CHECK:                 affine.yield
// All but the first point inside (the left edge): the other three jammed,
// the first, which must be outside, not computed nor tested.
// CHECK:             } else {
// CHECK:               affine.if #[[BUT_FIRST:.*]](%{{.*}}, %[[KX]], %{{.*}}, %{{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK:                 affine.for %{{.*}} = 0 to 32 iter_args
// CHECK-NOT:               affine.if
// CHECK-COUNT-3:           affine.vector_load %[[VIEW]]
// CHECK-NOT:               affine.if
// All but the last point inside (the right edge).
// CHECK:               } else {
// CHECK:                 affine.if #[[BUT_LAST:.*]](%[[X]], %[[KX]], %{{.*}}, %{{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK:                   affine.for %{{.*}} = 0 to 32 iter_args
// CHECK-NOT:                 affine.if
// CHECK-COUNT-3:             affine.vector_load %[[VIEW]]
// CHECK-NOT:                 affine.if
// Otherwise each point alone.
// CHECK:                 } else {
// CHECK:                   affine.for %{{.*}} = 0 to 32 iter_args
// CHECK-COUNT-4:             affine.if #[[ONE:.*]](
// Each point alone prefetches on its own; after the last, the other
// passes: the same micro-kernel again, without prefetches (their panel is
// in L2).
// CHECK:                     affine.prefetch %[[AHEAD]]
// CHECK-NOT:           affine.prefetch
// CHECK:               affine.if #[[ALL]](%[[X]]
// CHECK-NOT:           affine.prefetch
// CHECK:         memref.dealloc %[[PANEL]] : memref<6656xf32>
#edge = affine_set<(x, kx) : (x + kx - 1 >= 0, -(x + kx - 1) + 7 >= 0)>
func.func @conv_row(%I: memref<8x32xf32>, %F: memref<3x32x64xf32>, %O: memref<8x64xf32>) {
  affine.for %x = 0 to 8 {
    affine.for %co = 0 to 64 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %kx = 0 to 3 iter_args(%a0 = %zero) -> (f32) {
        %t = affine.for %ci = 0 to 32 iter_args(%a1 = %a0) -> (f32) {
          %r = affine.if #edge(%x, %kx) -> f32 {
            %i = affine.load %I[%x + %kx - 1, %ci] : memref<8x32xf32>
            %f = affine.load %F[%kx, %ci, %co] : memref<3x32x64xf32>
            %p = arith.mulf %i, %f : f32
            %n = arith.addf %a1, %p : f32
            affine.yield %n : f32
          } else {
            affine.yield %a1 : f32
          }
          affine.yield %r : f32
        }
        affine.yield %t : f32
      }
      affine.store %s, %O[%x, %co] : memref<8x64xf32>
    }
  } {tilec.kernel = "conv_row",
     tilec.schedule = #tilec.schedule<block = [0, 16], thread = [4, 16], vector = 16, order = [1, 0]>}
  return
}

// 32 lanes, two vectors a point of x: the two vectors of the first (the
// last) x are left out together, and the other six jammed.
// CHECK-LABEL: func.func @conv_row_two_vectors
// CHECK:         affine.for %{{.*}} = 0 to 8 step 4 {
// CHECK:           affine.if #{{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK-COUNT-8:     affine.vector_load
// CHECK:           } else {
// CHECK:             affine.if
// CHECK:               affine.for %{{.*}} = 0 to 32 iter_args
// CHECK-NOT:             affine.if
// CHECK-COUNT-6:         affine.vector_load
// CHECK-NOT:             affine.if
// CHECK:             } else {
// CHECK:               affine.if
// CHECK:                 affine.for %{{.*}} = 0 to 32 iter_args
// CHECK-NOT:               affine.if
// CHECK-COUNT-6:           affine.vector_load
// CHECK-NOT:               affine.if
// CHECK:               } else {
func.func @conv_row_two_vectors(%I: memref<8x32xf32>, %F: memref<3x32x64xf32>, %O: memref<8x64xf32>) {
  affine.for %x = 0 to 8 {
    affine.for %co = 0 to 64 {
      %zero = arith.constant 0.0 : f32
      %s = affine.for %kx = 0 to 3 iter_args(%a0 = %zero) -> (f32) {
        %t = affine.for %ci = 0 to 32 iter_args(%a1 = %a0) -> (f32) {
          %r = affine.if #edge(%x, %kx) -> f32 {
            %i = affine.load %I[%x + %kx - 1, %ci] : memref<8x32xf32>
            %f = affine.load %F[%kx, %ci, %co] : memref<3x32x64xf32>
            %p = arith.mulf %i, %f : f32
            %n = arith.addf %a1, %p : f32
            affine.yield %n : f32
          } else {
            affine.yield %a1 : f32
          }
          affine.yield %r : f32
        }
        affine.yield %t : f32
      }
      affine.store %s, %O[%x, %co] : memref<8x64xf32>
    }
  } {tilec.kernel = "conv_row_two_vectors",
     tilec.schedule = #tilec.schedule<block = [0, 32], thread = [4, 32], vector = 16, order = [1, 0]>}
  return
}
