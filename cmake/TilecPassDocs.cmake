# Pass documentation generated from the Passes.td descriptions.
#
# add_tilec_pass_doc(NAME TITLE)
#   docs/passes/NAME.md from the Passes.td of the calling directory:
#   mlir-tblgen -gen-pass-doc under a title. The page is built into
#   build/docs/passes with everything else (target tilec-pass-docs), and
#   test/Docs/pass-docs.test fails when the checked-in docs/passes differ;
#   `ninja tilec-update-pass-docs` copies the built pages there. A Passes.td
#   that moves takes its add_tilec_pass_doc line with it.
set(TILEC_PASS_DOC_DIR ${PROJECT_BINARY_DIR}/docs/passes)
add_custom_target(tilec-pass-docs ALL)
add_custom_target(tilec-update-pass-docs)

function(add_tilec_pass_doc name title)
  set(LLVM_TARGET_DEFINITIONS Passes.td)
  mlir_tablegen(${name}.passes.md -gen-pass-doc)
  set(raw ${CMAKE_CURRENT_BINARY_DIR}/${name}.passes.md)
  set(page ${TILEC_PASS_DOC_DIR}/${name}.md)
  file(RELATIVE_PATH source ${PROJECT_SOURCE_DIR}
       ${CMAKE_CURRENT_SOURCE_DIR}/Passes.td)
  add_custom_command(OUTPUT ${page}
    COMMAND ${CMAKE_COMMAND} "-DTITLE=${title}" -DSOURCE=${source}
            -DINPUT=${raw} -DOUTPUT=${page}
            -P ${PROJECT_SOURCE_DIR}/cmake/WritePassDoc.cmake
    DEPENDS ${raw} ${PROJECT_SOURCE_DIR}/cmake/WritePassDoc.cmake
    COMMENT "Writing docs/passes/${name}.md" VERBATIM)
  add_custom_target(tilec-pass-doc-${name} DEPENDS ${page})
  add_dependencies(tilec-pass-docs tilec-pass-doc-${name})
  add_custom_target(tilec-update-pass-doc-${name}
    COMMAND ${CMAKE_COMMAND} -E copy ${page}
            ${PROJECT_SOURCE_DIR}/docs/passes/${name}.md
    DEPENDS ${page})
  add_dependencies(tilec-update-pass-docs tilec-update-pass-doc-${name})
endfunction()
