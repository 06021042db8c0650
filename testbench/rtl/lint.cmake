# lint.cmake: the rtl.lint test. Runs `verilator --lint-only -Wall` on every
# module of rtl/ (one module per file, named as its file; packages are read,
# not linted as tops), at its default parameters and at the extra parameter
# sets below (edge sizes: one requester, one resource, sizes that are not
# powers of two, both arbiter kinds). Fails on any message.
#
#   cmake -DVERILATOR=<verilator_bin> -DSOURCES=<rtl/*.sv, package first> -P lint.cmake

cmake_minimum_required(VERSION 3.20)

if(NOT VERILATOR OR NOT SOURCES)
  message(FATAL_ERROR "lint.cmake: give -DVERILATOR=... and -DSOURCES=...")
endif()

# Extra parameter sets, "<module>:<param>=<value>,<param>=<value>...".
set(EXTRA
    noc_fifo:DEPTH=1,WIDTH=1
    noc_fifo:DEPTH=5,WIDTH=70
    noc_rr_pick:N=1
    noc_rr_pick:N=5
    noc_rr_arbiter:N=1
    noc_rr_arbiter:N=13
    noc_matrix_pick:N=1
    noc_matrix_pick:N=6
    noc_matrix_arbiter:N=1
    noc_matrix_arbiter:N=13
    noc_arbiter:N=1,ARB_KIND=1
    noc_arbiter:N=7,ARB_KIND=1
    noc_arb_pick:N=1,ARB_KIND=0
    noc_arb_pick:N=7,ARB_KIND=1
    noc_sep_alloc_if:N_IN=1,N_OUT=1
    noc_sep_alloc_if:N_IN=12,N_OUT=4,ARB_KIND=1
    noc_sep_alloc_if:N_IN=3,N_OUT=7
    noc_sep_alloc_of:N_IN=1,N_OUT=1,ARB_KIND=1
    noc_sep_alloc_of:N_IN=12,N_OUT=4
    noc_sep_alloc_of:N_IN=3,N_OUT=7,ARB_KIND=1
    noc_islip_alloc:N_IN=1,N_OUT=1,ITERS=1
    noc_islip_alloc:N_IN=5,N_OUT=5,ITERS=3,ARB_KIND=1
    noc_islip_alloc:N_IN=12,N_OUT=4,ITERS=2
    noc_islip_alloc:N_IN=3,N_OUT=7,ITERS=1,ARB_KIND=1
    noc_vc_router:ARB_KIND=1
    noc_vc_router:P=1,V=1,DEPTH=1,FLIT_W=1
    noc_vc_router:P=3,V=4,DEPTH=3,FLIT_W=24,N_CLASS=2,ARB_KIND=1
    noc_vc_router:P=7,V=3,DEPTH=5,FLIT_W=64,N_CLASS=3
    noc_vc_router:P=10,V=2,DEPTH=8,FLIT_W=70,N_CLASS=2,ARB_KIND=1)

set(runs "")
foreach(src ${SOURCES})
  get_filename_component(mod ${src} NAME_WE)
  if(NOT mod MATCHES "_pkg$")
    list(APPEND runs "${mod}:")
  endif()
endforeach()
list(APPEND runs ${EXTRA})

set(failed 0)
set(count 0)
foreach(run ${runs})
  string(REPLACE ":" ";" parts "${run}")
  list(GET parts 0 mod)
  list(LENGTH parts len)
  set(params "")
  if(len GREATER 1)
    list(GET parts 1 plist)
    if(plist)
      string(REPLACE "," ";" plist "${plist}")
      foreach(p ${plist})
        list(APPEND params -G${p})
      endforeach()
    endif()
  endif()
  execute_process(COMMAND ${VERILATOR} --lint-only -Wall --assert --top-module ${mod}
                          ${params} ${SOURCES}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  math(EXPR count "${count} + 1")
  string(JOIN " " what ${mod} ${params})
  if(NOT rc EQUAL 0 OR NOT out STREQUAL "")
    message("rtl.lint: ${what}: FAILED\n${out}")
    math(EXPR failed "${failed} + 1")
  else()
    message("rtl.lint: ${what}: clean")
  endif()
endforeach()
math(EXPR passed "${count} - ${failed}")
message("rtl.lint: ${passed} passed, ${failed} failed")
if(failed GREATER 0)
  message(FATAL_ERROR "rtl.lint: ${failed} of ${count} lint runs not clean")
endif()
