// pipev/softmax_tiling.h: SoftMaxTiling, the struct the SoftMax/SimpleSoftMax tiling helpers fill
// on the host (tiling/tiling_api.h) and the kernel passes to the API (pipev/softmax.h). Its
// sixteen fields are the "SoftMax Tiling" page's, in its order; their values are pipev's own
// figures (pipev/tmp_sizes.h: rows a pass, the pass's sizes), which the page says a kernel need
// not read. One struct for both sides, at global scope as CANN's kernel-side struct is, named in
// optiling (the host class) and AscendC::tiling (the AscendC-namespace helpers) too.
#ifndef PIPEV_SOFTMAX_TILING_H
#define PIPEV_SOFTMAX_TILING_H
#include <cstddef>
#include <cstdint>
#include <cstring>

struct SoftMaxTiling {
    uint32_t srcM = 0, srcK = 0, srcSize = 0;
    uint32_t outMaxM = 0, outMaxK = 0, outMaxSize = 0;
    uint32_t splitM = 0, splitK = 0, splitSize = 0;
    uint32_t reduceM = 0, reduceK = 0, reduceSize = 0;
    uint32_t rangeM = 0, tailM = 0, tailSplitSize = 0, tailReduceSize = 0;

    // the host class's accessors (TILING_DATA_FIELD_DEF's set_/get_), as a nested struct field
    // of an op's tiling data is used
#define PIPEV_SOFTMAX_FIELD(F)                  \
    void set_##F(uint32_t v) { F = v; }         \
    uint32_t get_##F() const { return F; }
    PIPEV_SOFTMAX_FIELD(srcM) PIPEV_SOFTMAX_FIELD(srcK) PIPEV_SOFTMAX_FIELD(srcSize)
    PIPEV_SOFTMAX_FIELD(outMaxM) PIPEV_SOFTMAX_FIELD(outMaxK) PIPEV_SOFTMAX_FIELD(outMaxSize)
    PIPEV_SOFTMAX_FIELD(splitM) PIPEV_SOFTMAX_FIELD(splitK) PIPEV_SOFTMAX_FIELD(splitSize)
    PIPEV_SOFTMAX_FIELD(reduceM) PIPEV_SOFTMAX_FIELD(reduceK) PIPEV_SOFTMAX_FIELD(reduceSize)
    PIPEV_SOFTMAX_FIELD(rangeM) PIPEV_SOFTMAX_FIELD(tailM) PIPEV_SOFTMAX_FIELD(tailSplitSize)
    PIPEV_SOFTMAX_FIELD(tailReduceSize)
#undef PIPEV_SOFTMAX_FIELD
    void SaveToBuffer(void* buf, std::size_t capacity) const {
        std::memcpy(buf, this, sizeof(*this) < capacity ? sizeof(*this) : capacity);
    }
    std::size_t GetDataSize() const { return sizeof(*this); }
};
namespace optiling {
using ::SoftMaxTiling;
}  // namespace optiling
namespace AscendC::tiling {
using ::SoftMaxTiling;
}  // namespace AscendC::tiling
#endif
