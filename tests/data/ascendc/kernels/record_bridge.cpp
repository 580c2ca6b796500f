// record_bridge.cpp: a stand-in for pipev in the header tests. It implements the pipev_bridge
// callbacks by printing one tab-separated record per call on stdout (tests/test_ascendc_headers.py
// parses them); an error message (severity 2) stops the run, as pipev would.
//   issue  FILE LINE TEXT REGS        ub  FILE LINE NAME TYPE ADDR COUNT
//   gm     FILE LINE NAME TYPE BYTES  access FILE LINE ADDR BYTES WRITE
//   message FILE LINE SEVERITY TEXT   launch FILE LINE KERNEL BLOCKDIM      launch_end
// The chip comes from PIPEV_NPU_ARCH (default 2201, ascend910b).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "pipev_bridge.h"

namespace {
std::string escape(const char* s) {
    std::string out;
    for (; *s; ++s) {
        if (*s == '\n') out += "\\n";
        else if (*s == '\t') out += "\\t";
        else if (*s == '\\') out += "\\\\";
        else out += *s;
    }
    return out;
}
int issue(const char* file, int line, int, const char* text, const uint64_t* regs, int nregs) {
    std::printf("issue\t%s\t%d\t%s\t", file, line, text);
    for (int i = 0; i < nregs; ++i)
        std::printf("%sx%d=%llu", i ? " " : "", i + 1, (unsigned long long)regs[i]);
    std::printf("\n");
    return 0;
}
int ub_tensor(const char* file, int line, const char* name, const char* type, uint64_t addr,
              uint64_t count) {
    std::printf("ub\t%s\t%d\t%s\t%s\t%llu\t%llu\n", file, line, name, type,
                (unsigned long long)addr, (unsigned long long)count);
    return 0;
}
int gm_buffer(const char* file, int line, const char* name, const char* type, void*,
              uint64_t bytes) {
    std::printf("gm\t%s\t%d\t%s\t%s\t%llu\n", file, line, name, type, (unsigned long long)bytes);
    return 0;
}
int host_access(const char* file, int line, uint64_t addr, uint64_t bytes, int write) {
    std::printf("access\t%s\t%d\t%llu\t%llu\t%d\n", file, line, (unsigned long long)addr,
                (unsigned long long)bytes, write);
    return 0;
}
int message(const char* file, int line, int, int severity, const char* text) {
    std::printf("message\t%s\t%d\t%d\t%s\n", file, line, severity, escape(text).c_str());
    return severity >= 2 ? 1 : 0;
}
int launch(const char* file, int line, const char* kernel, uint32_t block_dim) {
    std::printf("launch\t%s\t%d\t%s\t%u\n", file, line, kernel, block_dim);
    return 0;
}
// GetSystemCycle, the data bytes of an allocation and the GlobalTensor views are not recorded
// (pipev's own tests cover them): a clock that stands still, nothing to note.
int64_t system_cycle() { return 0; }
// Special registers (GetRsvdCnt, the reduction registers) read 0: they carry no position.
int special(const char*, uint64_t* value) {
    *value = 0;
    return 0;
}
int gm_data(const char*, uint64_t) { return 0; }
int gm_tensor(const char*, int, const char*, const void*, uint64_t) { return 0; }
int launch_end() {
    std::printf("launch_end\n");
    return 0;
}

struct Install {
    pipev_bridge bridge{};
    Install() {
        const char* arch = std::getenv("PIPEV_NPU_ARCH");
        bridge.npu_arch = arch ? std::atoi(arch) : 2201;
        switch (bridge.npu_arch) {
            case 2201: bridge.ub_bytes = 196608; break;
            case 1001: case 2002: case 3510: bridge.ub_bytes = 262144; break;
            default: bridge.ub_bytes = 253952; break;  // 3002
        }
        bridge.scratch_bytes = 8192;
        bridge.spill_bytes = bridge.npu_arch == 3510 ? 8192 : 0;
        bridge.counter_mode = bridge.npu_arch != 1001;  // the chip TOMLs: ascend910 has none
        bridge.event_ids = bridge.npu_arch == 1001 ? 4 : 8;
        bridge.ub = static_cast<uint8_t*>(std::aligned_alloc(4096, bridge.ub_bytes));
        std::memset(bridge.ub, 0, bridge.ub_bytes);
        bridge.block_idx = 0;
        bridge.block_num = 1;
        bridge.issue = issue;
        bridge.ub_tensor = ub_tensor;
        bridge.gm_buffer = gm_buffer;
        bridge.host_access = host_access;
        bridge.message = message;
        bridge.launch = launch;
        bridge.launch_end = launch_end;
        bridge.system_cycle = system_cycle;
        bridge.gm_data = gm_data;
        bridge.special = special;
        bridge.gm_tensor = gm_tensor;
        std::setvbuf(stdout, nullptr, _IOFBF, 1 << 16);
        pipev_set_bridge(&bridge);
    }
} install;
}  // namespace
