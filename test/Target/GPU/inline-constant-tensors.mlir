// tilec-gpu-inline-constant-tensors: the manifest gives a constant tensor
// no buffer, so the kernel argument bound to one leaves the gpu.func and its
// launch, and the kernel's loads of it read an arith.constant tensor; with
// as-global (PTX) the gpu.module gets a private copy of the constant global
// and the kernel reads that.
// RUN: tilec-opt --tilec-gpu-inline-constant-tensors %s | FileCheck %s
// RUN: tilec-opt '--tilec-gpu-inline-constant-tensors=as-global=true' %s \
// RUN:   | FileCheck %s --check-prefix=GLOBAL

// GLOBAL-LABEL: func.func @main
// GLOBAL: gpu.launch_func @k::@lookup {{.*}} args(%arg0 : memref<3xi32>)
// GLOBAL: gpu.module @k
// GLOBAL-NEXT: memref.global "private" constant @shape : memref<3xi32> = dense<[2, 3, 4]>
// GLOBAL-LABEL: gpu.func @lookup
// GLOBAL-SAME: (%[[OUT:.*]]: memref<3xi32>) kernel
// GLOBAL: %[[TABLE:.*]] = memref.get_global @shape : memref<3xi32>
// GLOBAL: %[[V:.*]] = memref.load %[[TABLE]][%{{.*}}] : memref<3xi32>
// GLOBAL: memref.store %[[V]], %[[OUT]]

// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @k::@lookup {{.*}} args(%arg0 : memref<3xi32>)
// CHECK-LABEL: gpu.func @lookup
// CHECK-SAME: (%[[OUT:.*]]: memref<3xi32>) kernel
// CHECK: %[[TABLE:.*]] = arith.constant dense<[2, 3, 4]> : tensor<3xi32>
// CHECK: %[[V:.*]] = tensor.extract %[[TABLE]][%{{.*}}] : tensor<3xi32>
// CHECK: memref.store %[[V]], %[[OUT]]
module attributes {gpu.container_module} {
  memref.global "private" constant @shape : memref<3xi32> = dense<[2, 3, 4]>
  func.func @main(%O: memref<3xi32>) attributes {tilec.entry} {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %table = memref.get_global @shape : memref<3xi32>
    gpu.launch_func @k::@lookup blocks in (%c1, %c1, %c1) threads in (%c3, %c1, %c1)
        args(%table : memref<3xi32>, %O : memref<3xi32>)
    return
  }
  gpu.module @k {
    gpu.func @lookup(%t: memref<3xi32>, %o: memref<3xi32>) kernel
        attributes {known_block_size = array<i32: 3, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %t[%i] : memref<3xi32>
      memref.store %v, %o[%i] : memref<3xi32>
      gpu.return
    }
  }
}
