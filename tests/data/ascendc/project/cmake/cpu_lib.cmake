find_package(tikicpulib REQUIRED)

add_library(ascendc_kernels_${RUN_MODE} SHARED
    ${KERNEL_FILES}
)
# the CPU twin's imported target gives ASCENDC_CPU_DEBUG to this library and, linked PUBLIC,
# to the executable that links it
target_link_libraries(ascendc_kernels_${RUN_MODE} PUBLIC
    tikicpulib::${SOC_VERSION}
)
