//===- LLVMTranslation.h - The CPU back end as translations -----*- C++ -*-===//
//
// The CPU back end's emitters as tilec-translate translations on a
// loop-level module (docs/architecture.md, "The loop level"), so that they
// are tested on hand-written IR apart from the front end:
//
//   --tilec-to-llvmir    the optimised LLVM IR
//   --tilec-to-asm       assembly for the chosen CPU
//   --tilec-to-object    an ELF object (what `tilec --target=llvm-x86 -o
//                        model.o` writes)
//   --tilec-to-c-header  the C header declaring the entry (model.h)
//
// Their options: --cpu=NAME (default: native; the default schedules are
// made for that CPU too), -O0..-O3 (default 2), --no-parallel (no OpenMP),
// --symbol=NAME (the entry's C name; object and header default to
// tile_model, what `tilec -o -` names it) and --num-outputs=N (how many
// trailing arguments are outputs when the entry has no tilec.output_names).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_LLVM_LLVMTRANSLATION_H
#define TILEC_TARGET_LLVM_LLVMTRANSLATION_H

namespace tilec {

/// Registers the translations above and their options. Call once, before
/// the command line is parsed.
void registerLLVMTranslations();

} // namespace tilec

#endif // TILEC_TARGET_LLVM_LLVMTRANSLATION_H
