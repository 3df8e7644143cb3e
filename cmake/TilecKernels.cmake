# tilec_add_kernels(<name> SOURCES a.tile ... [TARGET_ARCH arch] [OPTIONS flag ...]
#                   [OUTPUT_DIR dir] [INCLUDE_DIRECTORIES dir ...] [EXTENSION .ext])
#
# Compiles every source with tilec::tilec at build time into <OUTPUT_DIR>/<stem><ext>
# (OUTPUT_DIR defaults to the current binary directory) and adds the custom target <name>,
# built by `all`, that depends on them. `TARGET <name>` may be written instead of <name>.
# Each command writes a depfile, so editing a file the kernel imports recompiles exactly
# the kernels that import it.
#
# Every kernel's command is also written to ${CMAKE_BINARY_DIR}/tilec_compile_commands.json,
# a compilation database in compile_commands.json's format (CMake's own covers only C and
# C++), where `tilec lsp` finds each file's -I, -D and --target (docs/lsp.md).
include_guard(GLOBAL)

# Depfile paths are absolute; CMP0116 NEW makes Ninja builds read them through CMake's
# transform like the Makefile generators do, whatever the caller's cmake_minimum_required.
# function() records the policies in effect here, so the setting reaches every call.
cmake_policy(SET CMP0116 NEW)

# The default output format's extension of each target (tilec --list-targets). A target
# missing here, or another --emit format in OPTIONS, needs EXTENSION.
set(_TILEC_EXTENSIONS a2a3=.pto a5=.pto npu1=.bin npu2=.bin linx=.s
    npu1_1col=.bin npu1_2col=.bin npu1_3col=.bin npu2_1col=.bin npu2_2col=.bin npu2_3col=.bin
    npu2_4col=.bin npu2_5col=.bin npu2_6col=.bin npu2_7col=.bin)

function(_tilec_default_extension arch out_var)
  foreach(entry IN LISTS _TILEC_EXTENSIONS)
    if(entry MATCHES "^${arch}=(.*)$")
      set(${out_var} "${CMAKE_MATCH_1}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "tilec_add_kernels: no default extension known for TARGET_ARCH '${arch}'; "
                      "give one with EXTENSION .ext")
endfunction()

# Takes the target's name from the parsed arguments (kernels_* in the caller) and rejects
# anything the call does not understand.
macro(_tilec_check_kernel_arguments)
  # A misspelled keyword after SOURCES reads as a source: an upper-case word that names no
  # file starts the unknown arguments.
  set(_tilec_index 0)
  foreach(_tilec_source IN LISTS kernels_SOURCES)
    if(_tilec_source MATCHES "^[A-Z][A-Z0-9_]*$" AND NOT EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${_tilec_source}")
      list(SUBLIST kernels_SOURCES ${_tilec_index} -1 _tilec_unknown)
      list(SUBLIST kernels_SOURCES 0 ${_tilec_index} kernels_SOURCES)
      list(APPEND kernels_UNPARSED_ARGUMENTS ${_tilec_unknown})
      break()
    endif()
    math(EXPR _tilec_index "${_tilec_index} + 1")
  endforeach()
  if(NOT kernels_TARGET AND kernels_UNPARSED_ARGUMENTS)
    list(POP_FRONT kernels_UNPARSED_ARGUMENTS kernels_TARGET)
  endif()
  if(NOT kernels_TARGET)
    message(FATAL_ERROR "tilec_add_kernels: name the target first: tilec_add_kernels(<name> SOURCES a.tile ...)")
  endif()
  if(kernels_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tilec_add_kernels(${kernels_TARGET}): unknown argument(s) '${kernels_UNPARSED_ARGUMENTS}'; "
                        "the keywords are SOURCES, TARGET_ARCH, OPTIONS, OUTPUT_DIR, INCLUDE_DIRECTORIES, EXTENSION")
  endif()
  if(kernels_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "tilec_add_kernels(${kernels_TARGET}): ${kernels_KEYWORDS_MISSING_VALUES} given without a value")
  endif()
  if(NOT kernels_SOURCES)
    message(FATAL_ERROR "tilec_add_kernels(${kernels_TARGET}): no kernels; list them with SOURCES a.tile ...")
  endif()
endmacro()

# A JSON string of `value`; paths hold no control characters.
function(_tilec_json_string value out_var)
  string(REPLACE "\\" "\\\\" value "${value}")
  string(REPLACE "\"" "\\\"" value "${value}")
  set(${out_var} "\"${value}\"" PARENT_SCOPE)
endfunction()

# Adds one command to the compilation database; the first call arranges for the file to
# be written once the top-level CMakeLists.txt has been read, with every call's entries.
function(_tilec_add_compile_command input output)
  set(arguments "\"$<TARGET_FILE:tilec::tilec>\"")
  foreach(arg IN LISTS ARGN)
    _tilec_json_string("${arg}" quoted)
    string(APPEND arguments ", ${quoted}")
  endforeach()
  _tilec_json_string("${CMAKE_CURRENT_BINARY_DIR}" directory)
  _tilec_json_string("${input}" file)
  _tilec_json_string("${output}" output)
  get_property(entries GLOBAL PROPERTY _TILEC_COMPILE_COMMANDS)
  if(entries)
    string(APPEND entries ",\n")
  endif()
  string(APPEND entries "  {\"directory\": ${directory}, \"file\": ${file}, \"output\": ${output},\n"
                        "   \"arguments\": [${arguments}]}")
  set_property(GLOBAL PROPERTY _TILEC_COMPILE_COMMANDS "${entries}")
  get_property(scheduled GLOBAL PROPERTY _TILEC_COMPILE_COMMANDS_SCHEDULED)
  if(NOT scheduled)
    set_property(GLOBAL PROPERTY _TILEC_COMPILE_COMMANDS_SCHEDULED TRUE)
    cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _tilec_write_compile_commands)
  endif()
