# ctest `generated-docs`: every document registered with accel_add_doc must
# be committed in docs/generated/ exactly as the ODS of this tree generates
# it (cmake -DBUILT_DIR=... -DCOMMITTED_DIR=... -DDOCS=a;b -P this file).
set(stale "")
foreach(doc ${DOCS})
  set(built ${BUILT_DIR}/${doc}.md)
  set(committed ${COMMITTED_DIR}/${doc}.md)
  if(NOT EXISTS ${built})
    message(FATAL_ERROR "${built} does not exist: build the project first")
  endif()
  if(NOT EXISTS ${committed})
    list(APPEND stale "${doc}.md (missing)")
    continue()
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${built} ${committed}
                  RESULT_VARIABLE differs)
  if(differs)
    list(APPEND stale "${doc}.md")
  endif()
endforeach()
if(stale)
  list(JOIN stale ", " stale)
  message(FATAL_ERROR
    "docs/generated/ is stale (${stale}): the ODS (.td) changed since the "
    "reference was generated. Refresh and commit it with\n"
    "  ninja -C build accel-doc && git add docs/generated")
endif()
message(STATUS "docs/generated/: ${DOCS} match the ODS")
