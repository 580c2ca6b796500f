// pipev_bridge.h: the one interface between pipev's clean-room AscendC headers (C++) and the
// pipev process (Python, through ctypes). The headers turn every API call into one pipev
// statement in .vasm syntax (docs/isa.md, docs/format.md §4, §6-§8) and hand it over here; pipev
// assembles it once per call site, runs it on the simulated machine with checks, timing and
// traces, and returns. Scalar C++ code runs natively and is not timed.
//
// Rules of the interface:
// - Every callback returns 0 on success. Nonzero means pipev has stopped the run (an error was
//   reported with the caller's FILE:LINE:COL): the headers issue nothing more and unwind by
//   throwing pipev::Stopped (kernel_operator.h), which the launch wrapper catches.
// - Statement texts are fixed per call site: values that change from call to call (addresses,
//   element offsets, counts, repeat counts, mask words) are written as registers x1..x31 in the
//   text (`x[x1]`, `@x2`, `count=x3`, `mask_lo=x4`) and passed in REGS (regs[k] is x(k+1)); pipev
//   loads them into the scalar registers without modelling `li` instructions. Scalar immediates
//   of a float type are passed as raw bits: write `raw(0x3c00)` in the text (pipev's raw-bits
//   immediate), so NaN payloads survive.
// - UB is host memory: `ub` points at the machine's Unified Buffer (ub_bytes bytes; the top
//   scratch_bytes are pipev's scratch area, never handed out by TPipe). GetValue/SetValue read
//   and write it directly and report the access through host_access (for the race checks).
// - GM buffers are host memory too: gm_buffer declares one (GmAlloc, aclrtMalloc,
//   SetGlobalBuffer), and DMA statements name it by NAME; pipev's DMA reads and writes the
//   host bytes in place.
#ifndef PIPEV_BRIDGE_H
#define PIPEV_BRIDGE_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pipev_bridge {
    // One .vasm statement (API or hardware level) issued at FILE:LINE:COL (col 0: unknown).
    int (*issue)(const char *file, int line, int col, const char *text, const uint64_t *regs,
                 int nregs);
    // A typed UB tensor: NAME (a C identifier, unique per launch), TYPE a pipev type or C alias
    // (f16/half, f32/float, u8/uint8_t, ...), COUNT elements at byte ADDR. Tensors may alias
    // (a ReinterpretCast view is a second tensor at the same address).
    int (*ub_tensor)(const char *file, int line, const char *name, const char *type,
                     uint64_t addr, uint64_t count);
    // A GM buffer of BYTES bytes at host address HOST, named NAME in statements.
    int (*gm_buffer)(const char *file, int line, const char *name, const char *type, void *host,
                     uint64_t bytes);
    // The kernel's scalar code read (write = 0) or wrote (write = 1) UB bytes [addr, addr+bytes).
    int (*host_access)(const char *file, int line, uint64_t addr, uint64_t bytes, int write);
    // A diagnostic of the headers' own (queue rules, ASSERT, API misuse): severity 0 note,
    // 1 warning, 2 error (an error stops the run: the call returns nonzero). Also printf output
    // (severity -1: TEXT is printed as it is, on the kernel's stdout).
    int (*message)(const char *file, int line, int col, int severity, const char *text);
    // A kernel launch begins (BLOCK_DIM cores) and ends.
    int (*launch)(const char *file, int line, const char *kernel, uint32_t block_dim);
    int (*launch_end)(void);
    uint8_t *ub;
    uint64_t ub_bytes;
    uint64_t scratch_bytes;
    int32_t npu_arch;    // __NPU_ARCH__ of the chip: ascend910b 2201, ascend950 3510, ...
    uint32_t block_idx;  // GetBlockIdx() of the running core
    uint32_t block_num;  // GetBlockNum()
    // Facts of the chip's profile (isa/chips/*.toml) the headers need while issuing:
    int32_t counter_mode;  // 1: the chip has counter mode (a count= may be a register)
    int32_t event_ids;     // event ids per pipe pair (TPipe hands them out)
    // A special register the vector unit leaves for scalar code, by NAME ("rsvd_cnt": the
    // elements the last GatherMask wrote, GetRsvdCnt), into *VALUE. Not timed, as GetValue.
    int (*special)(const char *name, uint64_t *value);
    // GetSystemCycle: the running core's S-pipe time in 50 MHz system-counter ticks (0 outside
    // a launch).
    int64_t (*system_cycle)(void);
    // The first BYTES of GM buffer NAME hold the program's data: an allocation's size before
    // the runtime's slack (aclrtMalloc, GmAlloc). The buffer, slack included, is what kernels
    // may read; outputs (--json hashes, --expect, the Python API) cover the data bytes.
    int (*gm_data)(const char *name, uint64_t bytes);
    // The kernel set a GlobalTensor<TYPE> (SetGlobalBuffer at FILE:LINE) over COUNT elements at
    // host address HOST (COUNT 0: no size given). TYPE is a pipev type, or "" for an element
    // type pipev has none for. Not a declaration (HOST is inside a GM buffer gm_buffer
    // declared): the debugger shows GM in the kernel's types and variable names.
    int (*gm_tensor)(const char *file, int line, const char *type, const void *host,
                     uint64_t count);
    // The kernel's scalar code read (write = 0) or wrote (write = 1) BYTES bytes at byte
    // OFFSET of GM buffer NAME (GlobalTensor GetValue / SetValue): the cross-core race check
    // sees it. Not timed.
    int (*gm_access)(const char *file, int line, const char *name, uint64_t offset,
                     uint64_t bytes, int write);
    // The top SPILL_BYTES of UB are reserved for the compiler's register spills (ascend950:
    // 8 KB of its 256 KB): a kernel may allocate them, as silicon lets it, with a warning.
    uint64_t spill_bytes;
    // SyncAll across the cores of a launch (include/pipev/cores.h): the running core reached a
    // SyncAll at FILE:LINE, its pipes drained (the headers issued `pipe_barrier ALL`); it waits
    // there until every core of the launch arrived. pipev times the barrier when the last one
    // arrives. Called only in a launch of several cores.
    int (*sync_all)(const char *file, int line);
    // CORE runs from now (a SyncAll suspended the running core, or it ended): pipev makes CORE's
    // machine the running one (its UB at `ub`, `block_idx` CORE), starting it the first time.
    int (*switch_core)(uint32_t core);
} pipev_bridge;

// Defined once in the compiled kernel (by the headers); pipev calls it before main().
void pipev_set_bridge(pipev_bridge *bridge);

#ifdef __cplusplus
}
#endif
#endif
