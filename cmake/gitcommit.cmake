# Writes OUT, a header naming the git commit the sources in SRC are at, for
# wingen version: WINGEN_GIT_COMMIT (40 hex digits, or "unknown" outside a
# git checkout of SRC itself, or without git) and WINGEN_GIT_TREE
# ("clean", "dirty": tracked files changed, or "unknown").  Run at every
# build; OUT is rewritten only when it would change, so a build at the
# same commit recompiles nothing.
#   cmake -DSRC=DIR -DOUT=FILE -P gitcommit.cmake
set(commit unknown)
set(tree unknown)
find_program(GIT git)
if(GIT)
  execute_process(COMMAND ${GIT} -C ${SRC} rev-parse --show-toplevel
                  OUTPUT_VARIABLE top RESULT_VARIABLE rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  # A tarball unpacked inside another repository is not that repository.
  if(rc EQUAL 0)
    get_filename_component(top "${top}" REALPATH)
    get_filename_component(src "${SRC}" REALPATH)
  endif()
  if(rc EQUAL 0 AND top STREQUAL src)
    execute_process(COMMAND ${GIT} -C ${SRC} rev-parse HEAD
                    OUTPUT_VARIABLE head RESULT_VARIABLE rc
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(rc EQUAL 0 AND head MATCHES "^[0-9a-f]+$")
      set(commit ${head})
      execute_process(COMMAND ${GIT} -C ${SRC} status --porcelain
                              --untracked-files=no
                      OUTPUT_VARIABLE changes RESULT_VARIABLE rc
                      ERROR_QUIET)
      if(rc EQUAL 0 AND changes STREQUAL "")
        set(tree clean)
      elseif(rc EQUAL 0)
        set(tree dirty)
      endif()
    endif()
  endif()
endif()
set(text "/* Written by cmake/gitcommit.cmake at build time. */
#define WINGEN_GIT_COMMIT \"${commit}\"
#define WINGEN_GIT_TREE \"${tree}\"
")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
else()
  set(old "")
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
