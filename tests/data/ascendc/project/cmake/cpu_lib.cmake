find_package(tikicpulib REQUIRED)

add_library(ascendc_kernels_${RUN_MODE} SHARED
    ${KERNEL_FILES}
)
target_link_libraries(ascendc_kernels_${RUN_MODE} PRIVATE
    tikicpulib::${SOC_VERSION}
)
target_compile_definitions(ascendc_kernels_${RUN_MODE} PRIVATE
    ASCENDC_CPU_DEBUG
)
