// RUN: tilec-opt %s --pass-pipeline='builtin.module(gpu.module(gpu.func(tilec-gpu-narrow-integers)))' -split-input-file | FileCheck %s --check-prefix=ALL
// RUN: tilec-opt %s --pass-pipeline='builtin.module(gpu.module(gpu.func(tilec-gpu-narrow-integers{index-is-32-bit})))' -split-input-file | FileCheck %s --check-prefix=INT32

// Index arithmetic on a thread id below 64: narrowed to i32 by default;
// left alone where the target computes every index in 32 bits anyway.
// ALL-LABEL: gpu.func @index_only
// ALL: arith.index_castui %{{.+}} : index to i32
// ALL: arith.muli %{{.+}}, %{{.+}} : i32
// INT32-LABEL: gpu.func @index_only
// INT32-NOT: index_castui
// INT32: arith.muli %{{.+}}, %{{.+}} : index
gpu.module @kernels {
  gpu.func @index_only(%out: memref<256xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x upper_bound 64
    %i = arith.muli %tid, %c4 : index
    %one = arith.constant 1.0 : f32
    memref.store %one, %out[%i] : memref<256xf32>
    gpu.return
  }
}

// -----

// A clamp of i32 ids computed in i64 (a gather's): narrowed to i32 either
// way, so that a GL device without 64-bit integers runs it.
// ALL-LABEL: gpu.func @wide
// ALL: arith.maxsi %{{.+}}, %{{.+}} : i32
// INT32-LABEL: gpu.func @wide
// INT32: arith.maxsi %{{.+}}, %{{.+}} : i32
// INT32-NOT: arith.maxsi %{{.+}}, %{{.+}} : i64
gpu.module @kernels {
  gpu.func @wide(%ids: memref<4xi32>, %out: memref<4xi64>) kernel {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0 : i64
    %id = memref.load %ids[%c0] : memref<4xi32>
    %wide = arith.extsi %id : i32 to i64
    %clamped = arith.maxsi %wide, %zero : i64
    memref.store %clamped, %out[%c0] : memref<4xi64>
    gpu.return
  }
}
