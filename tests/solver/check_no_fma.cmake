# No fused multiply-add in the solver built for a CPU that has one: a fused a*b + c rounds
# once where the plain one rounds twice, so such a build would end a scene on other bits than
# the default one (the top-level CMakeLists.txt). Run by ctest:
#   cmake -DOBJDUMP=… -DOBJECTS="a.o|b.o|…" -P check_no_fma.cmake
# x86's FMA3 and FMA4 forms and AVX-512's are all vf[n]madd…, vf[n]msub… (vfmaddsub included).
if(NOT OBJDUMP OR NOT OBJECTS)
  message(FATAL_ERROR "usage: cmake -DOBJDUMP=… -DOBJECTS=\"a.o|b.o\" -P check_no_fma.cmake")
endif()
string(REPLACE "|" ";" objects "${OBJECTS}")
set(bad "")
foreach(object IN LISTS objects)
  execute_process(COMMAND "${OBJDUMP}" -d --no-show-raw-insn "${object}" OUTPUT_VARIABLE listing
                  ERROR_VARIABLE error RESULT_VARIABLE failed)
  if(failed OR NOT listing MATCHES "file format")
    message(FATAL_ERROR "${OBJDUMP} could not disassemble ${object}: ${error}")
  endif()
  string(REGEX MATCHALL "[ \t]vfn?m(add|sub)[a-z0-9]*" found "${listing}")
  list(LENGTH found count)
  if(count GREATER 0)
    list(GET found 0 first)
    string(STRIP "${first}" first)
    get_filename_component(name "${object}" NAME)
    list(APPEND bad "${name}: ${count} (${first}, …)")
  endif()
endforeach()
if(bad)
  list(JOIN bad "\n  " text)
  message(FATAL_ERROR "fused multiply-adds in the solver built for FMA:\n  ${text}")
endif()
list(LENGTH objects checked)
message(STATUS "${checked} objects, no fused multiply-add")
