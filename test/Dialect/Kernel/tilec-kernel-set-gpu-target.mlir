// tilec-kernel-set-gpu-target puts its `target` on the module as
// tilec.gpu_target, replacing one that is there; fields it does not name keep
// the default profile's values (and are not printed).
// RUN: tilec-opt %s -split-input-file \
// RUN:   '--tilec-kernel-set-gpu-target=target=#tilec.gpu_target<local_mem_bytes=49152,fp16=false>' \
// RUN:   | FileCheck %s
// RUN: tilec-opt %s -split-input-file --tilec-kernel-set-gpu-target | FileCheck %s --check-prefix=DEFAULT
// RUN: not tilec-opt %s -split-input-file '--tilec-kernel-set-gpu-target=target=#tilec.schedule<>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOTTARGET
// RUN: not tilec-opt %s -split-input-file '--tilec-kernel-set-gpu-target=target=#tilec.gpu_target<compute_units=0>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INVALID

// CHECK: module attributes {tilec.gpu_target = #tilec.gpu_target<local_mem_bytes = 49152, fp16 = false>}
// DEFAULT: module attributes {tilec.gpu_target = #tilec.gpu_target<>}
// NOTTARGET: error: tilec-kernel-set-gpu-target: '#tilec.schedule<>' is not a #tilec.gpu_target
// INVALID: error: invalid #tilec.gpu_target: 'compute_units' is 0, below 1
module {
}

// -----

// CHECK: module attributes {tilec.gpu_target = #tilec.gpu_target<local_mem_bytes = 49152, fp16 = false>}
// DEFAULT: module attributes {tilec.gpu_target = #tilec.gpu_target<>}
module attributes {tilec.gpu_target = #tilec.gpu_target<compute_units = 4>} {
}
