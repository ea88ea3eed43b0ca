// RUN: tilec-opt %s --tilec-ptx-split-kernel-modules -split-input-file | FileCheck %s

// Two kernels: a module each, in order, with the module's attributes; each
// takes a copy of the global it names (@table only where it is used) and
// the launches name the kernel in its new module.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: func.func @host(%[[ARG:.+]]: memref<4xf32>)
// CHECK: gpu.launch_func @kernels_first::@first
// CHECK: gpu.launch_func @kernels_second::@second
// CHECK: gpu.launch_func @kernels_first::@first
// CHECK: gpu.module @kernels_first [#nvvm.target<chip = "sm_90">] {
// CHECK-NEXT: memref.global "private" constant @table
// CHECK-NEXT: gpu.func @first(
// CHECK: gpu.module @kernels_second [#nvvm.target<chip = "sm_90">] {
// CHECK-NEXT: gpu.func @second(
// CHECK-NOT: gpu.module @kernels {
module attributes {gpu.container_module} {
  func.func @host(%arg: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@first blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%arg : memref<4xf32>)
    gpu.launch_func @kernels::@second blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%arg : memref<4xf32>)
    gpu.launch_func @kernels::@first blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%arg : memref<4xf32>)
    return
  }
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
    gpu.func @first(%arg: memref<4xf32>) kernel {
      %i = arith.constant 0 : index
      %t = memref.get_global @table : memref<4xf32>
      %x = memref.load %t[%i] : memref<4xf32>
      memref.store %x, %arg[%i] : memref<4xf32>
      gpu.return
    }
    gpu.func @second(%arg: memref<4xf32>) kernel {
      %i = arith.constant 0 : index
      %x = memref.load %arg[%i] : memref<4xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %arg[%i] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// One kernel: nothing to split.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.module @kernels {
// CHECK-NEXT: gpu.func @only(
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @only() kernel {
      gpu.return
    }
  }
}

// -----

// A function that is no kernel would be needed in several modules: the
// module stays whole.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.module @kernels {
// CHECK: gpu.func @a() kernel
// CHECK: gpu.func @b() kernel
// CHECK: gpu.func @helper()
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @a() kernel {
      gpu.return
    }
    gpu.func @b() kernel {
      gpu.return
    }
    gpu.func @helper() {
      gpu.return
    }
  }
}
