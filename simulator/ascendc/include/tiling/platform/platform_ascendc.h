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
enum class SocVersion { ASCEND910 = 0, ASCEND910B, ASCEND310P, ASCEND310B, ASCEND910_93,
                        RESERVED_VERSION = 99999 };

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
        size = pipev::detail::ub_usable();
    }

    // every other member of the documented class compiles; each answers what pipev knows or
    // is an error at the call. pipev's APIs take no library workspace from GM, so the workspace
    // sizes a tiling function adds to its own are 0 (docs/decisions.md).
    uint32_t GetLibApiWorkSpaceSize() const { return 0; }
    uint32_t GetResGroupBarrierWorkSpaceSize() const { return 0; }
    uint32_t GetResCubeGroupWorkSpaceSize() const { return 0; }
    SocVersion GetSocVersion(PIPEV_LOC) const {
        unknown("GetSocVersion", loc);
        return SocVersion::RESERVED_VERSION;
    }
    uint32_t GetCoreNumVector(PIPEV_LOC) const {
        unknown("GetCoreNumVector (the separate vector core count)", loc);
        return 0;
    }
    uint32_t CalcTschBlockDim(uint32_t, uint32_t, uint32_t, PIPEV_LOC) const {
        unknown("CalcTschBlockDim (a cube and vector mix)", loc);
        return 0;
    }
    uint32_t CalcTschNumBlocks(uint32_t, uint32_t, uint32_t, PIPEV_LOC) const {
        unknown("CalcTschNumBlocks (a cube and vector mix)", loc);
        return 0;
    }
    void GetCoreMemBw(const CoreMemType&, uint64_t& bw, PIPEV_LOC) const {
        unknown("GetCoreMemBw", loc);
        bw = 0;
    }
    int64_t ReserveLocalMemory(int64_t, PIPEV_LOC) const {
        unknown("ReserveLocalMemory", loc);
        return 0;
    }

private:
    static uint64_t chip(const char* name) {
        uint64_t v = 0;
        pipev::detail::check(pipev::detail::bridge().special(name, &v));
        return v;
    }
    static void unknown(const char* what, pipev::Loc loc) {
        pipev::detail::error(loc, "PlatformAscendC::%s is not in pipev's chip profile; pipev "
                             "answers GetCoreNum, GetCoreNumAiv, GetCoreMemSize(UB) and the "
                             "workspace sizes", what);
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
