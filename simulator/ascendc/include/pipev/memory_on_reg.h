// pipev/memory_on_reg.h: Memory-vector APIs that ascend950 builds from the Reg API and pipev
// models as the same reg-based sequence (issue 34, r6; docs/decisions.md). Clean room, from the
// public API pages.
//   Sqrt<T, config>(dst, src, count): the Memory Sqrt page's SqrtConfig form (Ascend 950 only).
//   SqrtAlgo::INTRINSIC is the form without config (the page: equivalent), the memory-based
//   instruction; another algo runs one vector function over the count: UpdateMask, LoadAlign,
//   Reg::Sqrt in that algo, StoreAlign, a VL at a time.
#ifndef PIPEV_MEMORY_ON_REG_H
#define PIPEV_MEMORY_ON_REG_H
#include "reg.h"
#include "tensor.h"
#include "unmodelled.h"
#include "vector.h"

namespace AscendC {
template <class T, const SqrtConfig& config>
void Sqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count,
          PIPEV_LOC) {
    if constexpr (config.algo == SqrtAlgo::INTRINSIC) {
        Sqrt<T>(dst, src, count, loc);
    } else {
        static constexpr Reg::SqrtSpecificMode mode = {Reg::MaskMergeMode::ZEROING, false,
                                                       config.algo};
        constexpr uint32_t per = 256 / sizeof(T);
        __ubuf__ T* d = (__ubuf__ T*)dst.GetPhyAddr();
        __ubuf__ T* s = (__ubuf__ T*)src.GetPhyAddr();
        uint32_t left = uint32_t(count);
        uint16_t repeats = uint16_t((left + per - 1) / per);
        pipev::VecScope scope{loc};
        Reg::RegTensor<T> in, out;
        Reg::MaskReg mask;
        for (uint16_t i = 0; i < repeats; i++) {
            mask = Reg::UpdateMask<T>(left, loc);
            Reg::LoadAlign(in, s + i * per, loc);
            Reg::Sqrt<T, &mode>(out, in, mask, loc);
            Reg::StoreAlign(d + i * per, out, mask, loc);
        }
    }
}
}  // namespace AscendC
#endif
