# Helpers shared by tilec's CMake files.
#
# add_tilec_library(NAME SOURCES... [LINK_LIBS libs...] [LLVM_COMPONENTS...])
#   A plain C++ library of tilec's own code. It links LLVM through libLLVM.so
#   (Debian builds LLVM with LLVM_LINK_LLVM_DYLIB) and is compiled without
#   exceptions, like LLVM itself.
function(add_tilec_library name)
  cmake_parse_arguments(ARG "" "" "LINK_LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  llvm_update_compile_flags(${name})
  target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS} LLVM)
endfunction()

# add_tilec_tool(NAME SOURCES... [EH]): an executable in build/bin. EH turns
# on C++ exceptions for targets that use CLI11 or Catch2, which throw.
function(add_tilec_tool name)
  cmake_parse_arguments(ARG "EH" "" "" ${ARGN})
  if(ARG_EH)
    set(LLVM_REQUIRES_EH ON)
  endif()
  add_llvm_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  llvm_update_compile_flags(${name})
endfunction()

# add_tilec_runtime_library(NAME SOURCES... [LINK_LIBS libs...])
#   A library of the LLVM-free layer (host data, device runtimes): it links no
#   LLVM and builds in the runtime-only configuration (TILEC_RUNTIME_ONLY),
#   with gcc as well as clang. Exceptions are on for nlohmann-json, which
#   reports malformed JSON by throwing; they never leave the library.
function(add_tilec_runtime_library name)
  cmake_parse_arguments(ARG "" "" "LINK_LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  target_compile_options(${name} PRIVATE -fexceptions)
  target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS})
endfunction()
