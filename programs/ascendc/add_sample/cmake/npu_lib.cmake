# The kernel library (the CANN's ascendc.cmake, which defines ascendc_library, is not needed
# by pipev: the include below is skipped when the file is outside the sample).
include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)
ascendc_library(ascendc_kernels_${RUN_MODE} STATIC
    ${KERNEL_FILES}
)
