// tilec-spirv-legalize-bool-arith: SPIR-V has no integer min/max of i1, so
// they become logical and/or. Unsigned, true (1) is the larger; signed, true
// (-1) is the smaller. Other widths stay.
// RUN: tilec-opt --tilec-spirv-legalize-bool-arith %s | FileCheck %s

// CHECK-LABEL: gpu.func @bools
// CHECK-SAME: (%[[A:.*]]: i1, %[[B:.*]]: i1, %[[X:.*]]: i32, %[[Y:.*]]: i32)
// CHECK-NEXT: %[[MINU:.*]] = arith.andi %[[A]], %[[B]] : i1
// CHECK-NEXT: %[[MAXU:.*]] = arith.ori %[[A]], %[[B]] : i1
// CHECK-NEXT: %[[MINS:.*]] = arith.ori %[[A]], %[[B]] : i1
// CHECK-NEXT: %[[MAXS:.*]] = arith.andi %[[A]], %[[B]] : i1
// CHECK-NEXT: %[[WIDE:.*]] = arith.minsi %[[X]], %[[Y]] : i32
// CHECK-NEXT: gpu.return %[[MINU]], %[[MAXU]], %[[MINS]], %[[MAXS]], %[[WIDE]]
gpu.module @k {
  gpu.func @bools(%a: i1, %b: i1, %x: i32, %y: i32) -> (i1, i1, i1, i1, i32) {
    %minu = arith.minui %a, %b : i1
    %maxu = arith.maxui %a, %b : i1
    %mins = arith.minsi %a, %b : i1
    %maxs = arith.maxsi %a, %b : i1
    %wide = arith.minsi %x, %y : i32
    gpu.return %minu, %maxu, %mins, %maxs, %wide : i1, i1, i1, i1, i32
  }
}
