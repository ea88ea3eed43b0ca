// RUN: tilec-opt %s -split-input-file -tilec-cpu-row-kernels="vector-bytes=64" | FileCheck %s
// RUN: tilec-opt %s -split-input-file -tilec-cpu-row-kernels="vector-bytes=32" | FileCheck %s --check-prefix=AVX2
//
// Row kernels (tilec-cpu-fuse-rows) run their rows on threads and their
// columns on vectors; the temporaries only they use become a row each.

// The softmax row kernel with rows of 100 columns, in 16-lane vectors: the
// reductions in four accumulators over 64 columns, then one vector, then
// the last 4 columns in the scalar loop; exp(L - max) into a row of the
// stack rather than the 8x100 temporary.
// CHECK-LABEL: func.func @softmax
// CHECK-NOT:     memref.alloc() : memref<8x100xf32>
// CHECK:         affine.for %[[R:.*]] = 0 to 8 {
// CHECK-NEXT:      memref.alloca_scope {
// CHECK-NEXT:        %[[ROW:.*]] = memref.alloca() {alignment = 64 : i64} : memref<100xf32>
// The maximum: its identity is NaN (maxnum ignores it).
// CHECK:             %[[NAN:.*]] = vector.broadcast %{{.*}} : f32 to vector<16xf32>
// CHECK:             %[[MAX4:.*]]:4 = affine.for %[[C:.*]] = 0 to 64 step 64 iter_args({{.*}} = %[[NAN]], {{.*}} = %[[NAN]], {{.*}} = %[[NAN]], {{.*}} = %[[NAN]])
// CHECK-COUNT-4:       affine.vector_load %arg0[%[[R]], %{{.*}}] : memref<8x100xf32>, vector<16xf32>
// CHECK:             arith.maxnumf %[[MAX4]]#0, %[[MAX4]]#1 : vector<16xf32>
// CHECK:             %[[MAXV:.*]] = vector.reduction <maxnumf>, %{{.*}} : vector<16xf32> into f32
// CHECK:             %[[MAX64:.*]] = arith.maxnumf %{{.*}}, %[[MAXV]] : f32
// CHECK:             %[[MAX1:.*]] = affine.for %{{.*}} = 64 to 96 step 16 iter_args
// CHECK:               affine.vector_load
// CHECK:             %[[MAX80:.*]] = vector.reduction <maxnumf>
// CHECK:             %[[MAX96:.*]] = arith.maxnumf %[[MAX64]], %[[MAX80]] : f32
// CHECK:             %[[MAX:.*]] = affine.for %{{.*}} = 96 to 100 iter_args(%{{.*}} = %[[MAX96]]) -> (f32) {
// CHECK:               affine.load %arg0
// CHECK:               arith.maxnumf %{{.*}} : f32
// CHECK:             affine.store %[[MAX]], %{{.*}}[%[[R]], 0]
// exp(L - max): the row scalar loaded once before the loop and broadcast,
// the result into the row.
// CHECK:             %[[M:.*]] = affine.load %{{.*}}[%[[R]], 0]
// CHECK:             affine.for %[[C:.*]] = 0 to 96 step 16 {
// CHECK:               %[[X:.*]] = affine.vector_load %arg0[%[[R]], %[[C]]]
// CHECK:               %[[MV:.*]] = vector.broadcast %[[M]] : f32 to vector<16xf32>
// CHECK:               %[[D:.*]] = arith.subf %[[X]], %[[MV]] : vector<16xf32>
// CHECK:               %[[E:.*]] = math.exp %[[D]] : vector<16xf32>
// CHECK:               affine.vector_store %[[E]], %[[ROW]][%[[C]]] : memref<100xf32>, vector<16xf32>
// CHECK:             affine.for %{{.*}} = 96 to 100 {
// CHECK:               math.exp %{{.*}} : f32
// CHECK:               affine.store %{{.*}}, %[[ROW]][%{{.*}}] : memref<100xf32>
// The sum of the row, then the division, read the row. The division by
// the row's sum multiplies by its reciprocal (made once, before the loop),
// noting any quotient near overflow or NaN; the loop runs again with
// divisions if one was, or if the reciprocal is not a normal number.
// CHECK:             affine.for %{{.*}} = 0 to 64 step 64 iter_args
// CHECK:               affine.vector_load %[[ROW]]
// CHECK:             vector.reduction <add>
// CHECK:             %[[SUM:.*]] = affine.load %{{.*}}[%[[R]], 0] : memref<8x1xf32>
// CHECK:             %[[RECIP:.*]] = arith.divf %{{.*}}, %[[SUM]] : f32
// CHECK:             %[[ABS:.*]] = math.absf %[[SUM]] : f32
// CHECK:             arith.cmpf oge, %[[ABS]], %{{.*}} : f32
// CHECK:             arith.cmpf ole, %[[ABS]], %{{.*}} : f32
// CHECK:             %[[BOTH:.*]] = arith.andi
// CHECK:             %[[NORMAL:.*]] = arith.andi %{{.*}}, %[[BOTH]] : i1
// CHECK:             %[[INEXACT:.*]] = affine.for %[[C:.*]] = 0 to 96 step 16 iter_args(%[[FLAG:.*]] = %false) -> (i1) {
// CHECK:               %[[E:.*]] = affine.vector_load %[[ROW]][%[[C]]]
// CHECK:               %[[RV:.*]] = vector.broadcast %[[RECIP]] : f32 to vector<16xf32>
// CHECK:               %[[Q:.*]] = arith.mulf %[[E]], %[[RV]] : vector<16xf32>
// CHECK:               %[[QABS:.*]] = math.absf %[[Q]] : vector<16xf32>
// CHECK:               %[[NEAR:.*]] = arith.cmpf ugt, %[[QABS]], %{{.*}} : vector<16xf32>
// CHECK:               %[[ANY:.*]] = vector.reduction <or>, %[[NEAR]] : vector<16xi1> into i1
// CHECK:               %[[OR:.*]] = arith.ori %[[FLAG]], %[[ANY]] : i1
// CHECK:               affine.vector_store %[[Q]], %arg1[%[[R]], %[[C]]]
// CHECK:               affine.yield %[[OR]] : i1
// CHECK:             %[[NOTNORMAL:.*]] = arith.xori %[[NORMAL]], %{{.*}} : i1
// CHECK:             %[[AGAIN:.*]] = arith.ori %[[NOTNORMAL]], %[[INEXACT]] : i1
// CHECK:             scf.if %[[AGAIN]] {
// CHECK:               affine.for %{{.*}} = 0 to 96 step 16 {
// CHECK:                 arith.divf %{{.*}} : vector<16xf32>
// CHECK:                 affine.vector_store %{{.*}}, %arg1[%[[R]], %{{.*}}] : memref<8x100xf32>, vector<16xf32>
// CHECK:             affine.for %{{.*}} = 96 to 100 {
// CHECK:               arith.divf %{{.*}}, %[[SUM]] : f32
// CHECK:           }
// CHECK:         } {tilec.fingerprint = "0", tilec.kernel = "max..div", tilec.parallel, tilec.row_kernel}
// CHECK-NOT:     memref.dealloc %{{.*}} : memref<8x100xf32>
// AVX2-LABEL:  func.func @softmax
// AVX2:          affine.for %{{.*}} = 0 to 96 step 32 iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// AVX2:          affine.for %{{.*}} = 96 to 100 iter_args
func.func @softmax(%L: memref<8x100xf32>, %P: memref<8x100xf32>) {
  %M = memref.alloc() : memref<8x1xf32>
  %E = memref.alloc() : memref<8x100xf32>
  affine.for %r = 0 to 8 {
    %init = arith.constant 0xFF800000 : f32
    %m = affine.for %c = 0 to 100 iter_args(%acc = %init) -> (f32) {
      %x = affine.load %L[%r, %c] : memref<8x100xf32>
      %y = arith.maxnumf %acc, %x : f32
      affine.yield %y : f32
    }
    affine.store %m, %M[%r, 0] : memref<8x1xf32>
    affine.for %c = 0 to 100 {
      %x = affine.load %L[%r, %c] : memref<8x100xf32>
      %mx = affine.load %M[%r, 0] : memref<8x1xf32>
      %d = arith.subf %x, %mx : f32
      %e = math.exp %d : f32
      affine.store %e, %E[%r, %c] : memref<8x100xf32>
    }
    %zero = arith.constant 0.0 : f32
    %s = affine.for %c = 0 to 100 iter_args(%acc = %zero) -> (f32) {
      %e = affine.load %E[%r, %c] : memref<8x100xf32>
      %y = arith.addf %acc, %e : f32
      affine.yield %y : f32
    }
    affine.store %s, %M[%r, 0] : memref<8x1xf32>
    affine.for %c = 0 to 100 {
      %e = affine.load %E[%r, %c] : memref<8x100xf32>
      %sum = affine.load %M[%r, 0] : memref<8x1xf32>
      %p = arith.divf %e, %sum : f32
      affine.store %p, %P[%r, %c] : memref<8x100xf32>
    }
  } {tilec.fingerprint = "0", tilec.kernel = "max..div", tilec.row_kernel}
  memref.dealloc %M : memref<8x1xf32>
  memref.dealloc %E : memref<8x100xf32>
  return
}

