// tilec-gpu-expand-software-math computes the math functions of f64 with
// arith ops: a vector of f64 lane by lane, f32 in f64 unless disabled (exp
// of f32 in f32), the exact math ops (sqrt) left alone, sin through the 2/pi
// table of its Payne-Hanek reduction (read with selects), pow through
// double-double products split by masking the low 27 bits of the encoding.
// RUN: tilec-opt '--tilec-gpu-expand-software-math=f32-math=false' %s | FileCheck %s
// RUN: tilec-opt --tilec-gpu-expand-software-math %s | FileCheck %s --check-prefix=F32
// RUN: tilec-opt '--tilec-kernel-set-gpu-target=target=#tilec.gpu_target<int64=false>' --tilec-gpu-expand-software-math %s \
// RUN:   | FileCheck %s --check-prefix=NOINT64

func.func @lanes(%x: vector<2xf64>, %y: f32, %z: f64, %w: f32) -> (vector<2xf64>, f32, f64, f32) {
  %0 = math.exp %x : vector<2xf64>
  %1 = math.log %y : f32
  %2 = math.sqrt %z : f64
  %3 = math.exp %w : f32
  return %0, %1, %2, %3 : vector<2xf64>, f32, f64, f32
}
// CHECK-LABEL: func.func @lanes
// CHECK: %[[L0:.*]] = vector.extract %{{.*}}[0] : f64 from vector<2xf64>
// CHECK: math.roundeven
// CHECK: %[[L1:.*]] = vector.extract %{{.*}}[1] : f64 from vector<2xf64>
// CHECK: vector.from_elements %{{.*}}, %{{.*}} : vector<2xf64>
// CHECK-NOT: math.exp {{.*}} : vector<2xf64>
// CHECK: math.log %{{.*}} : f32
// CHECK: math.sqrt %{{.*}} : f64
// CHECK: math.exp %{{.*}} : f32
// By default f32 computes in f64 too, rounded once; exp of f32 in f32: a
// Cody-Waite reduction by fused multiply-adds, a Taylor polynomial, and
// 2^k built from the exponent bits as two halves.
// F32-LABEL: func.func @lanes
// F32: %[[WIDE:.*]] = arith.extf %{{.*}} : f32 to f64
// F32: arith.truncf %{{.*}} : f64 to f32
// F32-NOT: math.log
// F32: math.sqrt %{{.*}} : f64
// F32: %[[K:.*]] = math.roundeven %{{.*}} : f32
// F32: math.fma %{{.*}}, %{{.*}}, %{{.*}} : f32
// F32: arith.shli %{{.*}} : i32
// F32: arith.bitcast %{{.*}} : i32 to f32
// F32-NOT: math.exp
// F32-NOT: f64
// F32: return
// Without Int64 only exp of f32 is computed in software (the device gets
// GLSL.std.450's other f32 functions).
// NOINT64-LABEL: func.func @lanes
// NOINT64: math.log %{{.*}} : f32
// NOINT64-NOT: math.exp %{{.*}} : f32
// NOINT64: return

func.func @sin(%x: f64) -> f64 {
  %0 = math.sin %x : f64
  return %0 : f64
}
// CHECK-LABEL: func.func @sin
// The first 24 bits of 2/pi (0xA2F983), one entry of the table that a tree
// of selects on the bits of the index reads (no array in memory).
// CHECK: arith.constant 0x41645F3060000000 : f64
// CHECK: arith.select
// CHECK-NOT: tensor.extract
// CHECK-NOT: math.sin

func.func @pow(%x: f64, %y: f64) -> f64 {
  %0 = math.powf %x, %y : f64
  return %0 : f64
}
// CHECK-LABEL: func.func @pow
// CHECK: arith.constant -134217728 : i64
// CHECK: arith.andi %{{.*}} : i64
// CHECK-NOT: math.powf
