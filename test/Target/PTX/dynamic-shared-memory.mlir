// RUN: tilec-opt %s --tilec-ptx-dynamic-shared-memory -split-input-file | FileCheck %s

// Two attributions of 40 KiB + 24 KiB + 2 bytes: above 48 KiB, so both
// become views of the dynamic shared memory, the second at 40960 and the
// third at the next multiple of 16 after 40960 + 24576; the kernel keeps
// no attribution.
// CHECK-LABEL: gpu.func @big(
// CHECK-SAME: %[[ARG:.+]]: memref<4xf32>) kernel
// CHECK-NOT: workgroup(
// CHECK: %[[BASE:.+]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[A:.+]] = memref.view %[[BASE]][%[[C0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x80x128xf16, #gpu.address_space<workgroup>>
// CHECK: %[[C1:.+]] = arith.constant 40960 : index
// CHECK: %[[B:.+]] = memref.view %[[BASE]][%[[C1]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<6144xf32, #gpu.address_space<workgroup>>
// CHECK: %[[C2:.+]] = arith.constant 65536 : index
// CHECK: %[[C:.+]] = memref.view %[[BASE]][%[[C2]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xf16, #gpu.address_space<workgroup>>
// CHECK: memref.load %[[A]]
// CHECK: memref.store %{{.+}}, %[[B]]
// CHECK: memref.store %{{.+}}, %[[C]]
gpu.module @kernels {
  gpu.func @big(%arg: memref<4xf32>) workgroup(%a: memref<2x80x128xf16, #gpu.address_space<workgroup>>, %b: memref<6144xf32, #gpu.address_space<workgroup>>, %c: memref<1xf16, #gpu.address_space<workgroup>>) kernel {
    %i = arith.constant 0 : index
    %x = memref.load %a[%i, %i, %i] : memref<2x80x128xf16, #gpu.address_space<workgroup>>
    %y = memref.load %arg[%i] : memref<4xf32>
    memref.store %y, %b[%i] : memref<6144xf32, #gpu.address_space<workgroup>>
    memref.store %x, %c[%i] : memref<1xf16, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// 48 KiB exactly stays static.
// CHECK-LABEL: gpu.func @fits(
// CHECK-SAME: workgroup(%{{.+}} : memref<12288xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: gpu.dynamic_shared_memory
gpu.module @kernels {
  gpu.func @fits() workgroup(%a: memref<12288xf32, #gpu.address_space<workgroup>>) kernel {
    %i = arith.constant 0 : index
    %x = memref.load %a[%i] : memref<12288xf32, #gpu.address_space<workgroup>>
    memref.store %x, %a[%i] : memref<12288xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