endfunction()

function(_tilec_write_compile_commands)
  get_property(entries GLOBAL PROPERTY _TILEC_COMPILE_COMMANDS)
  file(GENERATE OUTPUT "${CMAKE_BINARY_DIR}/tilec_compile_commands.json" CONTENT "[\n${entries}\n]\n")
endfunction()

function(tilec_add_kernels)
  cmake_parse_arguments(PARSE_ARGV 0 kernels "" "TARGET;TARGET_ARCH;OUTPUT_DIR;EXTENSION"
                        "SOURCES;OPTIONS;INCLUDE_DIRECTORIES")
  _tilec_check_kernel_arguments()
  if(NOT kernels_TARGET_ARCH)
    set(kernels_TARGET_ARCH a2a3)  # tilec's default target
  endif()
  if(NOT kernels_EXTENSION)
    _tilec_default_extension(${kernels_TARGET_ARCH} kernels_EXTENSION)
  endif()
  get_filename_component(output_dir "${kernels_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  file(MAKE_DIRECTORY "${output_dir}")
  set(include_flags)
  foreach(dir IN LISTS kernels_INCLUDE_DIRECTORIES)
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND include_flags -I "${dir}")
  endforeach()

  set(outputs)
  foreach(source IN LISTS kernels_SOURCES)
    get_filename_component(input "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(stem "${source}" NAME_WLE)
    set(output "${output_dir}/${stem}${kernels_EXTENSION}")
    if(output IN_LIST outputs)
      message(FATAL_ERROR "tilec_add_kernels(${kernels_TARGET}): two sources compile to ${output}; "
                          "put one of them in another tilec_add_kernels call with its own OUTPUT_DIR")
    endif()
    set(arguments "${input}" -o "${output}" -MD -MF "${output}.d" --target=${kernels_TARGET_ARCH} ${include_flags}
                  ${kernels_OPTIONS})
    _tilec_add_compile_command("${input}" "${output}" ${arguments})
    add_custom_command(
      OUTPUT "${output}"
      COMMAND tilec::tilec ${arguments}
      DEPENDS "${input}" tilec::tilec
      DEPFILE "${output}.d"
      COMMENT "tilec: compiling ${source}"
      VERBATIM COMMAND_EXPAND_LISTS)
    list(APPEND outputs "${output}")
  endforeach()
  add_custom_target(${kernels_TARGET} ALL DEPENDS ${outputs})
endfunction()
