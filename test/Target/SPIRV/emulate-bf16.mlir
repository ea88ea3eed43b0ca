// tilec-spirv-emulate-bf16: Vulkan has no bf16, so bf16 memrefs and values
// become i16 bits; extf is a shift into the high half of an f32, truncf
// rounds to nearest even (adding 0x7FFF plus the lowest kept bit) and turns
// NaN into the quiet NaN 0x7FC0 with its sign (0xFFC0 = -64 as i16).
// RUN: tilec-opt --tilec-spirv-emulate-bf16 %s | FileCheck %s

// CHECK-LABEL: func.func @round_trip
// CHECK-SAME: (%[[X:.*]]: memref<4xi16>, %[[Y:.*]]: memref<4xi16>)
// CHECK: %[[BITS:.*]] = memref.load %[[X]]{{.*}} : memref<4xi16>
// CHECK: %[[WIDE:.*]] = arith.extui %[[BITS]] : i16 to i32
// CHECK: %[[HIGH:.*]] = arith.shli %[[WIDE]], %{{.*}} : i32
// CHECK: %[[F:.*]] = arith.bitcast %[[HIGH]] : i32 to f32
// CHECK: arith.constant 32767 : i32
// CHECK: %[[ROUNDED:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK-DAG: arith.constant -64 : i16
// CHECK-DAG: arith.constant 32704 : i16
// CHECK: %[[ISNAN:.*]] = arith.cmpf uno, %[[F]], %[[F]] : f32
// CHECK: %[[R:.*]] = arith.select %[[ISNAN]], %{{.*}}, %[[ROUNDED]] : i16
// CHECK: memref.store %[[R]], %[[Y]]{{.*}} : memref<4xi16>
// CHECK-NOT: bf16
func.func @round_trip(%x: memref<4xbf16>, %y: memref<4xbf16>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<4xbf16>
  %w = arith.extf %v : bf16 to f32
  %t = arith.truncf %w : f32 to bf16
  memref.store %t, %y[%c0] : memref<4xbf16>
  return
}
