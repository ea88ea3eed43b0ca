// Loop-level `main` of examples/matmul.tile (C = A x B, A: f32[4, 6],
// B: f32[6, 5]), for the embed test that does not need the front end.
func.func @main(%A: memref<4x6xf32>, %B: memref<6x5xf32>, %C: memref<4x5xf32>)
    attributes {tilec.entry, tilec.input_names = ["A", "B"],
                tilec.output_names = ["C"]} {
  affine.for %m = 0 to 4 {
    affine.for %n = 0 to 5 {
      %zero = arith.constant 0.0 : f32
      %sum = affine.for %k = 0 to 6 iter_args(%acc = %zero) -> f32 {
        %a = affine.load %A[%m, %k] : memref<4x6xf32>
        %b = affine.load %B[%k, %n] : memref<6x5xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %sum, %C[%m, %n] : memref<4x5xf32>
    }
  }
  return
}
