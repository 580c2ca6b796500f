// SetDeqScale and CastDequant (#27, #29), written from the vendor's public SetDeqScale and
// CastDequant pages: the statements `set_deq_scale` and `cast_dequant` (isa/api.py expands them
// into set_deqscale and vconv_deq / vconv_(v)deqs162b8h/l).
#ifndef PIPEV_DEQUANT_H
#define PIPEV_DEQUANT_H
#include <cstring>

namespace AscendC {
constexpr uint8_t VDEQ_TENSOR_SIZE = 16;
// The 16 (scale, offset, signMode) groups of CastDequant's vector mode.
struct VdeqInfo {
    VdeqInfo() {}
    VdeqInfo(const float scaleIn[VDEQ_TENSOR_SIZE], const int16_t offsetIn[VDEQ_TENSOR_SIZE],
             const bool signModeIn[VDEQ_TENSOR_SIZE]) {
        for (int k = 0; k < VDEQ_TENSOR_SIZE; ++k) {
            vdeqScale[k] = scaleIn[k];
            vdeqOffset[k] = offsetIn[k];
            vdeqSignMode[k] = signModeIn[k];
        }
    }
    float vdeqScale[VDEQ_TENSOR_SIZE] = {0};
    int16_t vdeqOffset[VDEQ_TENSOR_SIZE] = {0};
    bool vdeqSignMode[VDEQ_TENSOR_SIZE] = {0};
};

// Cast / CastDequant int32_t → half: DEQSCALE = the half scale.
inline void SetDeqScale(half scale, PIPEV_LOC) {
    pipev::detail::Stmt s("set_deq_scale.f16");
    s.op("%s", pipev::detail::scalar_text(scale).c_str());
    s.issue(loc);
}
// CastDequant int16_t → b8, isVecDeq = false.
inline void SetDeqScale(float scale, int16_t offset, bool signMode, PIPEV_LOC) {
    pipev::detail::Stmt s("set_deq_scale.f32");
    s.op("%s", pipev::detail::scalar_text(scale).c_str());
    int16_t s9 = int16_t(offset & 0x1ff);  // only the 9 low bits count (the page)
    if (s9 >= 256) s9 = int16_t(s9 - 512);
    s.op("deq_offset=%d", int(s9)).op("sign=%d", int(signMode));
    s.issue(loc);
}
// CastDequant int16_t → b8, isVecDeq = true: the 16 words into VDEQ (scalar stores, as
// SetValue), then DEQSCALE = its address / 32. A word's layout is the register's (the
// SetDeqScale page's bit table): scale [31:0], offset [45:37], signMode [46].
template <typename T>
void SetDeqScale(const LocalTensor<T>& vdeq, const VdeqInfo& info, PIPEV_LOC) {
    static_assert(sizeof(T) == 8, "SetDeqScale: the vdeq tensor is uint64_t");
    for (int k = 0; k < VDEQ_TENSOR_SIZE; ++k) {
        uint32_t bits;
        std::memcpy(&bits, &info.vdeqScale[k], 4);
        uint64_t w = uint64_t(bits) | (uint64_t(uint16_t(info.vdeqOffset[k]) & 0x1ff) << 37) |
                     (uint64_t(info.vdeqSignMode[k]) << 46);
        vdeq.SetValue(k, static_cast<T>(w), loc);
    }
    pipev::detail::Stmt s("set_deq_scale.u64");
    pipev::detail::ub_ops(s, loc, vdeq);
    s.issue(loc);
}

template <typename T, typename U, bool isVecDeq = true, bool halfBlock = true>
void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count,
                 PIPEV_LOC) {
    pipev::detail::count_form(pipev::detail::head<T, U>("cast_dequant"), count, loc,
                              [&](pipev::detail::Stmt& s) {
        pipev::detail::ub_ops(s, loc, dst, src);
        s.op("vec_deq=%d", int(isVecDeq)).op("half_block=%d", int(halfBlock));
    });
}
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true,
          bool halfBlock = true, class M>
void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src, const M& mask,
                 uint8_t repeatTime, const UnaryRepeatParams& repeatParams, PIPEV_LOC) {
    auto m = pipev::detail::mask_of(mask);
    pipev::detail::hd_form<U>(
        pipev::detail::head<T, U>("cast_dequant"), isSetMask ? &m : nullptr, repeatTime,
        pipev::detail::unary_stride(repeatParams), loc, [&](pipev::detail::Stmt& s) {
        pipev::detail::ub_ops(s, loc, dst, src);
        s.op("vec_deq=%d", int(isVecDeq)).op("half_block=%d", int(halfBlock));
    });
}
}  // namespace AscendC
#endif
