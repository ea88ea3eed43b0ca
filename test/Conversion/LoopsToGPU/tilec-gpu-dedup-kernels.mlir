// RUN: tilec-opt %s -split-input-file -tilec-gpu-dedup-kernels | FileCheck %s
// RUN: tilec-opt %s -split-input-file -tilec-gpu-dedup-kernels -mlir-print-debuginfo -mlir-print-local-scope | FileCheck %s --check-prefix=LOC

// @relu_b is @relu_a on other buffers, with other names and locations: its
// launch runs @relu_a and it is gone. @relu_c differs in one constant and
// stays. Each launch keeps its buffers and sizes; the launches of the
// shared kernel carry the statements of the kernel they launched before.
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @k::@relu_a {{.*}} args(%arg0 : memref<8xf32>, %[[T:.+]] : memref<8xf32>)
// CHECK: gpu.launch_func @k::@relu_a {{.*}} args(%[[T]] : memref<8xf32>, %arg1 : memref<8xf32>)
// CHECK: gpu.launch_func @k::@relu_c {{.*}} args(%arg1 : memref<8xf32>, %arg2 : memref<8xf32>)
// CHECK: gpu.module @k
// CHECK: gpu.func @relu_a(
// CHECK-SAME: tilec.kernel = "relu.a"
// CHECK-NOT: gpu.func @relu_b
// CHECK: gpu.func @relu_c(
// CHECK-NOT: gpu.func
// LOC: gpu.launch_func @k::@relu_a {{.*}} loc(fused["main.tile":2:1, "a.tile":3:5, {{.*}}"a.tile":3:9
// LOC: gpu.launch_func @k::@relu_a {{.*}} loc(fused["main.tile":3:1, "b.tile":7:5, {{.*}}"b.tile":7:9
// LOC: gpu.launch_func @k::@relu_c {{.*}} loc("main.tile":4:1)
module attributes {gpu.container_module} {
  func.func @main(%in: memref<8xf32>, %out: memref<8xf32>, %out2: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %t = memref.alloc() : memref<8xf32>
    gpu.launch_func @k::@relu_a blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%in : memref<8xf32>, %t : memref<8xf32>) loc("main.tile":2:1)
    gpu.launch_func @k::@relu_b blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%t : memref<8xf32>, %out : memref<8xf32>) loc("main.tile":3:1)
    gpu.launch_func @k::@relu_c blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%out : memref<8xf32>, %out2 : memref<8xf32>) loc("main.tile":4:1)
    memref.dealloc %t : memref<8xf32>
    return
  }
  gpu.module @k {
    gpu.func @relu_a(%a: memref<8xf32>, %b: memref<8xf32>) kernel
        attributes {tilec.fingerprint = "00aa", tilec.kernel = "relu.a"} {
      %zero = arith.constant 0.0 : f32 loc("a.tile":3:5)
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<8xf32>
      %y = arith.maximumf %x, %zero : f32 loc("a.tile":3:9)
      memref.store %y, %b[%i] : memref<8xf32>
      gpu.return
    }
    gpu.func @relu_b(%a: memref<8xf32>, %b: memref<8xf32>) kernel
        attributes {tilec.fingerprint = "00aa", tilec.kernel = "relu.b"} {
      %zero = arith.constant 0.0 : f32 loc("b.tile":7:5)
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<8xf32>
      %y = arith.maximumf %x, %zero : f32 loc("b.tile":7:9)
      memref.store %y, %b[%i] : memref<8xf32>
      gpu.return
    }
    gpu.func @relu_c(%a: memref<8xf32>, %b: memref<8xf32>) kernel
        attributes {tilec.fingerprint = "00aa", tilec.kernel = "relu.c"} {
      %zero = arith.constant 1.0 : f32
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<8xf32>
      %y = arith.maximumf %x, %zero : f32
      memref.store %y, %b[%i] : memref<8xf32>
      gpu.return
    }
  }
}

// -----

// Equal bodies are not enough: kernels whose attributes differ (here the
// schedule), or whose launches bind different constant tensors, stay apart.
// Those binding the same tensor merge.
// CHECK-LABEL: func.func @apart
// CHECK: gpu.launch_func @k::@sched_a
// CHECK: gpu.launch_func @k::@sched_b
// CHECK: gpu.launch_func @k::@table_a {{.*}} args(%[[G0:.+]] : memref<4xf32>, %arg0
// CHECK: gpu.launch_func @k::@table_a {{.*}} args(%[[G0]] : memref<4xf32>, %arg1
// CHECK: gpu.launch_func @k::@table_c {{.*}} args(%[[G1:.+]] : memref<4xf32>, %arg1
// CHECK: gpu.module @k
// CHECK-DAG: gpu.func @sched_a(
// CHECK-DAG: gpu.func @sched_b(
// CHECK-DAG: gpu.func @table_a(
// CHECK-DAG: gpu.func @table_c(
// CHECK-NOT: gpu.func @table_b
module attributes {gpu.container_module} {
  memref.global "private" constant @t0 : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
  memref.global "private" constant @t1 : memref<4xf32> = dense<[5.0, 6.0, 7.0, 8.0]>
  func.func @apart(%x: memref<4xf32>, %y: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %g0 = memref.get_global @t0 : memref<4xf32>
    %g1 = memref.get_global @t1 : memref<4xf32>
    gpu.launch_func @k::@sched_a blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%x : memref<4xf32>)
    gpu.launch_func @k::@sched_b blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%y : memref<4xf32>)
    gpu.launch_func @k::@table_a blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%g0 : memref<4xf32>, %x : memref<4xf32>)
    gpu.launch_func @k::@table_b blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%g0 : memref<4xf32>, %y : memref<4xf32>)
    gpu.launch_func @k::@table_c blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%g1 : memref<4xf32>, %y : memref<4xf32>)
    return
  }
  gpu.module @k {
    gpu.func @sched_a(%a: memref<4xf32>) kernel
        attributes {tilec.fingerprint = "00bb", tilec.schedule = #tilec.schedule<block = [4]>} {
      %i = gpu.thread_id x
      %v = memref.load %a[%i] : memref<4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %a[%i] : memref<4xf32>
      gpu.return
    }
    gpu.func @sched_b(%a: memref<4xf32>) kernel
        attributes {tilec.fingerprint = "00bb", tilec.schedule = #tilec.schedule<block = [2]>} {
      %i = gpu.thread_id x
      %v = memref.load %a[%i] : memref<4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %a[%i] : memref<4xf32>
      gpu.return
    }
    gpu.func @table_a(%t: memref<4xf32>, %a: memref<4xf32>) kernel
        attributes {tilec.fingerprint = "00cc"} {
      %i = gpu.thread_id x
      %v = memref.load %t[%i] : memref<4xf32>
      memref.store %v, %a[%i] : memref<4xf32>
      gpu.return
    }
    gpu.func @table_b(%t: memref<4xf32>, %a: memref<4xf32>) kernel
        attributes {tilec.fingerprint = "00cc"} {
      %i = gpu.thread_id x
      %v = memref.load %t[%i] : memref<4xf32>
      memref.store %v, %a[%i] : memref<4xf32>
      gpu.return
    }
    gpu.func @table_c(%t: memref<4xf32>, %a: memref<4xf32>) kernel
        attributes {tilec.fingerprint = "00cc"} {
      %i = gpu.thread_id x
      %v = memref.load %t[%i] : memref<4xf32>
      memref.store %v, %a[%i] : memref<4xf32>
      gpu.return
    }
  }
}
