// C = A x B, f32[6,8] x f32[8,16], scheduled so that B's panels are packed
// per lane tile (two full tiles of 3 rows: no remainder row reading B).
func.func @main(%A: memref<6x8xf32>, %B: memref<8x16xf32>, %C: memref<6x16xf32>)
    attributes {tilec.entry, tilec.input_names = ["A", "B"],
                tilec.output_names = ["C"]} {
  affine.for %m = 0 to 6 {
    affine.for %n = 0 to 16 {
      %zero = arith.constant 0.0 : f32
      %sum = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> f32 {
        %a = affine.load %A[%m, %k] : memref<6x8xf32>
        %b = affine.load %B[%k, %n] : memref<8x16xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %sum, %C[%m, %n] : memref<6x16xf32>
    }
  } {tilec.kernel = "C", tilec.fingerprint = "0",
     tilec.schedule = #tilec.schedule<block = [0, 8], thread = [3, 8],
                                      vector = 4, order = [1, 0]>}
  return
}
