# Reference documentation generated from ODS.
#
#   accel_add_doc(<td file, no .td> <doc name> <mlir-tblgen doc command...>)
#
# generates build/docs/generated/<doc name>.md (part of the default build) and
# registers it with docs/CMakeLists.txt: `ninja accel-doc` copies every
# registered document to docs/generated/ in the source tree, and the
# `generated-docs` test fails when a committed copy differs from the ODS.
# One call per dialect (-gen-dialect-doc lists its ops, attributes, types and
# enums) and per Passes.td (-gen-pass-doc).
#
# This is add_mlir_doc without -allow-hugo-specific-features: the documents
# are read on the repository host, not through MLIR's Hugo site, where the
# Hugo shortcodes that flag adds would show as literal text.
function(accel_add_doc td_file doc_name)
  set(LLVM_TARGET_DEFINITIONS ${td_file}.td)
  tablegen(MLIR ${doc_name}.md ${ARGN})
  set(doc ${PROJECT_BINARY_DIR}/docs/generated/${doc_name}.md)
  add_custom_command(OUTPUT ${doc}
    COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_CURRENT_BINARY_DIR}/${doc_name}.md ${doc}
    DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/${doc_name}.md)
  add_custom_target(${doc_name}DocGen DEPENDS ${doc})
  add_dependencies(mlir-doc ${doc_name}DocGen)
  set_property(GLOBAL APPEND PROPERTY ACCEL_GENERATED_DOCS ${doc_name})
endfunction()
