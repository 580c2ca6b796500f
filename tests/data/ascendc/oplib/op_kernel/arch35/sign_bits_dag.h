// pipev's own test kernel (issue 34), operator-library style: the element-wise computation of
// "sign_bits": y = (x > 0) - (x < 0) in a __VEC_SCOPE__ sized by AscendC::VECTOR_REG_WIDTH, and
// one bit an element of x != 0 by the Memory-vector Compares.
#ifndef SIGN_BITS_DAG_H
#define SIGN_BITS_DAG_H
#include "sched/tile_sch.h"
#include "adv_api/math/exp.h"  // the advanced API's header path (nothing of it is called)

namespace SignBitsOp {
using namespace AscendC;
template <class T>
struct SignBits {
    __aicore__ inline SignBits(LocalTensor<T>& dst, LocalTensor<T>& src, LocalTensor<uint8_t>& bits,
                               uint32_t count)
    {
#if __CCE_AICORE__ == 310
        constexpr uint32_t vl = AscendC::VECTOR_REG_WIDTH / sizeof(T);
        uint16_t loops = uint16_t((count + vl - 1) / vl);
        uint32_t left = count;
        __VEC_SCOPE__
        {
            __ubuf__ T* s = (__ubuf__ T*)src.GetPhyAddr();
            __ubuf__ T* d = (__ubuf__ T*)dst.GetPhyAddr();
            Reg::RegTensor<T> in, one, zero, pos, neg, out;
            Reg::MaskReg gt, lt, mask;
            for (uint16_t k = 0; k < loops; ++k) {
                mask = Reg::UpdateMask<T>(left);
                Reg::LoadAlign(in, s + k * vl);
                Reg::Compares<T, CMPMODE::GT>(gt, in, T(0), mask);
                Reg::Compares<T, CMPMODE::LT>(lt, in, T(0), mask);
                Reg::Duplicate(one, T(1), mask);
                Reg::Duplicate(zero, T(0), mask);
                Reg::Select(pos, one, zero, gt);
                Reg::Select(neg, one, zero, lt);
                Reg::Sub(out, pos, neg, mask);
                Reg::StoreAlign(d + k * vl, out, mask);
            }
        }
        PipeBarrier<PIPE_V>();
        CompareScalar(bits, src, T(0), CMPMODE::NE, (count + 63) / 64 * 64);
#endif
    }
};
}  // namespace SignBitsOp
#endif
