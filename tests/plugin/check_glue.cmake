# Only the plugin's glue (plugin_ragdoll/src/module/) speaks the engine's C ABI: no other
# plugin file includes paper/plugin_api.h, and from the engine's headers the rest of the
# plugin uses only the shared C++ helpers of common/ (paper/xml_reader.h, paper/diagnostic.h,
# paper/math.h, paper/png_image.h, paper/spelling.h, paper/file_checks.h, paper/command_line.h,
# paper/text_width.h).
# Run by ctest:
#   cmake -DPLUGIN_SRC=plugin_ragdoll/src -P check_glue.cmake
file(GLOB_RECURSE files "${PLUGIN_SRC}/*.h" "${PLUGIN_SRC}/*.cpp")
set(bad "")
set(count 0)
foreach(file ${files})
  if(file MATCHES "/module/")
    continue()
  endif()
  math(EXPR count "${count} + 1")
  file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]paper/")
  foreach(line ${lines})
    if(NOT line MATCHES "paper/(xml_reader|diagnostic|math|png_image|spelling|file_checks|command_line|text_width)\\.h")
      list(APPEND bad "${file}: ${line}")
    endif()
  endforeach()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "no plugin sources under '${PLUGIN_SRC}'")
endif()
if(bad)
  list(JOIN bad "\n  " text)
  message(FATAL_ERROR "only the plugin's glue (src/module/) may include the engine's ABI or its other headers:\n  ${text}")
endif()
