// RUN: tilec-opt %s -tilec-cpu-keep-temporary-slots | FileCheck %s
//
// A malloc of a size made of constants that its function frees goes through
// a cache of its own; other mallocs and frees are left alone.

// CHECK: llvm.mlir.global internal @tilec_slot_cache()
// CHECK-NEXT: llvm.mlir.zero : !llvm.ptr
// CHECK-NOT: llvm.mlir.global

// CHECK-LABEL: llvm.func @entry
// CHECK: %[[AT:.*]] = llvm.mlir.addressof @tilec_slot_cache
// CHECK: %[[BLOCK:.*]] = llvm.call @tilec_slot_acquire(%[[AT]], %{{.*}})
// CHECK: llvm.ptrtoint %[[BLOCK]]
// CHECK: %[[AT2:.*]] = llvm.mlir.addressof @tilec_slot_cache
// CHECK: llvm.call @tilec_slot_release(%[[AT2]], %[[BLOCK]])
// CHECK-NOT: llvm.call @free
// CHECK: llvm.return
llvm.func @entry() {
  %null = llvm.mlir.zero : !llvm.ptr
  %end = llvm.getelementptr %null[4096] : (!llvm.ptr) -> !llvm.ptr, i8
  %size = llvm.ptrtoint %end : !llvm.ptr to i64
  %block = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  %address = llvm.ptrtoint %block : !llvm.ptr to i64
  llvm.call @free(%block) : (!llvm.ptr) -> ()
  llvm.return
}

// A size that depends on an argument could differ between calls; a block
// that is not freed here escapes.
// CHECK-LABEL: llvm.func @not_cached
// CHECK: llvm.call @malloc(%arg0)
// CHECK: llvm.call @free
// CHECK: llvm.call @malloc(%{{.*}})
// CHECK: llvm.return
llvm.func @not_cached(%n: i64) -> !llvm.ptr {
  %a = llvm.call @malloc(%n) : (i64) -> !llvm.ptr
  llvm.call @free(%a) : (!llvm.ptr) -> ()
  %c = llvm.mlir.constant(64 : i64) : i64
  %b = llvm.call @malloc(%c) : (i64) -> !llvm.ptr
  llvm.return %b : !llvm.ptr
}

// The cache's two functions: take the block or malloc; put it back or free.
// CHECK-LABEL: llvm.func internal @tilec_slot_acquire
// CHECK: llvm.atomicrmw xchg
// CHECK: llvm.icmp "eq"
// CHECK: llvm.cond_br
// CHECK: llvm.call @malloc
// CHECK-LABEL: llvm.func internal @tilec_slot_release
// CHECK: llvm.cmpxchg
// CHECK: llvm.cond_br
// CHECK: llvm.call @free

llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
