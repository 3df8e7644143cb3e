# Installs README.md and docs/*.md into DOCDIR (run by `cmake --install` and CPack), with
# their relative links made right for the installed tree: README's docs/X.md is X.md there,
# and a link to a file of the source tree that is not installed (../editors/...) becomes
# its text followed by the path, since it cannot resolve. Variables: SOURCE_DIR, WORK_DIR,
# DOC_DESTINATION (relative to the install prefix).
function(tilec_install_markdown file)
  file(READ ${SOURCE_DIR}/${file} text)
  string(REPLACE "](docs/" "](" text "${text}")  # README: docs/ is the docdir itself
  # Links out of the installed tree: [text](../path) -> text (path in the tilec sources).
  string(REGEX REPLACE "\\[([^]]*)\\]\\(\\.\\./([^)]*)\\)" "\\1 (`\\2` in the tilec sources)" text "${text}")
  get_filename_component(name ${file} NAME)
  file(WRITE ${WORK_DIR}/${name} "${text}")
  file(INSTALL ${WORK_DIR}/${name} DESTINATION "${CMAKE_INSTALL_PREFIX}/${DOC_DESTINATION}")
endfunction()

file(MAKE_DIRECTORY ${WORK_DIR})
tilec_install_markdown(README.md)
file(GLOB docs RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/docs/*.md)
foreach(doc ${docs})
  tilec_install_markdown(${doc})
endforeach()
file(INSTALL ${SOURCE_DIR}/docs/images DESTINATION "${CMAKE_INSTALL_PREFIX}/${DOC_DESTINATION}")
file(INSTALL ${SOURCE_DIR}/bench/README.md DESTINATION "${CMAKE_INSTALL_PREFIX}/${DOC_DESTINATION}/bench")
