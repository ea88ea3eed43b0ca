// Every verifier error of the tilec dialect's attributes, one case per split.
// RUN: tilec-opt %s -split-input-file -verify-diagnostics

// Block sizes are at least 0.
// expected-error @+1 {{invalid #tilec.schedule: 'block' holds -1, below 0}}
func.func @f() attributes {tilec.schedule = #tilec.schedule<block = [-1]>} {
  return
}

// -----

// Thread sizes are at least 1.
// expected-error @+1 {{invalid #tilec.schedule: 'thread' holds 0, below 1}}
func.func @f() attributes {tilec.schedule = #tilec.schedule<thread = [4, 0]>} {
  return
}

// -----

// The vector width is at least 1.
// expected-error @+1 {{invalid #tilec.schedule: 'vector' must be an integer >= 1}}
func.func @f() attributes {tilec.schedule = #tilec.schedule<vector = 0>} {
  return
}

// -----

// The unroll factor is at least 1.
// expected-error @+1 {{invalid #tilec.schedule: 'unroll' must be an integer >= 1}}
func.func @f() attributes {tilec.schedule = #tilec.schedule<unroll = 0>} {
  return
}

// -----

// The order is a permutation.
// expected-error @+1 {{invalid #tilec.schedule: 'order' must be a permutation of 0..N-1}}
func.func @f() attributes {tilec.schedule = #tilec.schedule<order = [1, 1]>} {
  return
}

// -----

// A field the schedule does not have.
// expected-error @+1 {{duplicate or unknown struct parameter name: tile}}
func.func @f() attributes {tilec.schedule = #tilec.schedule<tile = [4]>} {
  return
}

// -----

// Stage flags are true or false.
// expected-error @+2 {{expected 'false' or 'true'}}
// expected-error @+1 {{failed to parse Kernel_ScheduleAttr parameter 'stage'}}
func.func @f() attributes {tilec.schedule = #tilec.schedule<stage = [1]>} {
  return
}

// -----

// `tilec.schedule` holds a #tilec.schedule, not a dictionary.
// expected-error @+1 {{'tilec.schedule' must be a #tilec.schedule}}
func.func @f() attributes {tilec.schedule = {block = array<i64: 4>}} {
  return
}

// -----

// A kernel's name is a string.
func.func @f() {
  // expected-error @+1 {{'tilec.kernel' must be a string}}
  affine.for %i = 0 to 4 {
  } {tilec.kernel = 3 : i64}
  return
}

// -----

// The entry mark is a unit attribute.
// expected-error @+1 {{'tilec.entry' must be a unit attribute}}
func.func @f() attributes {tilec.entry = "yes"} {
  return
}

// -----

// Names are arrays of strings.
// expected-error @+1 {{'tilec.input_names' must be an array of strings}}
func.func @f() attributes {tilec.input_names = [1]} {
  return
}

// -----

// Every tilec.* name is declared by the dialect.
// expected-error @+1 {{'tilec.kernal' is not an attribute of the tilec dialect}}
func.func @f() attributes {tilec.kernal = "k"} {
  return
}

// -----

// expected-error @+1 {{'tilec.gpu_target' must be a #tilec.gpu_target}}
module attributes {tilec.gpu_target = #tilec.schedule<>} {
}

// -----

// expected-error @+1 {{invalid #tilec.gpu_target: 'local_mem_bytes' is -1, below 0}}
module attributes {tilec.gpu_target = #tilec.gpu_target<local_mem_bytes = -1>} {
}
