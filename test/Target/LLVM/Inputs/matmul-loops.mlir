// Loop-level C = A x B (f32[2,3] x f32[3,2]), the form convert-tile-to-loops
// produces: memref arguments (inputs, then outputs), affine loops, a
// reduction carried in iter_args, and an outer loop that is parallel.
func.func @main(%A: memref<2x3xf32>, %B: memref<3x2xf32>, %C: memref<2x2xf32>)
    attributes {tilec.entry, tilec.input_names = ["A", "B"],
                tilec.output_names = ["C"]} {
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 2 {
      %zero = arith.constant 0.0 : f32
      %sum = affine.for %k = 0 to 3 iter_args(%acc = %zero) -> f32 {
        %a = affine.load %A[%i, %k] : memref<2x3xf32>
        %b = affine.load %B[%k, %j] : memref<3x2xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %sum, %C[%i, %j] : memref<2x2xf32>
    }
  } {tilec.kernel = "C", tilec.fingerprint = "0"}
  return
}
