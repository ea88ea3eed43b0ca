// The CPU is named once (CPUCodeGen.h): the default schedules are made for
// the --cpu the code is generated for, whatever the host is. x86-64 has
// 16-byte SSE registers, so the kernel is vectorised 4 floats at a time and
// the assembly uses xmm registers only; skylake-avx512 has 64-byte ones, so
// 16 floats at a time in zmm registers.
// RUN: tilec-translate --tilec-to-llvmir --cpu=x86-64 --no-parallel %s \
// RUN:   | FileCheck %s --check-prefix=SSE
// RUN: tilec-translate --tilec-to-asm --cpu=x86-64 --no-parallel %s \
// RUN:   | FileCheck %s --check-prefix=SSE-ASM
// RUN: tilec-translate --tilec-to-llvmir --cpu=skylake-avx512 --no-parallel \
// RUN:   %s | FileCheck %s --check-prefix=AVX512
// RUN: tilec-translate --tilec-to-asm --cpu=skylake-avx512 --no-parallel %s \
// RUN:   | FileCheck %s --check-prefix=AVX512-ASM

// SSE: fmul {{.*}}<4 x float>
// SSE-NOT: <8 x float>
// SSE-NOT: <16 x float>
// SSE-ASM: mulps {{.*}}%xmm
// SSE-ASM-NOT: %ymm
// SSE-ASM-NOT: %zmm

// AVX512: fmul {{.*}}<16 x float>
// AVX512-ASM: vmulps {{.*}}%zmm
func.func @main(%X: memref<64x256xf32>, %Y: memref<64x256xf32>)
    attributes {tilec.entry} {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 256 {
      %x = affine.load %X[%i, %j] : memref<64x256xf32>
      %m = arith.mulf %x, %x : f32
      affine.store %m, %Y[%i, %j] : memref<64x256xf32>
    }
  } {tilec.kernel = "square"}
  return
}
