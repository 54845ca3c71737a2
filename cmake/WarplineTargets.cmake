# Helpers that keep the layering of docs/ARCHITECTURE.md ("The layers") enforced by the build: a library exposes its
# headers under a prefix ("model/Trace.h") through a folder of its own in the build tree, so a target
# that does not link a library cannot include its headers.

set(WARPLINE_HEADER_ROOT ${CMAKE_BINARY_DIR}/include-roots)

# wl_expose_headers(TARGET PREFIX SOURCE_DIR): `#include "PREFIX/File.h"` works for TARGET and for
# everything that links it, and for nothing else. PREFIX may be nested ("ui/timeline").
function(wl_expose_headers target prefix source_dir)
    set(root ${WARPLINE_HEADER_ROOT}/${target})
    get_filename_component(link_parent ${root}/${prefix} DIRECTORY)
    file(MAKE_DIRECTORY ${link_parent})
    if(NOT EXISTS ${root}/${prefix})
        file(CREATE_LINK ${source_dir} ${root}/${prefix} SYMBOLIC)
    endif()
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY")
        target_include_directories(${target} INTERFACE ${root})
    else()
        target_include_directories(${target} PUBLIC ${root})
    endif()
endfunction()

# Warnings for our own code (not for generated or third-party code).
function(wl_set_warnings target)
    target_compile_options(${target} PRIVATE
        $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow=local -Wno-missing-field-initializers>)
endfunction()

# Sources of a folder: small classes in small files, picked up without editing the list each time.
function(wl_glob_sources out dir)
    file(GLOB_RECURSE files CONFIGURE_DEPENDS ${dir}/*.cpp ${dir}/*.h ${dir}/*.cu ${dir}/*.cuh)
    set(${out} ${files} PARENT_SCOPE)
endfunction()
