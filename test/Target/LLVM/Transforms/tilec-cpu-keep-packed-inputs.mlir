// RUN: tilec-opt %s -tilec-cpu-keep-packed-inputs | FileCheck %s
//
// A kernel function whose argument 1 is packed (its buffer and flag
// tagged, as tilec-cpu-apply-schedule leaves them), called with the
// entry's input B, with a temporary and with the entry's output C.

// The buffer kept for the call with input 1, and the flags: one byte per
// input, public, all 1 (each call packs into its own buffer).
// CHECK-DAG: memref.global "private" @kernel_panels0_input1 : memref<128xf32> = uninitialized {alignment = 64 : i64}
// CHECK-DAG: memref.global @main_changed_inputs : memref<2xi8> = dense<1> {alignment = 64 : i64}

// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[A:.*]]: memref<7x8xf32>, %[[B:.*]]: memref<8x16xf32>, %[[C:.*]]: memref<8x16xf32>)
// The input: its byte, loaded once, chooses the buffer (1: the call's own,
// else the kept one) and whether to pack (not 0).
// CHECK:         %[[OWN0:.*]] = memref.alloc() : memref<128xf32>
// CHECK:         %[[KEPT:.*]] = memref.get_global @kernel_panels0_input1 : memref<128xf32>
// CHECK:         %[[FLAGS:.*]] = memref.get_global @main_changed_inputs : memref<2xi8>
// CHECK:         %[[BYTE:.*]] = memref.load %[[FLAGS]][%c1] : memref<2xi8>
// CHECK:         %[[C1:.*]] = arith.constant 1 : i8
// CHECK:         %[[IS_OWN:.*]] = arith.cmpi eq, %[[BYTE]], %[[C1]] : i8
// CHECK:         %[[PANELS:.*]] = arith.select %[[IS_OWN]], %[[OWN0]], %[[KEPT]] : memref<128xf32>
// CHECK-NOT:     memref.load
// CHECK:         %[[C0:.*]] = arith.constant 0 : i8
// CHECK:         %[[PACK:.*]] = arith.cmpi ne, %[[BYTE]], %[[C0]] : i8
// CHECK:         call @kernel(%[[A]], %[[B]], %[[C]], %[[PANELS]], %[[PACK]]) {tilec.kernel = "k"}
// CHECK-NEXT:    memref.dealloc %[[OWN0]] : memref<128xf32>
// A temporary: a buffer of the call, and true.
// CHECK:         %[[T:.*]] = memref.alloc() : memref<8x16xf32>
// CHECK:         %[[OWN:.*]] = memref.alloc() : memref<128xf32>
// CHECK:         %[[TRUE:.*]] = arith.constant true
// CHECK:         call @kernel(%[[A]], %[[T]], %[[C]], %[[OWN]], %[[TRUE]]) {tilec.kernel = "k"}
// CHECK-NEXT:    memref.dealloc %[[OWN]] : memref<128xf32>
// An output is not an input: the same.
// CHECK:         %[[OWN2:.*]] = memref.alloc() : memref<128xf32>
// CHECK:         call @kernel(%[[A]], %[[C]], %[[C]], %[[OWN2]], %{{.*}})
// CHECK-NEXT:    memref.dealloc %[[OWN2]] : memref<128xf32>
func.func @main(%A: memref<7x8xf32>, %B: memref<8x16xf32>, %C: memref<8x16xf32>)
    attributes {tilec.entry, tilec.input_names = ["A", "B"], tilec.output_names = ["C"]} {
  call @kernel(%A, %B, %C) {tilec.kernel = "k"} : (memref<7x8xf32>, memref<8x16xf32>, memref<8x16xf32>) -> ()
  %T = memref.alloc() : memref<8x16xf32>
  call @kernel(%A, %T, %C) {tilec.kernel = "k"} : (memref<7x8xf32>, memref<8x16xf32>, memref<8x16xf32>) -> ()
  memref.dealloc %T : memref<8x16xf32>
  call @kernel(%A, %C, %C) {tilec.kernel = "k"} : (memref<7x8xf32>, memref<8x16xf32>, memref<8x16xf32>) -> ()
  return
}

// The kernel takes the buffer and the flag as its last arguments; the
// tagged ops and the buffer's dealloc are gone.
// CHECK-LABEL: func.func private @kernel
// CHECK-SAME:    (%{{.*}}: memref<7x8xf32>, %[[KB:.*]]: memref<8x16xf32>, %{{.*}}: memref<8x16xf32>, %[[PANELS:.*]]: memref<128xf32>, %[[REPACK:.*]]: i1)
// CHECK-NOT:     tilec.packed_argument
// CHECK-NOT:     tilec.repack_argument
// CHECK:         scf.if %[[REPACK]] {
// CHECK:           memref.store %{{.*}}, %[[PANELS]]
// CHECK:         memref.load %[[PANELS]]
// CHECK-NOT:     memref.dealloc
// CHECK:         return
func.func private @kernel(%A: memref<7x8xf32>, %B: memref<8x16xf32>, %C: memref<8x16xf32>) {
  %panels = memref.alloc() {tilec.packed_argument = 1 : i64} : memref<128xf32>
  %repack = arith.constant {tilec.repack_argument = 1 : i64} true
  %c0 = arith.constant 0 : index
  scf.if %repack {
    %b = memref.load %B[%c0, %c0] : memref<8x16xf32>
    memref.store %b, %panels[%c0] : memref<128xf32>
  }
  %p = memref.load %panels[%c0] : memref<128xf32>
  memref.store %p, %C[%c0, %c0] : memref<8x16xf32>
  memref.dealloc %panels : memref<128xf32>
  return
}
