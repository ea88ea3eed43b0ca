// A kernel launched twice (tilec-gpu-dedup-kernels) with the same constant
// tensor gets the tensor inlined once, and both launches lose the argument;
// with different tensors one body cannot hold both, which is an error.
// RUN: tilec-opt %s -split-input-file --tilec-pipeline-spirv -verify-diagnostics | FileCheck %s

// CHECK: gpu.launch_func @k::@table {{.*}} args(%arg0 : memref<4xf32>)
// CHECK: gpu.launch_func @k::@table {{.*}} args(%arg1 : memref<4xf32>)
// CHECK: spirv.GlobalVariable @table_arg_0 bind(0, 0)
// CHECK-NOT: bind(0, 1)
// CHECK: spirv.Constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK-COUNT-1: spirv.EntryPoint "GLCompute" @table
module attributes {gpu.container_module} {
  memref.global "private" constant @t0 : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
  func.func @main(%x: memref<4xf32>, %y: memref<4xf32>)
      attributes {tilec.entry, tilec.input_names = [], tilec.output_names = ["X", "Y"]} {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %g0 = memref.get_global @t0 : memref<4xf32>
    gpu.launch_func @k::@table blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%g0 : memref<4xf32>, %x : memref<4xf32>)
    gpu.launch_func @k::@table blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%g0 : memref<4xf32>, %y : memref<4xf32>)
    return
  }
  gpu.module @k {
    gpu.func @table(%t: memref<4xf32>, %a: memref<4xf32>) kernel
        attributes {known_block_size = array<i32: 4, 1, 1>, tilec.fingerprint = "00000000000000cc"} {
      %i = gpu.thread_id x
      %v = memref.load %t[%i] : memref<4xf32>
      memref.store %v, %a[%i] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  memref.global "private" constant @t0 : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
  memref.global "private" constant @t1 : memref<4xf32> = dense<[5.0, 6.0, 7.0, 8.0]>
  func.func @main(%x: memref<4xf32>, %y: memref<4xf32>)
      attributes {tilec.entry, tilec.input_names = [], tilec.output_names = ["X", "Y"]} {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %g0 = memref.get_global @t0 : memref<4xf32>
    %g1 = memref.get_global @t1 : memref<4xf32>
    gpu.launch_func @k::@table blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%g0 : memref<4xf32>, %x : memref<4xf32>)
    gpu.launch_func @k::@table blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%g1 : memref<4xf32>, %y : memref<4xf32>)
    return
  }
  gpu.module @k {
    // expected-error @+1 {{kernel 'table' is launched 2 times with different constant tensors}}
    gpu.func @table(%t: memref<4xf32>, %a: memref<4xf32>) kernel
        attributes {known_block_size = array<i32: 4, 1, 1>, tilec.fingerprint = "00000000000000cc"} {
      %i = gpu.thread_id x
      %v = memref.load %t[%i] : memref<4xf32>
      memref.store %v, %a[%i] : memref<4xf32>
      gpu.return
    }
  }
}
