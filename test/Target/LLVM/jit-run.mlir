// The JIT runs the loop level on the host: the same results at every -O
// level, with and without OpenMP.
// RUN: tilec-cpu %S/Inputs/matmul-loops.mlir --emit=run | FileCheck %s
// RUN: tilec-cpu %S/Inputs/matmul-loops.mlir --emit=run -O0 | FileCheck %s
// RUN: tilec-cpu %S/Inputs/matmul-loops.mlir --emit=run -O3 --no-parallel \
// RUN:   | FileCheck %s
// RUN: tilec-cpu %s --emit=run | FileCheck %s --check-prefix=INT

// A = [[-5, 2, -2], [5, 1, -3]], B = [[-2, 5], [1, -3], [4, 0]] (input k,
// element i is ((7 i + 3 k) mod 11) - 5).
// CHECK: C: 4 -31 -21 22

// Integer division by zero gives 0 when guarded with select, as the loop
// level does; i8 arithmetic wraps.
// X = [-5, 2, -2, 5, 1, -3, 4, 0, -4, 3, -1]; Q = X / (X - 3), W = 2 X
// INT: Q: 0 -2 0 2 0 0 4 0 0 0 0
// INT: W: -10 4 -4 10 2 -6 8 0 -8 6 -2
func.func @ints(%X: memref<11xi8>, %Q: memref<11xi8>, %W: memref<11xi8>)
    attributes {tilec.entry, tilec.input_names = ["X"],
                tilec.output_names = ["Q", "W"]} {
  affine.for %i = 0 to 11 {
    %x = affine.load %X[%i] : memref<11xi8>
    %three = arith.constant 3 : i8
    %zero = arith.constant 0 : i8
    %d = arith.subi %x, %three : i8
    %isZero = arith.cmpi eq, %d, %zero : i8
    %one = arith.constant 1 : i8
    %safe = arith.select %isZero, %one, %d : i8
    %q = arith.divsi %x, %safe : i8
    %r = arith.select %isZero, %zero, %q : i8
    affine.store %r, %Q[%i] : memref<11xi8>
    %w = arith.addi %x, %x : i8
    affine.store %w, %W[%i] : memref<11xi8>
  }
  return
}
