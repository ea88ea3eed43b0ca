//===- KernelAttrs.td - #tilec.schedule and #tilec.gpu_target -*- tablegen -*-===//
//
// The attributes of the tilec dialect. A schedule's fields, their defaults
// and their meaning are those of schedule::KernelSchedule
// (include/tilec/Schedule/Schedule.h); the verifier checks the same rules as
// a schedule file (validateSchedule). A GPU target's are those of
// schedule::DeviceProfile (include/tilec/Schedule/DeviceProfile.h).
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
    Kernel_ListParameter<"int64_t", "permutation of the block loops">:$order,
    Kernel_ListParameter<"int64_t", "elements per subgroup tile, per loop">:$warp,
    DefaultValuedParameter<"int64_t", "1", "staged tiles per operand">:$buffers,
    DefaultValuedParameter<"int64_t", "1", "slices of the reduction">:$split,
    DefaultValuedParameter<"int64_t", "0", "work-items per row">:$row,
    DefaultValuedParameter<"int64_t", "0", "warp tiles on tensor cores">:$mma,
    DefaultValuedParameter<"int64_t", "0", "cp.async buffers">:$pipeline
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

/// A parameter whose default is DeviceProfile's (include/tilec/Schedule/
/// DeviceProfile.h), so the defaults are written once.
class Kernel_ProfileParameter<string type, string member, string desc>
    : DefaultValuedParameter<type, "::tilec::schedule::DeviceProfile()." # member,
                             desc>;

/// `true` or `false`.
class Kernel_ProfileFlag<string member, string desc>
    : Kernel_ProfileParameter<"bool", member, desc> {
  let parser = "parseFlag($_parser)";
  let printer = "$_printer << ($_self ? \"true\" : \"false\")";
}

/// A floating-point number (an APFloat, which the attribute storage can
/// hash), printed exactly (17 significant digits).
class Kernel_ProfileReal<string member, string desc>
    : APFloatParameter<desc> {
  let defaultValue =
      "::llvm::APFloat(::tilec::schedule::DeviceProfile()." # member # ")";
  let parser = "parseReal($_parser)";
  let printer = "printReal($_printer, $_self)";
}

def Kernel_GPUTargetAttr : Kernel_Attr<"GPUTarget", "gpu_target"> {
  let summary = "the device a module's GPU kernels are compiled for";
  let description = [{
    The device facts every GPU pass reads (docs/architecture.md, "Three
    things that exist once"): a schedule::DeviceProfile on the IR, built once
    from the device's profile and put on the builtin module as
    `tilec.gpu_target`. Passes take it from the nearest enclosing op that
    carries one; without one they compile for the default profile (limits
    every OpenCL 1.2 and Vulkan 1.1 GPU supports). Fields may come in any
    order and a field at its default is left out when printed.

    ```mlir
    module attributes {tilec.gpu_target = #tilec.gpu_target<
        device = "opencl:nvidia:nvidia-h200:0", compute_units = 132,
        max_workgroup_size = 1024, local_mem_bytes = 49152, fp16 = false>} {
    }
    ```
  }];
  // One line per DeviceProfile field, named as in snake case; add a field
  // there, here and in GPUTargetAttr::get/getProfile (KernelAttrs.cpp).
  let parameters = (ins
    StringRefParameter<"rt::DeviceInfo::id; empty: no device known",
                       [{""}]>:$device,
    Kernel_ProfileFlag<"isCPU", "a CPU device">:$cpu,
    Kernel_ProfileParameter<"int64_t", "computeUnits", "">:$compute_units,
    Kernel_ProfileReal<"clockMHz", "0: unknown">:$clock_mhz,
    Kernel_ProfileParameter<"int64_t", "maxWorkGroupSize",
                            "work-items per work-group">:$max_workgroup_size,
    Kernel_ProfileParameter<"int64_t", "maxWorkItemSizes[0]",
                            "work-items along x">:$max_workitem_size_x,
    Kernel_ProfileParameter<"int64_t", "maxWorkItemSizes[1]",
                            "work-items along y">:$max_workitem_size_y,
    Kernel_ProfileParameter<"int64_t", "maxWorkItemSizes[2]",
                            "work-items along z">:$max_workitem_size_z,
    Kernel_ProfileParameter<"int64_t", "localMemBytes",
                            "per work-group">:$local_mem_bytes,
    Kernel_ProfileParameter<"int64_t", "subgroupSize", "">:$subgroup_size,
    Kernel_ProfileParameter<"int64_t", "preferredVectorWidth",
                            "floats">:$preferred_vector_width,
    Kernel_ProfileParameter<"int64_t", "l1Bytes", "">:$l1_bytes,
    Kernel_ProfileParameter<"int64_t", "l2Bytes", "">:$l2_bytes,
    Kernel_ProfileParameter<"int64_t", "cacheLineBytes", "">:$cache_line_bytes,
    Kernel_ProfileParameter<"int64_t", "vectorBytes", "CPU SIMD">:$vector_bytes,
    Kernel_ProfileParameter<"int64_t", "vectorRegisters",
                            "CPU SIMD">:$vector_registers,
    Kernel_ProfileReal<"peakBytesPerSecond",
                       "measured; 0: not">:$peak_bytes_per_second,
    Kernel_ProfileReal<"peakFlopsPerSecond",
                       "measured; 0: not">:$peak_flops_per_second,
    Kernel_ProfileParameter<"int64_t", "spirvVersionMinor",
                            "SPIR-V 1.<minor>">:$spirv_version,
    Kernel_ProfileFlag<"fp16", "">:$fp16,
    Kernel_ProfileFlag<"fp64", "">:$fp64,
    Kernel_ProfileFlag<"int8", "">:$int8,
    Kernel_ProfileFlag<"int16", "">:$int16,
    Kernel_ProfileFlag<"int64", "">:$int64,
    Kernel_ProfileFlag<"storage8Bit", "">:$storage8,
    Kernel_ProfileFlag<"storage16Bit", "">:$storage16,
    Kernel_ProfileFlag<"subgroups", "">:$subgroups,
    Kernel_ProfileFlag<"subgroupShuffle", "row reductions by XOR shuffles">:$subgroup_shuffle,
    Kernel_ProfileFlag<"infNanPreserve16", "">:$inf_nan_preserve_16,
    Kernel_ProfileFlag<"infNanPreserve32", "">:$inf_nan_preserve_32,
    Kernel_ProfileFlag<"infNanPreserve64", "">:$inf_nan_preserve_64,
    Kernel_ProfileFlag<"denormPreserve16", "">:$denorm_preserve_16,
    Kernel_ProfileFlag<"denormPreserve32", "">:$denorm_preserve_32,
    Kernel_ProfileFlag<"denormPreserve64", "">:$denorm_preserve_64,
    Kernel_ProfileParameter<"uint64_t", "maxLoopIterations",
                            "0: no limit">:$max_loop_iterations,
    Kernel_ProfileParameter<"int64_t", "computeCapability",
                            "CUDA, major * 10 + minor">:$compute_capability,
    Kernel_ProfileParameter<"int64_t", "sharedMemOptInBytes",
                            "CUDA, shared memory a block opts in to">:$shared_mem_opt_in_bytes
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "const ::tilec::schedule::DeviceProfile &":$profile)>
  ];
  let extraClassDeclaration = [{
    /// The profile as plain data (what the cost model and the passes use);
    /// GPUTargetAttr::get(context, profile) is the way back.
    ::tilec::schedule::DeviceProfile getProfile() const;
  }];
}

#endif // TILEC_DIALECT_KERNEL_IR_KERNELATTRS_TD
