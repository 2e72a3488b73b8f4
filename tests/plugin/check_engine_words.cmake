# The engine is a host that knows plugins, not what they simulate: no file under engine/
# (code, comments, docs) uses the ragdoll plugin's words. Run by ctest:
#   cmake -DENGINE=engine -P check_engine_words.cmake
file(GLOB_RECURSE files "${ENGINE}/*")
if(NOT files)
  message(FATAL_ERROR "no files under '${ENGINE}'")
endif()
set(bad "")
foreach(file ${files})
  file(STRINGS "${file}" lines)
  foreach(line ${lines})
    string(TOLOWER "${line}" lower)
    # Whole words, as `grep -iw` finds them: '_' and letters and digits join a word.
    if(lower MATCHES "(^|[^a-z0-9_])(ragdoll|rig|blend|character|net_?role)([^a-z0-9_]|$)")
      list(APPEND bad "${file}: ${line}")
    endif()
  endforeach()
endforeach()
if(bad)
  list(JOIN bad "\n  " text)
  message(FATAL_ERROR "the engine names what a plugin simulates:\n  ${text}")
endif()
