//===- KernelAttrs.td - #tilec.schedule and friends ----------*- tablegen -*-===//
//
// The attributes of the tilec dialect. A schedule's fields, their defaults
// and their meaning are those of schedule::KernelSchedule
// (include/tilec/Schedule/Schedule.h); the verifier checks the same rules as
// a schedule file (validateSchedule).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_KERNEL_IR_KERNELATTRS_TD
#define TILEC_DIALECT_KERNEL_IR_KERNELATTRS_TD

include "tilec/Dialect/Kernel/IR/KernelBase.td"

/// A list written `[a, b, c]` (`[]` when empty); omitted when empty.
class Kernel_ListParameter<string element, string desc>
    : OptionalArrayRefParameter<element, desc> {
  let parser = "parseBracketList<" # element # ">($_parser)";
  let printer = "printBracketList($_printer, $_self)";
}

def Kernel_ScheduleAttr : Kernel_Attr<"Schedule", "schedule"> {
  let summary = "how one kernel is tiled and mapped";
  let description = [{
    The schedule of one kernel, on its outermost loop. Fields may come in any
    order and a field at its default is left out when printed, so a new field
    (with a default) changes no existing IR.

    ```mlir
    #tilec.schedule<block = [64, 64, 0], thread = [4, 8], vector = 4,
                    stage = [true, false], order = [1, 0]>
    ```
  }];
  // One line per field; add the same field to schedule::KernelSchedule and
  // to ScheduleAttr::get/getSchedule/verify in KernelAttrs.cpp.
  let parameters = (ins
    Kernel_ListParameter<"int64_t", "elements per block, per loop">:$block,
    Kernel_ListParameter<"int64_t", "elements per thread, per loop">:$thread,
    DefaultValuedParameter<"int64_t", "1", "SIMD width">:$vector,
    DefaultValuedParameter<"int64_t", "1", "innermost unroll">:$unroll,
    Kernel_ListParameter<"bool", "operands staged in local memory">:$stage,
    Kernel_ListParameter<"int64_t", "permutation of the block loops">:$order
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "const ::tilec::schedule::KernelSchedule &":$schedule)>
  ];
  let extraClassDeclaration = [{
    /// The schedule as plain data (what schedule files and the cost model
    /// use); ScheduleAttr::get(context, schedule) is the way back, and
    /// getChecked(emitError, context, schedule) the way that reports a
    /// schedule breaking the rules instead of building it.
    ::tilec::schedule::KernelSchedule getSchedule() const;
  }];
}

#endif // TILEC_DIALECT_KERNEL_IR_KERNELATTRS_TD