// -----

// A temporary that a later kernel also reads stays where it is; the
// centred row of a layer norm in f64 takes 8 lanes of 64 bytes.
// CHECK-LABEL: func.func @kept_temporary
// CHECK-NOT:     memref.alloca
// CHECK:         affine.for %{{.*}} = 0 to 64 step 32 iter_args({{.*}}) -> (vector<8xf64>, vector<8xf64>, vector<8xf64>, vector<8xf64>)
// CHECK:         affine.vector_store %{{.*}}, %[[D:.*]][%{{.*}}, %{{.*}}] : memref<4x64xf64>, vector<8xf64>
// CHECK:         tilec.parallel
// CHECK:         affine.load %[[D]]
func.func @kept_temporary(%X: memref<4x64xf64>, %Y: memref<4x64xf64>) {
  %S = memref.alloc() : memref<4x1xf64>
  %D = memref.alloc() : memref<4x64xf64>
  affine.for %r = 0 to 4 {
    %zero = arith.constant 0.0 : f64
    %s = affine.for %c = 0 to 64 iter_args(%acc = %zero) -> (f64) {
      %x = affine.load %X[%r, %c] : memref<4x64xf64>
      %y = arith.addf %acc, %x : f64
      affine.yield %y : f64
    }
    affine.store %s, %S[%r, 0] : memref<4x1xf64>
    affine.for %c = 0 to 64 {
      %x = affine.load %X[%r, %c] : memref<4x64xf64>
      %m = affine.load %S[%r, 0] : memref<4x1xf64>
      %d = arith.subf %x, %m : f64
      affine.store %d, %D[%r, %c] : memref<4x64xf64>
    }
  } {tilec.fingerprint = "0", tilec.kernel = "sum..centre", tilec.row_kernel}
  affine.for %r = 0 to 4 {
    affine.for %c = 0 to 64 {
      %d = affine.load %D[%r, %c] : memref<4x64xf64>
      affine.store %d, %Y[%r, %c] : memref<4x64xf64>
    }
  } {tilec.kernel = "copy"}
  memref.dealloc %S : memref<4x1xf64>
  memref.dealloc %D : memref<4x64xf64>
  return
}

// -----

// Without the mark (or with a schedule) a nest is not a row kernel here.
// CHECK-LABEL: func.func @unmarked
// CHECK-NOT:     vector
// CHECK-NOT:     tilec.parallel
func.func @unmarked(%X: memref<4x64xf32>, %S: memref<4x1xf32>) {
  affine.for %r = 0 to 4 {
    %zero = arith.constant 0.0 : f32
    %s = affine.for %c = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %X[%r, %c] : memref<4x64xf32>
      %y = arith.addf %acc, %x : f32
      affine.yield %y : f32
    }
    affine.store %s, %S[%r, 0] : memref<4x1xf32>
  } {tilec.kernel = "sum"}
  affine.for %r = 0 to 4 {
    %zero = arith.constant 0.0 : f32
    %s = affine.for %c = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %X[%r, %c] : memref<4x64xf32>
      %y = arith.addf %acc, %x : f32
      affine.yield %y : f32
    }
    affine.store %s, %S[%r, 0] : memref<4x1xf32>
  } {tilec.kernel = "sum2", tilec.row_kernel, tilec.schedule = #tilec.schedule<block = [0], thread = [4], vector = 1>}
  return
}
