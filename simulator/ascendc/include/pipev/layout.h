// pipev/layout.h: Brcb (issue 28): one `brcb` statement (isa/api.py → vbrcb); MASK is not
// considered by the instruction, so the call sets none.
#ifndef PIPEV_LAYOUT_H
#define PIPEV_LAYOUT_H
#include "vector.h"

namespace AscendC {
// Brcb's strides: dst's block stride and repeat stride in 32-byte blocks (the other fields of
// the vendor's struct are reserved).
struct BrcbRepeatParams {
    BrcbRepeatParams() = default;
    BrcbRepeatParams(uint16_t dstBlk, uint16_t dstRep) : dstBlkStride(dstBlk), dstRepStride(dstRep) {}
    uint16_t dstBlkStride = 1;
    uint16_t dstRepStride = 8;
};

template <typename T>
void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t repeatTime,
          const BrcbRepeatParams& repeatParams, PIPEV_LOC) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Brcb: T is a 16- or 32-bit type");
    pipev::detail::Stmt s("brcb.%s", pipev::type_name<T>);
    pipev::detail::ub_op(s, dst, loc);
    pipev::detail::ub_op(s, src0, loc);
    s.key("repeat", repeatTime);
    s.op("stride=%u,%u", unsigned(repeatParams.dstBlkStride), unsigned(repeatParams.dstRepStride));
    s.issue(loc);
}
}  // namespace AscendC
#endif
