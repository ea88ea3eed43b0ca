// RUN: tilec-opt %s -split-input-file -convert-tile-to-loops -verify-diagnostics

// Only tile ops can be lowered.
func.func @foreign(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{is not a tile op}}
  %r = arith.addf %a, %a : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Shapes must be static.
// expected-error @+1 {{expects static-shaped tensor arguments and results}}
func.func @dynamic(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
}
