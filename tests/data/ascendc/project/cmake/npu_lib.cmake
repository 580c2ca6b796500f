if(EXISTS ${ASCEND_CANN_PACKAGE_PATH}/compiler/tikcpp/ascendc_kernel_cmake)
    set(ASCENDC_CMAKE_DIR ${ASCEND_CANN_PACKAGE_PATH}/compiler/tikcpp/ascendc_kernel_cmake)
endif()
include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)

# ascendc_library compiles the kernel sources into a library the host executable links
ascendc_library(ascendc_kernels_${RUN_MODE} STATIC
    ${KERNEL_FILES}
)
