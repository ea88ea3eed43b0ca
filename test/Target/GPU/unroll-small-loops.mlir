// tilec-gpu-unroll-small-loops: loops of constant trip count inside a
// kernel are replaced by their iterations, innermost first, while the
// unrolled body stays within max-ops; a loop of unknown trip count, one
// that would grow past the limit, and a loop outside any kernel stay.
// RUN: tilec-opt --tilec-gpu-unroll-small-loops %s | FileCheck %s
// RUN: tilec-opt --tilec-gpu-unroll-small-loops=max-ops=20 %s | FileCheck %s --check-prefix=SMALL

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // A 3x3 nest of taps: both loops go, nine loads remain.
    // CHECK-LABEL: gpu.func @taps
    // CHECK-NOT: scf.for
    // CHECK-COUNT-9: memref.load
    // CHECK-NOT: memref.load
    // SMALL-LABEL: gpu.func @taps
    // SMALL: scf.for
    // SMALL-NOT: scf.for
    // SMALL: gpu.return
    gpu.func @taps(%in: memref<16xf32>, %out: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %zero) -> f32 {
        %inner = scf.for %j = %c0 to %c3 step %c1 iter_args(%b = %a) -> f32 {
          %k = arith.addi %i, %j : index
          %x = memref.load %in[%k] : memref<16xf32>
          %y = arith.addf %b, %x : f32
          scf.yield %y : f32
        }
        scf.yield %inner : f32
      }
      memref.store %sum, %out[%c0] : memref<1xf32>
      gpu.return
    }

    // The trip count is a kernel argument: the loop stays.
    // CHECK-LABEL: gpu.func @unknown
    // CHECK: scf.for
    gpu.func @unknown(%in: memref<16xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      scf.for %i = %c0 to %n step %c1 {
        memref.store %zero, %in[%i] : memref<16xf32>
      }
      gpu.return
    }

    // 4096 iterations are over the default limit of 2048 operations.
    // CHECK-LABEL: gpu.func @long
    // CHECK: scf.for
    gpu.func @long(%in: memref<4096xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4096 = arith.constant 4096 : index
      %zero = arith.constant 0.0 : f32
      scf.for %i = %c0 to %c4096 step %c1 {
        memref.store %zero, %in[%i] : memref<4096xf32>
      }
      gpu.return
    }
  }

  // Host code is not a kernel: its loop stays.
  // CHECK-LABEL: func.func @host
  // CHECK: scf.for
  func.func @host(%in: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %zero = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c3 step %c1 {
      memref.store %zero, %in[%i] : memref<16xf32>
    }
    return
  }
}
