// tilec-gpu-speculate-guarded-loads: an scf.if around a padded gather's
// load becomes the load at its indices times the condition (element 0
// where the if would not have run) and a select of the two results; an if
// with a store, one whose load reads a dynamically shaped memref, one
// without results and one outside a kernel stay.
// RUN: tilec-opt --tilec-gpu-speculate-guarded-loads %s | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @padded
    // CHECK-NOT: scf.if
    // CHECK: %[[TAKEN:.*]] = arith.index_castui %[[C:.*]] : i1 to index
    // CHECK: %[[I:.*]] = arith.muli %{{.*}}, %[[TAKEN]] : index
    // CHECK: %[[X:.*]] = memref.load %{{.*}}[%[[I]]] : memref<16xf32>
    // CHECK: %[[Y:.*]] = arith.mulf %[[X]], %[[X]] : f32
    // CHECK: arith.select %[[C]], %[[Y]], %{{.*}} : f32
    gpu.func @padded(%in: memref<16xf32>, %out: memref<16xf32>, %i: index) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %inside = arith.cmpi ult, %i, %c16 : index
      %v = scf.if %inside -> f32 {
        %x = memref.load %in[%i] : memref<16xf32>
        %y = arith.mulf %x, %x : f32
        scf.yield %y : f32
      } else {
        scf.yield %zero : f32
      }
      memref.store %v, %out[%c0] : memref<16xf32>
      gpu.return
    }

    // CHECK-LABEL: gpu.func @kept
    // CHECK-COUNT-3: scf.if
    gpu.func @kept(%in: memref<16xf32>, %dyn: memref<?xf32>, %c: i1, %i: index) kernel {
      %zero = arith.constant 0.0 : f32
      %a = scf.if %c -> f32 {
        memref.store %zero, %in[%i] : memref<16xf32>
        scf.yield %zero : f32
      } else {
        scf.yield %zero : f32
      }
      %b = scf.if %c -> f32 {
        %x = memref.load %dyn[%i] : memref<?xf32>
        scf.yield %x : f32
      } else {
        scf.yield %zero : f32
      }
      scf.if %c {
        %x = memref.load %in[%i] : memref<16xf32>
      }
      gpu.return
    }
  }

  // CHECK-LABEL: func.func @host
  // CHECK: scf.if
  func.func @host(%in: memref<16xf32>, %c: i1, %i: index) -> f32 {
    %zero = arith.constant 0.0 : f32
    %v = scf.if %c -> f32 {
      %x = memref.load %in[%i] : memref<16xf32>
      scf.yield %x : f32
    } else {
      scf.yield %zero : f32
    }
    return %v : f32
  }
}
