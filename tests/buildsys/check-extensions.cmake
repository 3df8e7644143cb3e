# cmake -DTILEC=... -DSOURCE_DIR=... -DWORK=... -P check-extensions.cmake
# TilecKernels.cmake names each target's output file itself (CMake needs the name before
# tilec runs): every target tilec lists must have an entry, and the entry must be the
# extension tilec gives the file it writes when no -o is given.
cmake_minimum_required(VERSION 3.20)
include(${SOURCE_DIR}/cmake/TilecKernels.cmake)

# A kernel of the right kind for each target, with the flags it needs.
set(sample_a2a3 samples/softmax.tile)
set(sample_a5 samples/softmax.tile)
set(sample_npu1 samples/aie/passthrough.tile -D N=4096)
set(sample_npu2 samples/aie/passthrough.tile -D N=4096)
set(sample_linx samples/linx/row_softmax.tile)
foreach(cols 1 2 3)
  set(sample_npu1_${cols}col samples/aie/passthrough.tile -D N=4096)
endforeach()
foreach(cols 1 2 3 4 5 6 7)
  set(sample_npu2_${cols}col samples/aie/passthrough.tile -D N=4096)
endforeach()

execute_process(COMMAND ${TILEC} --version OUTPUT_VARIABLE version COMMAND_ERROR_IS_FATAL ANY)
if(NOT version MATCHES "targets: ([^\n]*)")
  message(FATAL_ERROR "tilec --version lists no targets:\n${version}")
endif()
string(REPLACE " " ";" targets "${CMAKE_MATCH_1}")

foreach(arch IN LISTS targets)
  if(NOT DEFINED sample_${arch})
    message(FATAL_ERROR "new target '${arch}': add its default extension to cmake/TilecKernels.cmake and a sample here")
  endif()
  _tilec_default_extension(${arch} extension)
  set(dir ${WORK}/${arch})
  file(REMOVE_RECURSE ${dir})
  file(MAKE_DIRECTORY ${dir})
  list(POP_FRONT sample_${arch} sample)
  execute_process(COMMAND ${TILEC} ${SOURCE_DIR}/${sample} --target=${arch} ${sample_${arch}}
                  WORKING_DIRECTORY ${dir} COMMAND_ERROR_IS_FATAL ANY)
  get_filename_component(stem ${sample} NAME_WLE)
  file(GLOB written RELATIVE ${dir} ${dir}/*)
  if(NOT written STREQUAL "${stem}${extension}")
    message(FATAL_ERROR "${arch}: TilecKernels.cmake expects ${stem}${extension}, tilec wrote '${written}'")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
list(LENGTH targets count)
message(STATUS "${count} targets, each with its extension")
