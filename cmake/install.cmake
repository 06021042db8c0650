# install.cmake: libnoctua for embedders and `cmake --install` (docs/api.md).
# Included by the top-level CMakeLists.txt after the core, waves and CLI
# targets exist. It makes, from the same sources as noctua_core and
# noctua_waves but compiled apart:
#   noctua_shared  libnoctua.so.MAJOR (SONAME), exported as noctua::noctua
#   noctua_static  libnoctua.a, exported as noctua::noctua_static
#   noctua_installed  the noctua program as installed (bin/noctua on libnoctua.so)
# and installs them with the public headers, noctua.pc, the CMake package and
# the RTL sources that --router rtl Verilates on demand (share/noctua).
#
# Why compiled apart: the libraries need position-independent code, which the
# build tree's noctua and tests do not (the cycle loop stays as fast as it
# was), and nothing installed may carry a path of this tree: the build tree's
# rtl_model.c has its source and cache folders compiled in, the installed one
# finds PREFIX/share/noctua from where it is loaded; -ffile-prefix-map makes
# __FILE__ and the debug information relative. Warning and -march flags are
# PRIVATE to the compilation, never in an exported INTERFACE.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(NOCTUA_PUBLIC_HEADERS
    model/config.h model/params.def model/sim.h model/graph.h model/stats.h model/traffic_if.h model/rng.h model/flit.h
    model/program.h model/pe.h topologies/topo.h traffic/gen.h traffic/synthetic.h app/config_file.h
    traffic/pattern.h waves/waves.h routers/registry.h app/run.h app/program.h)
# (the compilers' working folders, the debug information's comp_dir, are
# the build tree's: mapped too, last, so it wins when the build is inside
# the sources)
set(NOCTUA_PREFIX_MAP -ffile-prefix-map=${CMAKE_SOURCE_DIR}=. -ffile-prefix-map=${CMAKE_BINARY_DIR}=.)

# Relative paths from the installed lib/ and bin/ to share/noctua, for
# rtl_model.c and the program's RPATH (GNUInstallDirs' dirs are relative).
set(root ${CMAKE_BINARY_DIR}/install-root) # a stand-in prefix, only for the arithmetic
file(RELATIVE_PATH NOCTUA_FROM_LIB ${root}/${CMAKE_INSTALL_LIBDIR} ${root}/${CMAKE_INSTALL_DATADIR}/noctua)
file(RELATIVE_PATH NOCTUA_FROM_BIN ${root}/${CMAKE_INSTALL_BINDIR} ${root}/${CMAKE_INSTALL_DATADIR}/noctua)
file(RELATIVE_PATH NOCTUA_BIN_TO_LIB ${root}/${CMAKE_INSTALL_BINDIR} ${root}/${CMAKE_INSTALL_LIBDIR})
file(RELATIVE_PATH NOCTUA_PC_UP ${root}/${CMAKE_INSTALL_LIBDIR}/pkgconfig ${root})
string(REGEX REPLACE "/$" "" NOCTUA_PC_UP "${NOCTUA_PC_UP}")

# rtl_model.c once more under another name: its source-file definitions
# (the build tree's paths) belong to the build tree's copy.
set(rtl_installed ${CMAKE_BINARY_DIR}/install-src/rtl_model_installed.c)
file(CONFIGURE OUTPUT ${rtl_installed} CONTENT
     "/* rtl_model.c as installed (cmake/install.cmake): no path of the build compiled in. */\n#include \"routers/rtl/rtl_model.c\"\n")
set(lib_sources ${NOCTUA_CORE_SOURCES} ${NOCTUA_WAVES_SOURCES} ${NOCTUA_APP_SOURCES})
# (and prebuild_models.c, the build's tool with a main, is no part of it)
list(REMOVE_ITEM lib_sources ${CMAKE_SOURCE_DIR}/routers/rtl/rtl_model.c
     ${CMAKE_SOURCE_DIR}/routers/rtl/prebuild_models.c)
