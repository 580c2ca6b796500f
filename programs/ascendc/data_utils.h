// data_utils.h: the host helpers of the AscendC examples: deterministic inputs and the files the
// examples write (FILE.bin, raw little-endian elements, in the current directory).
#ifndef PROGRAMS_ASCENDC_DATA_UTILS_H
#define PROGRAMS_ASCENDC_DATA_UTILS_H
#include <cstdint>
#include <cstdio>

#include "kernel_operator.h"

namespace demo {
// A reproducible pseudo-random sequence (xorshift32): the same inputs on every machine.
struct Rng {
    uint32_t s;
    explicit Rng(uint32_t seed) : s(seed ? seed : 1) {}
    uint32_t next()
    {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        return s;
    }
};

// N values on a quarter-step grid in [-8, 8): exact in half and float, so any rounding a kernel
// does is the kernel's own.
template <typename T> void FillGrid(T* p, size_t n, uint32_t seed)
{
    Rng r(seed);
    for (size_t i = 0; i < n; ++i) p[i] = T(float(int(r.next() >> 8) % 64 - 32) / 4.0f);
}
inline void FillBytes(uint8_t* p, size_t n, uint32_t seed)
{
    Rng r(seed);
    for (size_t i = 0; i < n; ++i) p[i] = uint8_t(r.next() >> 24);
}

inline bool WriteFile(const char* path, const void* data, size_t bytes)
{
    std::FILE* f = std::fopen(path, "wb");
    if (f == nullptr) {
        std::fprintf(stderr, "cannot write %s\n", path);
        return false;
    }
    bool ok = std::fwrite(data, 1, bytes, f) == bytes;
    ok = std::fclose(f) == 0 && ok;
    if (ok) std::printf("wrote %s (%zu bytes)\n", path, bytes);
    return ok;
}
}  // namespace demo
#endif
