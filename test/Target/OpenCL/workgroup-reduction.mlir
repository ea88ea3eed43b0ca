// A work-group reduction: partial maxima in workgroup memory (a __local
// array), barriers between the steps, NaN-propagating maximumf, and the
// result written by work-item 0 under an scf.if with a result.
// RUN: tilec-translate --tilec-to-opencl %s | FileCheck %s

// CHECK:      float tilec_maximum_float(float a, float b) {
// CHECK-NEXT:   if (isnan(a) || isnan(b))
// CHECK-NEXT:     return a + b;
// CHECK-NEXT:   if (a == b)
// CHECK-NEXT:     return signbit(a) ? b : a;
// CHECK-NEXT:   return a > b ? a : b;
// CHECK-NEXT: }
// CHECK:      // row_max: computes model.tile:3, model.tile:7
// CHECK-NEXT: // launched as 4x1x1 work-groups of 64x1x1 work-items
// CHECK-NEXT: __kernel __attribute__((reqd_work_group_size(64, 1, 1)))
// CHECK-NEXT: void row_max(__global const float *restrict in_X,
// CHECK-NEXT:     __global float *restrict out_M) {
// CHECK-NEXT:   __local float local0[64];
// CHECK-NEXT:   long tid_x = (long)get_local_id(0);
// CHECK-NEXT:   long bid_x = (long)get_group_id(0);
// CHECK-NEXT:   float acc0 = (-INFINITY);
// CHECK-NEXT:   for (long i0 = tid_x; i0 < 1000; i0 += 64) {
// CHECK-NEXT:     float v0 = in_X[bid_x * 1000 + i0];
// CHECK-NEXT:     float v1 = fmax(acc0, v0);
// CHECK-NEXT:     acc0 = v1;
// CHECK-NEXT:   }
// CHECK-NEXT:   local0[(int)tid_x] = acc0;
// CHECK-NEXT:   barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
// CHECK-NEXT:   bool v2 = tid_x == 0;
// CHECK-NEXT:   float r0;
// CHECK-NEXT:   if (v2) {
// CHECK-NEXT:     float acc1 = (-INFINITY);
// CHECK-NEXT:     for (long i1 = 0; i1 < 64; ++i1) {
// CHECK-NEXT:       float v3 = local0[(int)i1];
// CHECK-NEXT:       float v4 = tilec_maximum_float(acc1, v3);
// CHECK-NEXT:       acc1 = v4;
// CHECK-NEXT:     }
// CHECK-NEXT:     r0 = acc1;
// CHECK-NEXT:   } else {
// CHECK-NEXT:     r0 = 0.0f;
// CHECK-NEXT:   }
// CHECK-NEXT:   out_M[bid_x] = r0;
// CHECK-NEXT: }

#l3 = loc("model.tile":3:5)
#l7 = loc("model.tile":7:5)
module attributes {gpu.container_module} {
  func.func @main(%X: memref<4x1000xf32>, %M: memref<4xf32>)
      attributes {tilec.entry, tilec.input_names = ["X"], tilec.output_names = ["M"]} {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @k::@row_max blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%X : memref<4x1000xf32>, %M : memref<4xf32>)
    return
  }
  gpu.module @k {
    gpu.func @row_max(%x: memref<4x1000xf32>, %m: memref<4xf32>)
        workgroup(%partial : memref<64xf32, #gpu.address_space<workgroup>>) kernel
        attributes {tilec.fingerprint = "565e9e54092a6884"} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c1000 = arith.constant 1000 : index
      %ninf = arith.constant 0xFF800000 : f32
      %zero = arith.constant 0.0 : f32
      %t = gpu.thread_id x
      %row = gpu.block_id x
      %mine = scf.for %j = %t to %c1000 step %c64 iter_args(%acc = %ninf) -> (f32) {
        %v = memref.load %x[%row, %j] : memref<4x1000xf32> loc(#l3)
        %mx = arith.maxnumf %acc, %v : f32 loc(#l3)
        scf.yield %mx : f32
      }
      memref.store %mine, %partial[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %first = arith.cmpi eq, %t, %c0 : index
      %res = scf.if %first -> (f32) {
        %all = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %ninf) -> (f32) {
          %p = memref.load %partial[%i] : memref<64xf32, #gpu.address_space<workgroup>>
          %mx = arith.maximumf %acc, %p : f32 loc(#l7)
          scf.yield %mx : f32
        }
        scf.yield %all : f32
      } else {
        scf.yield %zero : f32
      }
      memref.store %res, %m[%row] : memref<4xf32>
      gpu.return
    }
  }
}
