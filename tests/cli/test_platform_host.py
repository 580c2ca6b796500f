"""#32: the host's platform object (tiling/platform/platform_ascendc.h) answers from the chip
profile pipev runs: GetCoreNum / GetCoreNumAiv are the profile's vector cores, GetCoreMemSize(UB)
its Unified Buffer; what a profile does not hold is an error at the call."""

from __future__ import annotations

import pytest

from isa.chip import get_chip

HOST = """#include <cstdio>
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
int main() {
    auto* p = platform_ascendc::PlatformAscendCManager::GetInstance();
    uint64_t ub = 0;
    p->GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    std::printf("aiv=%u core=%u ub=%llu\\n", p->GetCoreNumAiv(), p->GetCoreNum(),
                (unsigned long long)ub);
    std::printf("workspace=%u,%u,%u\\n", p->GetLibApiWorkSpaceSize(),
                p->GetResGroupBarrierWorkSpaceSize(), p->GetResCubeGroupWorkSpaceSize());
#ifdef AIC
    p->GetCoreNumAic();
#endif
#ifdef SOC
    p->GetSocVersion();
#endif
#ifdef OTHER_MEM
    p->GetCoreMemSize(platform_ascendc::CoreMemType::L1, ub);
#endif
    return 0;
}
"""


@pytest.mark.parametrize("chip", ["ascend910b", "ascend310b", "ascend950"])
def test_the_platform_object_answers_from_the_chip_profile(pipev, tmp_path, chip):
    (tmp_path / "host.cpp").write_text(HOST)
    proc = pipev("run", tmp_path / "host.cpp", "--chip", chip, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    profile = get_chip(chip)
    usable = profile.ub_bytes - profile.spill_reserve_bytes  # ascend950 keeps 8 KB for spills
    want = f"aiv={profile.vector_cores} core={profile.vector_cores} ub={usable}"
    assert want in proc.stdout, proc.stdout
    assert "workspace=0,0,0" in proc.stdout  # pipev's APIs take no library workspace


@pytest.mark.parametrize(("define", "line", "what"), [
    ("AIC", 13, "GetCoreNumAic (the cube core count)"),
    ("SOC", 16, "GetSocVersion"),
    ("OTHER_MEM", 19, "GetCoreMemSize of a memory other than UB"),
])
def test_a_fact_the_profile_lacks_is_an_error_at_the_call(pipev, tmp_path, define, line, what):
    (tmp_path / "host.cpp").write_text(HOST)
    proc = pipev("run", tmp_path / "host.cpp", "-D", define, cwd=tmp_path)
    assert proc.returncode == 1
    assert f"host.cpp:{line}:5: error: PlatformAscendC::{what} is not in pipev's chip " \
        "profile" in proc.stderr, proc.stderr
