// tilec-ptx-math-to-intrinsics: the math ops NVPTX has exactly (and float
// min/max) become calls of LLVM intrinsics, vectors included, so that
// convert-gpu-to-nvvm does not send them to libdevice; a math op without
// such an intrinsic is an error at it.
// RUN: tilec-opt --tilec-ptx-math-to-intrinsics %s -split-input-file -verify-diagnostics | FileCheck %s

func.func @exact(%x: f32, %y: f64, %v: vector<4xf32>) -> (f32, f64, vector<4xf32>) {
  %0 = math.sqrt %x : f32
  %1 = math.floor %0 : f32
  %2 = math.ceil %1 : f32
  %3 = math.absf %2 : f32
  %4 = math.round %3 : f32
  %5 = math.roundeven %4 : f32
  %6 = math.copysign %5, %x : f32
  %7 = arith.maxnumf %6, %x : f32
  %8 = arith.minimumf %7, %x : f32
  %9 = math.fma %y, %y, %y : f64
  %10 = arith.maximumf %v, %v : vector<4xf32>
  return %8, %9, %10 : f32, f64, vector<4xf32>
}
// CHECK-LABEL: func.func @exact
// CHECK: llvm.call_intrinsic "llvm.sqrt"(%{{.*}}) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.floor"
// CHECK: llvm.call_intrinsic "llvm.ceil"
// CHECK: llvm.call_intrinsic "llvm.fabs"
// CHECK: llvm.call_intrinsic "llvm.round"
// CHECK: llvm.call_intrinsic "llvm.roundeven"
// CHECK: llvm.call_intrinsic "llvm.copysign"(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.maxnum"
// CHECK: llvm.call_intrinsic "llvm.minimum"
// CHECK: llvm.call_intrinsic "llvm.fma"(%{{.*}}, %{{.*}}, %{{.*}}) : (f64, f64, f64) -> f64
// CHECK: llvm.call_intrinsic "llvm.maximum"(%{{.*}}, %{{.*}}) : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK-NOT: math.
// CHECK-NOT: arith.max

// -----

// Division of f32 is PTX's div.full.f32, lane by lane for vectors; f64
// division stays IEEE.
func.func @divide(%x: f32, %v: vector<2xf32>, %d: f64) -> (f32, vector<2xf32>, f64) {
  %0 = arith.divf %x, %x : f32
  %1 = arith.divf %v, %v : vector<2xf32>
  %2 = arith.divf %d, %d : f64
  return %0, %1, %2 : f32, vector<2xf32>, f64
}
// CHECK-LABEL: func.func @divide
// CHECK: llvm.inline_asm "div.full.f32 $0, $1, $2;", "=f,f,f" %{{.*}}, %{{.*}} : (f32, f32) -> f32
// CHECK: vector.extract %{{.*}}[0] : f32 from vector<2xf32>
// CHECK: llvm.inline_asm "div.full.f32
// CHECK: llvm.inline_asm "div.full.f32
// CHECK: vector.from_elements
// CHECK: arith.divf %{{.*}}, %{{.*}} : f64

// -----

func.func @left_over(%x: f32) -> f32 {
  // expected-error @+1 {{'math.exp' has no PTX lowering without libdevice}}
  %0 = math.exp %x : f32
  return %0 : f32
}
