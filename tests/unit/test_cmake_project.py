"""#32: the CMake forms `pipev run DIR` reads (simulator/ascendc/cmake.py), on project trees
written here: each form gives exactly the sources, include directories and definitions it
names, and nothing else."""

from __future__ import annotations

import os

import pytest

from simulator.ascendc.cmake import CMakeError, read_project


def _tree(root, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_kernel_launch_samples_layout(here):
    _tree(here / "p", {
        "main.cpp": "", "add_custom.cpp": "", "other.cpp": "", "inc/h.h": "",
        "CMakeLists.txt": """
            set(RUN_MODE "npu" CACHE STRING "cpu/sim/npu")  # a comment (with parentheses)
            file(GLOB KERNEL_FILES ${CMAKE_CURRENT_SOURCE_DIR}/add_custom.cpp)
            if("${RUN_MODE}" STREQUAL "cpu")
                include(cmake/cpu_lib.cmake)
            else()
                include(cmake/npu_lib.cmake)
            endif()
            include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)
            add_executable(ascendc_kernels_bbit ${CMAKE_CURRENT_SOURCE_DIR}/main.cpp)
            target_include_directories(ascendc_kernels_bbit PRIVATE
                ${CMAKE_CURRENT_SOURCE_DIR}/inc $<BUILD_INTERFACE:x> /no/such/dir)
            set(SOC "Ascend910B1")
            set(P_LIST "Ascend310P1" "Ascend310P3")
            target_compile_definitions(ascendc_kernels_bbit PRIVATE TILE=8 -DMODE=2
                $<$<BOOL:${X}>:NOT_READ> $<$<BOOL:$<IN_LIST:${SOC},${P_LIST}>>:NOR_THIS>
                SOC_VERSION="${SOC}")
            add_definitions(-DEXTRA)
            target_link_libraries(ascendc_kernels_bbit PRIVATE host_intf_pub
                ascendc_kernels_${RUN_MODE})
            add_library(unrelated SHARED other.cpp)
        """,
        "cmake/npu_lib.cmake": "ascendc_library(ascendc_kernels_${RUN_MODE} STATIC\n"
                               "    ${KERNEL_FILES})\n",
        "cmake/cpu_lib.cmake": "add_library(ascendc_kernels_${RUN_MODE} SHARED "
                               "${KERNEL_FILES} inc/h.h)\n",
    })
    p = read_project("p")
    assert p.executable == "ascendc_kernels_bbit"
    assert p.sources == (os.path.join("p", "main.cpp"), os.path.join("p", "add_custom.cpp"))
    assert p.includes == (os.path.join("p", "inc"),)
    assert p.defines == ("EXTRA",)  # add_definitions: every file
    # the executable's own definitions: its own source only
    assert p.unit_defines == ((os.path.join("p", "main.cpp"),
                               ("TILE=8", "MODE=2", 'SOC_VERSION="Ascend910B1"')),)


def test_a_targets_definitions_reach_its_files_and_pass_on_as_cmake_scopes_say(here):
    _tree(here / "p", {
        "main.cpp": "", "k1.cpp": "", "k2.cpp": "", "k3.cpp": "",
        "CMakeLists.txt": """
            add_library(kernels STATIC k1.cpp k2.cpp)
            target_compile_definitions(kernels PRIVATE K_PRIVATE PUBLIC -DK_PUBLIC=1
                INTERFACE K_INTERFACE)
            ascendc_library(deep STATIC k3.cpp)
            ascendc_compile_definitions(deep PUBLIC DEEP=2 PRIVATE DEEP_ONLY)
            target_link_libraries(kernels PUBLIC deep)
            add_executable(demo main.cpp)
            target_compile_definitions(demo PRIVATE HOST)
            target_link_libraries(demo PRIVATE kernels)
            add_compile_definitions(ALL)
        """})
    p = read_project("p")
    assert p.defines == ("ALL",)
    by = {os.path.basename(s): d for s, d in p.unit_defines}
    assert by == {
        "main.cpp": ("HOST", "K_PUBLIC=1", "K_INTERFACE", "DEEP=2"),
        "k1.cpp": ("K_PRIVATE", "K_PUBLIC=1", "DEEP=2"),
        "k2.cpp": ("K_PRIVATE", "K_PUBLIC=1", "DEEP=2"),
        "k3.cpp": ("DEEP=2", "DEEP_ONLY")}


def test_lists_quoted_arguments_and_target_sources(here):
    _tree(here / "q", {
        "a b.cpp": "", "k1.cc": "", "k2.asc": "", "k.h": "",
        "CMakeLists.txt": """
            set(SRCS "a b.cpp")
            list(APPEND KS k1.cc)
            list(APPEND KS ${CMAKE_CURRENT_LIST_DIR}/k2.asc)
            add_executable(app ${SRCS})
            target_sources(app PRIVATE ${KS} k.h)
        """,
    })
    assert read_project("q").sources == tuple(os.path.join("q", n)
                                              for n in ("a b.cpp", "k1.cc", "k2.asc"))


def test_an_unknown_variable_in_a_target_name_is_not_an_error_but_in_a_source_it_is(here):
    _tree(here / "r", {"main.cpp": "", "CMakeLists.txt":
                       "add_executable(${NAME}_cpu main.cpp)\n"
                       "add_library(lib STATIC ${NAME}.cpp)\n"
                       "target_link_libraries(${NAME}_cpu lib)\n"})
    with pytest.raises(CMakeError, match=r"CMakeLists.txt:2: error: source \$\{NAME\}.cpp names "
                       r"\$\{NAME\}"):
        read_project("r")


def test_a_variable_given_as_cmake_would_take_it(here):
    _tree(here / "s", {"add_custom.cpp": "", "main.cpp": "", "CMakeLists.txt":
                       "add_executable(${smoke_testcase}_cpu main.cpp "
                       "${CMAKE_SOURCE_DIR}/${smoke_testcase}.cpp)\n"})
    assert read_project("s", {"smoke_testcase": "add_custom"}).sources == (
        os.path.join("s", "main.cpp"), os.path.join("s", "add_custom.cpp"))


def test_an_if_on_the_run_mode_takes_its_branch_and_a_cache_entry_keeps_a_given_value(here):
    _tree(here / "m", {"main.cpp": "", "k.cpp": "", "cmake/cpu.cmake":
                       "add_library(kern_${RUN_MODE} SHARED k.cpp)\n"
                       "target_compile_definitions(kern_${RUN_MODE} PRIVATE ASCENDC_CPU_DEBUG)\n",
                       "cmake/npu.cmake": "ascendc_library(kern_${RUN_MODE} STATIC k.cpp)\n",
                       "CMakeLists.txt": """
        set(RUN_MODE "npu" CACHE STRING "cpu/sim/npu")
        if(NOT DEFINED SOC)
            set(SOC_DEF SOC_A)
        else()
            set(SOC_DEF SOC_B)
        endif()
        if("${RUN_MODE}" STREQUAL "cpu")
            include(cmake/cpu.cmake)
        elseif(RUN_MODE STREQUAL "npu")
            include(cmake/npu.cmake)
        else()
            add_definitions(-DNEITHER)
        endif()
        if(${UNSET_FLAG} GREATER 1)
            add_definitions(-DUNDECIDED)
        else()
            add_definitions(-DALSO_READ)
        endif()
        add_definitions(-D${SOC_DEF})
        add_executable(app main.cpp)
        target_link_libraries(app PRIVATE kern_${RUN_MODE})
    """})
    npu = read_project("m")
    assert npu.sources == (os.path.join("m", "main.cpp"), os.path.join("m", "k.cpp"))
    assert npu.defines == ("UNDECIDED", "ALSO_READ", "SOC_A")
    cpu = read_project("m", {"RUN_MODE": "cpu", "SOC": "x"})
    assert cpu.defines == ("UNDECIDED", "ALSO_READ", "SOC_B")
    # the cpu library's definition: its own source's
    assert cpu.unit_defines == ((os.path.join("m", "k.cpp"), ("ASCENDC_CPU_DEBUG",)),)


def test_linking_the_cpu_twin_package_defines_its_macro_as_its_target_would(here):
    # the vendor's cpu_lib.cmake defines nothing: tikicpulib::SOC (the CANN's imported target)
    # gives ASCENDC_CPU_DEBUG to the library and, through the link, to the executable
    _tree(here / "p", {"main.cpp": "", "k.cpp": "", "CMakeLists.txt": """
            add_library(kern SHARED k.cpp)
            target_link_libraries(kern PUBLIC tikicpulib::${SOC_VERSION})
            add_executable(app main.cpp)
            target_link_libraries(app PRIVATE kern)
        """})
    p = read_project("p", {"SOC_VERSION": "Ascend910B1"})
    assert dict(p.unit_defines) == {os.path.join("p", "main.cpp"): ("ASCENDC_CPU_DEBUG",),
                                    os.path.join("p", "k.cpp"): ("ASCENDC_CPU_DEBUG",)}


def test_the_cann9_samples_architecture_names_the_chip(here):
    _tree(here / "p", {"k.asc": "", "CMakeLists.txt": """
            set(CMAKE_ASC_ARCHITECTURES "dav-3510" CACHE STRING "NPU architecture")
            find_package(ASC REQUIRED)
            project(kernel_samples LANGUAGES ASC CXX)
            add_executable(demo k.asc)
        """})
    assert read_project("p").npu_arch == 3510
    assert read_project("p", {"CMAKE_ASC_ARCHITECTURES": "dav-2201"}).npu_arch == 2201
    (here / "p" / "CMakeLists.txt").write_text("add_executable(demo k.asc)\n")
    assert read_project("p").npu_arch is None


def test_conditions_joined_by_or_and_and_take_their_branch(here):
    # the CANN 9 samples: scenarios 2 and 3 build for the 950 (an OR of two STREQUALs)
    _tree(here / "p", {"k.asc": "", "CMakeLists.txt": """
            set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "arch")
            set(SCENARIO_NUM "1" CACHE STRING "Scenario number (1-4)")
            if(NOT SCENARIO_NUM MATCHES "^[1-4]$")
                add_definitions(-DBAD_SCENARIO)
            endif()
            if(SCENARIO_NUM STREQUAL "2" OR SCENARIO_NUM STREQUAL "3")
                set(CMAKE_ASC_ARCHITECTURES "dav-3510" CACHE STRING "arch" FORCE)
            endif()
            if(DEFINED SCENARIO_NUM AND NOT SCENARIO_NUM STREQUAL "4" AND ${UNSET} STREQUAL x)
                add_definitions(-DUNDECIDED)
            endif()
            add_executable(demo k.asc)
        """})
    one = read_project("p")
    assert (one.npu_arch, one.defines) == (2201, ("UNDECIDED",))
    three = read_project("p", {"SCENARIO_NUM": "3"})
    assert three.npu_arch == 3510
    bad = read_project("p", {"SCENARIO_NUM": "9"})
    assert "BAD_SCENARIO" in bad.defines and bad.npu_arch == 2201
    four = read_project("p", {"SCENARIO_NUM": "4"})
    assert four.defines == ()  # one AND part false decides it, the unreadable one aside


def test_a_fatal_error_in_a_decided_branch_stops_as_cmake_would(here, monkeypatch):
    _tree(here / "p", {"k.asc": "", "CMakeLists.txt": """
            set(SCENARIO_NUM "1" CACHE STRING "Scenario number (1-4)")
            set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "arch")
            if(SCENARIO_NUM STREQUAL "4" AND NOT CMAKE_ASC_ARCHITECTURES STREQUAL "dav-3510")
                message(FATAL_ERROR "When SCENARIO_NUM = ${SCENARIO_NUM}, use dav-3510")
            endif()
            if(EXISTS /no/cann/here)
                set(X 1)
            else()
                message(FATAL_ERROR "the CANN package is missing")  # undecided: read, not fatal
            endif()
            if(NOT DEFINED ENV{PIPEV_TEST_HOME})
                message(FATAL_ERROR "set PIPEV_TEST_HOME")
            endif()
            add_executable(demo k.asc)
        """})
    monkeypatch.setenv("PIPEV_TEST_HOME", "/x")
    assert read_project("p").sources == (os.path.join("p", "k.asc"),)
    assert read_project("p", {"SCENARIO_NUM": "4", "CMAKE_ASC_ARCHITECTURES": "dav-3510"})
    with pytest.raises(CMakeError) as e:
        read_project("p", {"SCENARIO_NUM": "4"})
    assert str(e.value).startswith(os.path.join("p", "CMakeLists.txt") + ":5: error: When "
                                   "SCENARIO_NUM = 4, use dav-3510")
    monkeypatch.delenv("PIPEV_TEST_HOME")
    with pytest.raises(CMakeError, match="set PIPEV_TEST_HOME"):
        read_project("p")
