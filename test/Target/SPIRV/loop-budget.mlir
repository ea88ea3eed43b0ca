// On a device that stops an invocation's loops after a budget of iterations
// of all of them together (lavapipe: 65535, DeviceInfo::maxLoopIterations),
// tilec-spirv-check-device refuses a kernel that may run more, naming it:
// the driver would otherwise return partial sums without a word. A loop
// inside another counts once per outer iteration, and each loop's own
// iterations count too: 10 * (1 + 50) = 510 and 30 * (1 + 40) = 1230.
// RUN: tilec-opt %s '--tilec-kernel-set-gpu-target=target=#tilec.gpu_target<max_loop_iterations=1000>' --tilec-spirv-check-device \
// RUN:   --verify-diagnostics -split-input-file
// RUN: tilec-opt %s --tilec-spirv-check-device -split-input-file | FileCheck %s
// Without a budget (the default), nothing is refused.
// CHECK-COUNT-3: gpu.func

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fits(%out: memref<i32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c10 = arith.constant 10 : index
      %c50 = arith.constant 50 : index
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %sum = scf.for %i = %c0 to %c10 step %c1 iter_args(%a = %zero) -> (i32) {
        %row = scf.for %j = %c0 to %c50 step %c1 iter_args(%b = %a) -> (i32) {
          %next = arith.addi %b, %one : i32
          scf.yield %next : i32
        }
        scf.yield %row : i32
      }
      memref.store %sum, %out[] : memref<i32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{kernel 'too_long' runs 1230 loop iterations in one invocation, but the target device stops an invocation after 1000}}
    gpu.func @too_long(%out: memref<i32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c30 = arith.constant 30 : index
      %c40 = arith.constant 40 : index
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %sum = scf.for %i = %c0 to %c30 step %c1 iter_args(%a = %zero) -> (i32) {
        %row = scf.for %j = %c0 to %c40 step %c1 iter_args(%b = %a) -> (i32) {
          %next = arith.addi %b, %one : i32
          scf.yield %next : i32
        }
        scf.yield %row : i32
      }
      memref.store %sum, %out[] : memref<i32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // A bound that depends on a value with no constant range.
    // expected-error @+1 {{kernel 'unbounded' runs an unbounded number of loop iterations in one invocation}}
    gpu.func @unbounded(%out: memref<i32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %sum = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (i32) {
        %next = arith.addi %a, %one : i32
        scf.yield %next : i32
      }
      memref.store %sum, %out[] : memref<i32>
      gpu.return
    }
  }
}