list(APPEND lib_sources ${rtl_installed})
if(TARGET rtl_models) # Verilator found: the installed core builds models too
  set_source_files_properties(${rtl_installed} PROPERTIES COMPILE_DEFINITIONS
    "NOCTUA_RTL_INSTALLED=1;NOCTUA_RTL_FROM_LIB=\"${NOCTUA_FROM_LIB}\";NOCTUA_RTL_FROM_BIN=\"${NOCTUA_FROM_BIN}\";NOCTUA_RTL_VERILATOR=\"${VERILATOR_BIN}\";NOCTUA_RTL_VERILATOR_ROOT=\"${VERILATOR_ROOT}\";NOCTUA_RTL_CXX=\"${CMAKE_CXX_COMPILER}\"")
endif()

add_library(noctua_objects OBJECT ${lib_sources})
set_target_properties(noctua_objects PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(noctua_objects PRIVATE ${CMAKE_SOURCE_DIR} ${METIS_INCLUDE_DIR})
target_include_directories(noctua_objects SYSTEM PRIVATE ${NOCTUA_FSTAPI_DIR} ${ZLIB_INCLUDE_DIRS})
target_compile_options(noctua_objects PRIVATE ${NOCTUA_WARNINGS} ${NOCTUA_PREFIX_MAP})

# GTKWave's fstapi, as noctua_fstapi builds it (its fclose and mmap guarded)
add_library(noctua_fstapi_objects OBJECT ${NOCTUA_FSTAPI_DIR}/fstapi.c ${NOCTUA_FSTAPI_DIR}/fastlz.c
            ${NOCTUA_FSTAPI_DIR}/lz4.c ${CMAKE_SOURCE_DIR}/waves/fst_guard.c)
set_target_properties(noctua_fstapi_objects PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(noctua_fstapi_objects PRIVATE ${NOCTUA_FSTAPI_DIR} ${CMAKE_SOURCE_DIR} ${ZLIB_INCLUDE_DIRS})
target_compile_definitions(noctua_fstapi_objects PRIVATE FST_CONFIG_INCLUDE="fst_config.h")
target_compile_options(noctua_fstapi_objects PRIVATE -w ${NOCTUA_PREFIX_MAP})
if(NOCTUA_SANITIZE)
  target_compile_options(noctua_fstapi_objects PRIVATE -fno-sanitize=undefined)
endif()

set(objects $<TARGET_OBJECTS:noctua_objects> $<TARGET_OBJECTS:noctua_fstapi_objects>)
set(include_dirs $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}> $<BUILD_INTERFACE:${CMAKE_BINARY_DIR}/install-include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/noctua>)
# METIS by name once installed (its path is this machine's)
set(metis $<BUILD_INTERFACE:${METIS_LIBRARY}> $<INSTALL_INTERFACE:metis>)

add_library(noctua_shared SHARED ${objects})
set_target_properties(noctua_shared PROPERTIES OUTPUT_NAME noctua EXPORT_NAME noctua
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})
target_include_directories(noctua_shared INTERFACE ${include_dirs})
target_link_libraries(noctua_shared PRIVATE m ${METIS_LIBRARY} ${CMAKE_DL_LIBS} ZLIB::ZLIB PkgConfig::INIH Threads::Threads)
target_link_options(noctua_shared PRIVATE -Wl,--version-script=${CMAKE_SOURCE_DIR}/cmake/noctua.map)
set_property(TARGET noctua_shared APPEND PROPERTY LINK_DEPENDS ${CMAKE_SOURCE_DIR}/cmake/noctua.map)
add_library(noctua::noctua ALIAS noctua_shared)

add_library(noctua_static STATIC ${objects})
set_target_properties(noctua_static PROPERTIES OUTPUT_NAME noctua EXPORT_NAME noctua_static)
target_include_directories(noctua_static INTERFACE ${include_dirs})
target_link_libraries(noctua_static INTERFACE m ${metis} ${CMAKE_DL_LIBS} $<BUILD_INTERFACE:ZLIB::ZLIB>
                      $<BUILD_INTERFACE:Threads::Threads> $<INSTALL_INTERFACE:pthread>
                      $<INSTALL_INTERFACE:z>
                      $<BUILD_INTERFACE:PkgConfig::INIH> $<INSTALL_INTERFACE:inih>)
add_library(noctua::noctua_static ALIAS noctua_static)

# The program as installed: the CLI's sources on libnoctua.so, found
# through an RPATH relative to bin/.
add_library(noctua_cli_objects OBJECT ${NOCTUA_REPORT_SOURCES} ${NOCTUA_CLI_SOURCES}
            ${CMAKE_SOURCE_DIR}/cli/main.c)
