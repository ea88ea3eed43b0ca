// RUN: tilec-opt %s -tilec-cpu-apply-schedule="prefetch-min-bytes=0" | FileCheck %s
//
// Schedules applied: register tiles with vector accumulators, cache tiles
// in the schedule's order, remainders, versioned and hoisted guards, and a
// kernel the pass does not know left alone.

// @gemv_long's prefetches, 32 rows of 8 lanes ahead.
// CHECK-DAG:   #[[$PLUS_256:.*]] = affine_map<(d0) -> (d0 + 256)>
// @matmul_row_tiles's first pass.
// CHECK-DAG:   #[[$AT_ZERO:.*]] = affine_set<(d0) : (d0 == 0)>

// A matmul: 3 rows x 2 vectors of 4 lanes per micro-kernel, one k loop
// carrying the 6 vector accumulators; 7 = 2 x 3 + 1 leaves a remainder row.
// CHECK-LABEL: func.func @matmul
// The lane tile loop (block 8) is outermost, by `order`, and B's panel for
// it (8 rows of the tile's 8 lanes) is packed: copied a vector of 4 lanes
// at a time into its place in a buffer of both tiles' panels (2 x 64),
// which a view of B's shape (rows 8 apart, lane n at n - NB) reads. B is
// an argument: the buffer comes before the kernel, and the copy runs where
// the flag holds (tilec-cpu-keep-packed-inputs makes both arguments).
// CHECK:       %[[BUFFER:.*]] = memref.alloc() {tilec.packed_argument = 1 : i64} : memref<128xf32>
// CHECK-NEXT:  %[[REPACK:.*]] = arith.constant {tilec.repack_argument = 1 : i64} true
// CHECK-NEXT:  affine.for %[[NB:.*]] = 0 to 16 step 8 {
// CHECK-NEXT:    %[[OFFSET:.*]] = affine.apply #{{.*}}(%[[NB]])
// CHECK-NEXT:    %[[PANEL:.*]] = memref.reinterpret_cast %[[BUFFER]] to offset: [%[[OFFSET]]], sizes: [8, 16], strides: [8, 1] : memref<128xf32> to memref<8x16xf32, strided<[8, 1], offset: ?>>
// CHECK-NEXT:    scf.if %[[REPACK]] {
// CHECK-NEXT:      affine.for %[[K:.*]] = 0 to 8 {
// CHECK-NEXT:        affine.for %[[L:.*]] = #{{.*}}(%[[NB]]) to min #{{.*}}(%[[NB]]) step 4 {
// CHECK-NEXT:          %[[E:.*]] = affine.vector_load %arg1[%[[K]], %[[L]]] : memref<8x16xf32>, vector<4xf32>
// CHECK-NEXT:          affine.vector_store %[[E]], %[[PANEL]][%[[K]], %[[L]]]
// CHECK:         affine.for %[[M:.*]] = 0 to 6 step 3 {
// CHECK:           affine.for %[[N:.*]] = #{{.*}}(%[[NB]]) to min #{{.*}}(%[[NB]]) step 8 {
// CHECK:             affine.for %{{.*}} = 0 to 8 iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
// CHECK-COUNT-6:       affine.load %arg0
// CHECK-COUNT-6:       affine.vector_load %[[PANEL]]{{.*}} vector<4xf32>
// CHECK-COUNT-6:       arith.mulf {{.*}} : vector<4xf32>
// CHECK-COUNT-6:       arith.addf {{.*}} : vector<4xf32>
// CHECK:             affine.vector_store %{{.*}}#0, %arg2[%[[M]], %[[N]]]
// CHECK-COUNT-5:     affine.vector_store
// CHECK-NOT:     memref.dealloc
// CHECK:       } {tilec.fingerprint = "1", tilec.kernel = "contract_0_C", tilec.parallel}
// The remainder row (not cache-tiled): one point along m, both vectors
// along n, reading B itself.
// CHECK-NEXT:  affine.for %{{.*}} = 6 to 7 {
// CHECK:         iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>)
// CHECK:         affine.vector_load %arg1
// CHECK:       } {tilec.fingerprint = "1", tilec.kernel = "contract_0_C", tilec.parallel}
// The buffer is freed after the kernel.
// CHECK-NEXT:  memref.dealloc %[[BUFFER]] : memref<128xf32>
// CHECK-NOT:   tilec.schedule
func.func @matmul(%A: memref<7x8xf32>, %B: memref<8x16xf32>, %C: memref<7x16xf32>) {
  affine.for %m = 0 to 7 {
    affine.for %n = 0 to 16 {
      %zero = arith.constant 0.000000e+00 : f32
      %sum = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
        %a = affine.load %A[%m, %k] : memref<7x8xf32>
        %b = affine.load %B[%k, %n] : memref<8x16xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %sum, %C[%m, %n] : memref<7x16xf32>
    }
  } {tilec.kernel = "contract_0_C", tilec.fingerprint = "1",
     tilec.schedule = #tilec.schedule<block = [0, 8], thread = [3, 8], vector = 4, order = [1, 0]>}
  return
}

// A matrix-vector product: one row meets each panel, so packing pays only
// where it is kept across runs, for an argument that every call passes a
// program input as (tilec.program_input, set by tilec-cpu-outline-kernels).
// Its 8 rows are too few to prefetch ahead.
// CHECK-LABEL: func.func @gemv(
// CHECK:       memref.alloc() {tilec.packed_argument = 1 : i64} : memref<128xf32>
// CHECK-NOT:   affine.prefetch
// CHECK:       affine.vector_load %{{.*}} : memref<8x16xf32, strided<[8, 1], offset: ?>>, vector<4xf32>
// CHECK-NOT:   affine.prefetch
func.func @gemv(%A: memref<1x8xf32>, %B: memref<8x16xf32> {tilec.program_input}, %C: memref<1x16xf32>) {
  affine.for %m = 0 to 1 {
    affine.for %n = 0 to 16 {
      %zero = arith.constant 0.000000e+00 : f32
      %sum = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
        %a = affine.load %A[%m, %k] : memref<1x8xf32>
        %b = affine.load %B[%k, %n] : memref<8x16xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %sum, %C[%m, %n] : memref<1x16xf32>
    }
  } {tilec.kernel = "contract_0_C", tilec.fingerprint = "1",
     tilec.schedule = #tilec.schedule<block = [0, 8], thread = [1, 8], vector = 4, order = [1, 0]>}
  return
}

// With 128 rows, the panels are prefetched 32 rows (256 floats) ahead, on
// the one pass over the rows there is (no affine.if), from a buffer with
// room for 32 rows past the second tile's panel: (2 * 128 + 32) * 8.
// CHECK-LABEL: func.func @gemv_long(
// CHECK:       %[[KEPT:.*]] = memref.alloc() {tilec.packed_argument = 1 : i64} : memref<2304xf32>
// CHECK:       affine.for %[[TILE:.*]] = 0 to 16 step 8 {
// CHECK:         %[[AT:.*]] = affine.apply #{{.*}}(%[[TILE]])
// CHECK:         %[[VIEW:.*]] = memref.reinterpret_cast %[[KEPT]] to offset: [%[[AT]]]
// CHECK:         %[[AHEAD_AT:.*]] = affine.apply #[[$PLUS_256]](%[[AT]])
// CHECK:         %[[AHEAD:.*]] = memref.reinterpret_cast %[[KEPT]] to offset: [%[[AHEAD_AT]]]
// CHECK-NOT:     affine.if
// CHECK:         affine.for %[[K:.*]] = 0 to 128 iter_args
// CHECK-COUNT-2:   affine.prefetch %[[AHEAD]][%[[K]], %{{.*}}], read, locality<2>, data
// CHECK-NOT:       affine.prefetch
// CHECK:         affine.yield
func.func @gemv_long(%A: memref<1x128xf32>, %B: memref<128x16xf32> {tilec.program_input}, %C: memref<1x16xf32>) {
  affine.for %m = 0 to 1 {
    affine.for %n = 0 to 16 {
      %zero = arith.constant 0.000000e+00 : f32
      %sum = affine.for %k = 0 to 128 iter_args(%acc = %zero) -> (f32) {
        %a = affine.load %A[%m, %k] : memref<1x128xf32>
        %b = affine.load %B[%k, %n] : memref<128x16xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %sum, %C[%m, %n] : memref<1x16xf32>
    }
  } {tilec.kernel = "contract_0_C", tilec.fingerprint = "1",
     tilec.schedule = #tilec.schedule<block = [0, 8], thread = [1, 8], vector = 4, order = [1, 0]>}
  return
}

// Rows cache-tiled by 4 inside the lane tile, 2 per pass: the first pass
// of the lane tile is the one at row 0, not the first of each row tile
// (whose panel is already in L2).
// CHECK-LABEL: func.func @matmul_row_tiles(
// CHECK:       memref.alloc() {tilec.packed_argument = 1 : i64} : memref<4608xf32>
// CHECK:       affine.for %[[LANES:.*]] = 0 to 32 step 16 {
// CHECK:         %[[AHEAD:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [128, 32]
// CHECK:         affine.for %[[ROWS:.*]] = 0 to 8 step 4 {
// CHECK-NEXT:      affine.for %[[M:.*]] = #{{.*}}(%[[ROWS]]) to min #{{.*}}(%[[ROWS]]) step 2 {
// CHECK-NEXT:        affine.for %{{.*}} = #{{.*}}(%[[LANES]]) to min #{{.*}}(%[[LANES]]) step 16 {
// CHECK:               affine.if #[[$AT_ZERO]](%[[M]]) {
// CHECK:                 affine.prefetch %[[AHEAD]]
// CHECK:               } else {
// CHECK-NOT:             affine.prefetch
// CHECK:             } {tilec.parallel}
func.func @matmul_row_tiles(%A: memref<8x128xf32>, %B: memref<128x32xf32> {tilec.program_input}, %C: memref<8x32xf32>) {
  affine.for %m = 0 to 8 {
    affine.for %n = 0 to 32 {
      %zero = arith.constant 0.000000e+00 : f32
      %sum = affine.for %k = 0 to 128 iter_args(%acc = %zero) -> (f32) {
        %a = affine.load %A[%m, %k] : memref<8x128xf32>
        %b = affine.load %B[%k, %n] : memref<128x32xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %sum, %C[%m, %n] : memref<8x32xf32>
    }
  } {tilec.kernel = "contract_0_C", tilec.fingerprint = "1",
     tilec.schedule = #tilec.schedule<block = [4, 16], thread = [2, 16], vector = 16, order = [1, 0]>}
  return
}

// Without the mark, B is read where it is.
// CHECK-LABEL: func.func @gemv_unmarked(
// CHECK-NOT:   memref.alloc
// CHECK:       affine.vector_load %arg1
// CHECK-NOT:   memref.alloc
func.func @gemv_unmarked(%A: memref<1x8xf32>, %B: memref<8x16xf32>, %C: memref<1x16xf32>) {
  affine.for %m = 0 to 1 {
    affine.for %n = 0 to 16 {
      %zero = arith.constant 0.000000e+00 : f32
      %sum = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
        %a = affine.load %A[%m, %k] : memref<1x8xf32>
        %b = affine.load %B[%k, %n] : memref<8x16xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %sum, %C[%m, %n] : memref<1x16xf32>
    }
  } {tilec.kernel = "contract_0_C", tilec.fingerprint = "1",
     tilec.schedule = #tilec.schedule<block = [0, 8], thread = [1, 8], vector = 4, order = [1, 0]>}
  return
}

// Two rows left over (8 = 2 x 3 + 2) run as one tile of 2 rows x 2
// vectors, not a row at a time: each row alone would stream B's panel.
// CHECK-LABEL: func.func @matmul_rows_left
// CHECK:       affine.for %{{.*}} = 0 to 6 step 3 {
// CHECK:       } {tilec.fingerprint = "1", tilec.kernel = "contract_0_C", tilec.parallel}
// CHECK-NEXT:  affine.for %[[M:.*]] = 6 to 8 step 2 {
// CHECK:         affine.for %{{.*}} = 0 to 8 iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
// CHECK-COUNT-4:   affine.vector_store
// CHECK:       } {tilec.fingerprint = "1", tilec.kernel = "contract_0_C", tilec.parallel}
// CHECK-NEXT:  return
func.func @matmul_rows_left(%A: memref<8x8xf32>, %B: memref<8x16xf32>, %C: memref<8x16xf32>) {
  affine.for %m = 0 to 8 {
    affine.for %n = 0 to 16 {
      %zero = arith.constant 0.000000e+00 : f32
      %sum = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
        %a = affine.load %A[%m, %k] : memref<8x8xf32>
        %b = affine.load %B[%k, %n] : memref<8x16xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %sum, %C[%m, %n] : memref<8x16xf32>
    }
  } {tilec.kernel = "contract_0_C", tilec.fingerprint = "1",
     tilec.schedule = #tilec.schedule<block = [0, 0], thread = [3, 8], vector = 4>}
  return
}

// B a temporary of the function: its panel is a buffer of the lane tile,
// copied on every run and freed at the tile's end.
// CHECK-LABEL: func.func @matmul_of_temporary
// CHECK:       affine.for %[[NB:.*]] = 0 to 16 step 8 {
// CHECK-NEXT:    %[[BUFFER:.*]] = memref.alloc() : memref<64xf32>
// CHECK:         %[[OFFSET:.*]] = arith.subi %c0, %[[NB]] : index
// CHECK-NEXT:    %[[PANEL:.*]] = memref.reinterpret_cast %[[BUFFER]] to offset: [%[[OFFSET]]], sizes: [8, 16], strides: [8, 1] : memref<64xf32> to memref<8x16xf32, strided<[8, 1], offset: ?>>
// CHECK-NEXT:    affine.for %[[K:.*]] = 0 to 8 {
// CHECK-NEXT:      affine.for %[[L:.*]] = #{{.*}}(%[[NB]]) to min #{{.*}}(%[[NB]]) step 4 {
// CHECK-NEXT:        %[[E:.*]] = affine.vector_load %[[B:.*]][%[[K]], %[[L]]] : memref<8x16xf32>, vector<4xf32>
// CHECK-NEXT:        affine.vector_store %[[E]], %[[PANEL]][%[[K]], %[[L]]]
// CHECK:         affine.vector_load %[[PANEL]]
// CHECK:         memref.dealloc %[[BUFFER]] : memref<64xf32>
// CHECK-NEXT:  } {tilec.fingerprint = "2", tilec.kernel = "contract_0_C", tilec.parallel}
// CHECK-NOT:   tilec.packed_argument
// CHECK:       return
func.func @matmul_of_temporary(%A: memref<7x8xf32>, %C: memref<7x16xf32>) {
  %B = memref.alloc() : memref<8x16xf32>
  affine.for %m = 0 to 7 {
    affine.for %n = 0 to 16 {
      %zero = arith.constant 0.000000e+00 : f32
      %sum = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
        %a = affine.load %A[%m, %k] : memref<7x8xf32>
        %b = affine.load %B[%k, %n] : memref<8x16xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %sum, %C[%m, %n] : memref<7x16xf32>
    }
  } {tilec.kernel = "contract_0_C", tilec.fingerprint = "2",
     tilec.schedule = #tilec.schedule<block = [0, 8], thread = [3, 8], vector = 4, order = [1, 0]>}
  memref.dealloc %B : memref<8x16xf32>
  return
}

#pad = affine_set<(d0, d1, d2, d3) : (d0 + d2 - 1 >= 0, -(d0 + d2 - 1) + 7 >= 0)>

// A padded 1-D convolution: the guard depends on x, so the 2 x points are
// versioned (both inside, or each alone), and the guard is hoisted out of
// the ci loop it does not depend on.
// CHECK-LABEL: func.func @conv
// CHECK:       affine.for %[[X:.*]] = 0 to 8 step 2 {
// CHECK:         %[[X1:.*]] = affine.apply #{{.*}}(%[[X]])
// CHECK:         affine.for %{{.*}} = 0 to 3 iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>) {
// Both points inside the image: one ci loop for both, no test inside.
// CHECK-NEXT:      affine.if #[[BOTH:.*]](%[[X]], %{{.*}}, %[[X1]]) -> (vector<8xf32>, vector<8xf32>) {
// CHECK-NEXT:        affine.for %{{.*}} = 0 to 4 iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>) {
// CHECK-NOT:           affine.if
// CHECK-COUNT-2:       arith.addf {{.*}} : vector<8xf32>
// CHECK:             affine.yield
// Otherwise each point tests its own condition.
// CHECK:           } else {
// CHECK-NEXT:        affine.for %{{.*}} = 0 to 4 iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>) {
// CHECK-NEXT:          affine.if #{{.*}}(%[[X]],
// CHECK:               affine.if #{{.*}}(%[[X1]],
func.func @conv(%I: memref<8x4xf32>, %F: memref<3x4x8xf32>, %O: memref<8x8xf32>) {
  affine.for %x = 0 to 8 {
    affine.for %co = 0 to 8 {
      %zero = arith.constant 0.000000e+00 : f32
      %0 = affine.for %k = 0 to 3 iter_args(%a0 = %zero) -> (f32) {
        %1 = affine.for %ci = 0 to 4 iter_args(%a1 = %a0) -> (f32) {
          %2 = affine.if #pad(%x, %co, %k, %ci) -> f32 {
            %3 = affine.load %I[%x + %k - 1, %ci] : memref<8x4xf32>
            %4 = affine.load %F[%k, %ci, %co] : memref<3x4x8xf32>
            %5 = arith.mulf %3, %4 : f32
            %6 = arith.addf %a1, %5 : f32
            affine.yield %6 : f32
          } else {
            affine.yield %a1 : f32
          }
          affine.yield %2 : f32
        }
        affine.yield %1 : f32
      }
      affine.store %0, %O[%x, %co] : memref<8x8xf32>
    }
  } {tilec.kernel = "contract_0_O",
     tilec.schedule = #tilec.schedule<thread = [2, 8], vector = 8>}
  return
}

// Elementwise: 8 lanes per vector; 20 = 16 + 4 leaves a scalar remainder.
// CHECK-LABEL: func.func @elementwise
// CHECK:       affine.for %{{.*}} = 0 to 16 step 8 {
// CHECK-NEXT:    affine.vector_load %arg0{{.*}} vector<8xf32>
// CHECK-NEXT:    math.exp %{{.*}} : vector<8xf32>
// CHECK-NEXT:    affine.vector_load %arg1{{.*}} vector<8xf32>
// CHECK-NEXT:    arith.addf %{{.*}} : vector<8xf32>
// CHECK-NEXT:    affine.vector_store
// CHECK:       affine.for %{{.*}} = 16 to 20 {
// CHECK-NEXT:    affine.load
// CHECK-NEXT:    math.exp %{{.*}} : f32
func.func @elementwise(%A: memref<4x20xf32>, %B: memref<20xf32>, %C: memref<4x20xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 20 {
      %0 = affine.load %A[%i, %j] : memref<4x20xf32>
      %1 = math.exp %0 : f32
      %2 = affine.load %B[%j] : memref<20xf32>
      %3 = arith.addf %1, %2 : f32
      affine.store %3, %C[%i, %j] : memref<4x20xf32>
    }
  } {tilec.kernel = "add_0", tilec.schedule = #tilec.schedule<vector = 8>}
  return
}

// A gather (memref.load at a data-dependent index) is not a form the pass
// knows: left as it is, schedule included.
// CHECK-LABEL: func.func @gather
// CHECK:       memref.load
// CHECK:       } {tilec.kernel = "gather_0_C", tilec.schedule = #tilec.schedule<vector = 4>}
func.func @gather(%A: memref<10xf32>, %I: memref<6xindex>, %C: memref<6xf32>) {
  affine.for %i = 0 to 6 {
    %0 = affine.load %I[%i] : memref<6xindex>
    %1 = memref.load %A[%0] : memref<10xf32>
    affine.store %1, %C[%i] : memref<6xf32>
  } {tilec.kernel = "gather_0_C", tilec.schedule = #tilec.schedule<vector = 4>}
  return
}

// The loop level passes every enclosing IV to each access map, used or
// not: A's load names the lane IV %n without reading it, so it stays one
// scalar load per row, broadcast; B's load is a vector.
// CHECK-LABEL: func.func @unused_map_operands
// CHECK:       affine.for
// CHECK:       %[[A:.*]] = affine.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x8xf32>
// CHECK:       %[[B:.*]] = affine.vector_load %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x8xf32>, vector<8xf32>
// CHECK:       vector.broadcast %[[A]] : f32 to vector<8xf32>
func.func @unused_map_operands(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  affine.for %m = 0 to 8 {
    affine.for %n = 0 to 8 {
      %zero = arith.constant 0.000000e+00 : f32
      %sum = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
        %a = "affine.load"(%A, %m, %n, %k) <{map = affine_map<(d0, d1, d2) -> (d0, d2)>}> : (memref<8x8xf32>, index, index, index) -> f32
        %b = "affine.load"(%B, %m, %n, %k) <{map = affine_map<(d0, d1, d2) -> (d2, d1)>}> : (memref<8x8xf32>, index, index, index) -> f32
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %sum, %C[%m, %n] : memref<8x8xf32>
    }
  } {tilec.kernel = "contract_0_C", tilec.schedule = #tilec.schedule<block = [0, 0], thread = [2, 8], vector = 8>}
  return
}

// Only f32 and f64 multiplies and adds may be contracted into FMAs:
// `contract` on truncf and extf would let MLIR fold away the rounding
// through f32 that the program asks for.
// CHECK-LABEL: func.func @conversions_keep_rounding
// CHECK:       arith.truncf %{{.*}} : f64 to f32
// CHECK-NEXT:  arith.extf %{{.*}} : f32 to f64
// CHECK-NEXT:  arith.mulf %{{.*}} fastmath<contract> : f64
func.func @conversions_keep_rounding(%X: memref<8xf64>, %Y: memref<8xf64>) {
  affine.for %i = 0 to 8 {
    %x = affine.load %X[%i] : memref<8xf64>
    %t = arith.truncf %x : f64 to f32
    %e = arith.extf %t : f32 to f64
    %m = arith.mulf %e, %x : f64
    affine.store %m, %Y[%i] : memref<8xf64>
  } {tilec.kernel = "ewise_0_Y", tilec.schedule = #tilec.schedule<block = [0], thread = [1]>}
  return
}
