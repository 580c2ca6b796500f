// tiling/platform/platform_ascendc.h (pipev): the host's platform object, answering from the
// chip profile pipev runs (docs/ascendc.md, "Host helpers"): the core counts a tiling function
// divides work by, and the Unified Buffer's size. Facts a profile does not hold (the cube core
// count, the other memories) are an error at the call, never a made-up figure.
#ifndef PIPEV_PLATFORM_ASCENDC_H
#define PIPEV_PLATFORM_ASCENDC_H
#include <cstdint>

#include "../../pipev/core.h"

namespace platform_ascendc {
enum class CoreMemType { L0_A = 0, L0_B, L0_C, L1, L2, UB, HBM, RESERVED };

class PlatformAscendC {
public:
    PlatformAscendC() = default;
    explicit PlatformAscendC(const void*) {}
    // the profile's vector cores (the A2/A3 and the 950 separate AIC and AIV: GetCoreNum is
    // the AIV count there)
    uint32_t GetCoreNumAiv() const { return uint32_t(chip("chip.vector_cores")); }
    uint32_t GetCoreNum() const { return GetCoreNumAiv(); }
    uint32_t GetCoreNumAic(PIPEV_LOC) const {
        unknown("GetCoreNumAic (the cube core count)", loc);
        return 0;
    }
    void GetCoreMemSize(const CoreMemType& memType, uint64_t& size, PIPEV_LOC) const {
        if (memType != CoreMemType::UB) unknown("GetCoreMemSize of a memory other than UB", loc);
        size = pipev::detail::bridge().ub_bytes;
    }

private:
    static uint64_t chip(const char* name) {
        uint64_t v = 0;
        pipev::detail::check(pipev::detail::bridge().special(name, &v));
        return v;
    }
    static void unknown(const char* what, pipev::Loc loc) {
        pipev::detail::error(loc, "PlatformAscendC::%s is not in pipev's chip profile; pipev "
                             "answers GetCoreNum, GetCoreNumAiv and GetCoreMemSize(UB)", what);
    }
};
class PlatformAscendCManager {
public:
    static PlatformAscendC* GetInstance() {
        static PlatformAscendC platform;
        return &platform;
    }
    static PlatformAscendC* GetInstance(const char*) { return GetInstance(); }
};
}  // namespace platform_ascendc
#endif