target_include_directories(noctua_cli_objects PRIVATE ${CMAKE_SOURCE_DIR})
target_include_directories(noctua_cli_objects SYSTEM PRIVATE ${NOCTUA_FSTAPI_DIR})
target_compile_options(noctua_cli_objects PRIVATE ${NOCTUA_WARNINGS} ${NOCTUA_PREFIX_MAP})
target_link_libraries(noctua_cli_objects PRIVATE PkgConfig::JANSSON)
add_executable(noctua_installed $<TARGET_OBJECTS:noctua_cli_objects>)
target_link_libraries(noctua_installed PRIVATE noctua_shared PkgConfig::JANSSON m)
set_target_properties(noctua_installed PROPERTIES OUTPUT_NAME noctua
  RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/install-bin
  BUILD_WITH_INSTALL_RPATH ON INSTALL_RPATH "$ORIGIN/${NOCTUA_BIN_TO_LIB}")

# noctua.h (the API in one include, with the version) and noctua.pc
configure_file(${CMAKE_SOURCE_DIR}/cmake/noctua.h.in ${CMAKE_BINARY_DIR}/install-include/noctua.h @ONLY)
configure_file(${CMAKE_SOURCE_DIR}/cmake/noctua.pc.in ${CMAKE_BINARY_DIR}/noctua.pc @ONLY)

install(TARGETS noctua_installed RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS noctua_shared noctua_static EXPORT noctuaTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
foreach(header ${NOCTUA_PUBLIC_HEADERS})
  get_filename_component(dir ${header} DIRECTORY)
  install(FILES ${CMAKE_SOURCE_DIR}/${header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/noctua/${dir})
endforeach()
install(FILES ${CMAKE_BINARY_DIR}/install-include/noctua.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/noctua)
install(FILES ${CMAKE_BINARY_DIR}/noctua.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(EXPORT noctuaTargets NAMESPACE noctua:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/noctua)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/noctuaConfig.cmake.in
  ${CMAKE_BINARY_DIR}/noctuaConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/noctua)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/noctuaConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/noctuaConfig.cmake ${CMAKE_BINARY_DIR}/noctuaConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/noctua)

# What --router rtl Verilates on demand, and `noctua area` synthesizes, in
# the source tree's layout (routers/rtl/build_model.sh reads it so).
if(TARGET rtl_models)
  file(GLOB rtl_sv ${CMAKE_SOURCE_DIR}/rtl/*.sv)
  install(FILES ${rtl_sv} DESTINATION ${CMAKE_INSTALL_DATADIR}/noctua/rtl)
  install(FILES ${CMAKE_SOURCE_DIR}/routers/rtl/rtl_core_shim.cpp ${CMAKE_SOURCE_DIR}/routers/rtl/rtl_core.h
          ${CMAKE_SOURCE_DIR}/routers/rtl/rtl_bits.h DESTINATION ${CMAKE_INSTALL_DATADIR}/noctua/routers/rtl)
  install(PROGRAMS ${CMAKE_SOURCE_DIR}/routers/rtl/build_model.sh DESTINATION ${CMAKE_INSTALL_DATADIR}/noctua/routers/rtl)
  install(FILES ${CMAKE_SOURCE_DIR}/waves/fst_guard.c ${CMAKE_SOURCE_DIR}/waves/fst_guard.h
          DESTINATION ${CMAKE_INSTALL_DATADIR}/noctua/waves)
endif()
# the build tree's own package files (the SystemC wrapper's export needs them)
export(EXPORT noctuaTargets NAMESPACE noctua:: FILE ${CMAKE_BINARY_DIR}/noctuaTargets.cmake)

# ctest install.embed: install into a temporary prefix, build
# examples/embed against it (pkg-config and find_package, shared and
# static) and compare its numbers with the installed noctua's. Not in a
# NOCTUA_SANITIZE build (tools/sanitize.sh): the sanitizers' checks carry
# the source files' paths and their runtimes would have to be linked into
# the embedding program; such a build is for testing, not for installing.
if(NOCTUA_TESTS AND NOT NOCTUA_SANITIZE)
  add_test(NAME install.embed COMMAND ${CMAKE_SOURCE_DIR}/examples/embed/test_install.sh
           ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR})
  set_tests_properties(install.embed PROPERTIES TIMEOUT 180)
endif()
