// pipev's own test kernel in the style of the vendor's operator library (issue 34): a common
// header of "the library" that a kernel includes before kernel_operator.h, guarded by the device
// compiler's __CCE_AICORE__ as the library's headers are, scheduling ping-pong tiles through one
// UB pool and ordering the pipes with Mutex::Lock/Unlock on the tile's buffer id.
#ifndef OPLIB_TILE_SCH_H
#define OPLIB_TILE_SCH_H
#include <cstdint>

namespace OpLib {
struct TileTilingData {  // the 16-byte tiling struct: elements, cores, elements per tile
    int64_t total;
    int32_t cores;
    int32_t tile;
};
}  // namespace OpLib

#ifdef __CCE_AICORE__
#include "kernel_operator.h"
namespace OpLib {
using namespace AscendC;

// Compute(dst, src, bits, count) runs on the tile in UB; dst has the source's type, bits one bit
// an element.
template <class T, class Compute>
class TileSch {
public:
    __aicore__ inline TileSch(__tiling_data_ptr__ TileTilingData* tiling, TPipe* pipe)
        : tiling_(tiling), pipe_(pipe) {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR bits)
    {
        int64_t per = (tiling_->total + tiling_->cores - 1) / tiling_->cores;
        start_ = per * GetBlockIdx();
        count_ = tiling_->total - start_ < per ? tiling_->total - start_ : per;
        x_.SetGlobalBuffer((__gm__ T*)x + start_);
        y_.SetGlobalBuffer((__gm__ T*)y + start_);
        bits_.SetGlobalBuffer((__gm__ uint8_t*)bits + start_ / 8);
        tileBytes_ = tiling_->tile * sizeof(T) * 2 + tiling_->tile / 8;
        pipe_->InitBuffer(pool_, tileBytes_ * 2);
    }
    __aicore__ inline void Process()
    {
        for (int64_t done = 0, i = 0; done < count_; done += tiling_->tile, ++i) {
            uint32_t n = count_ - done < tiling_->tile ? uint32_t(count_ - done) : tiling_->tile;
            MutexID id = MutexID(i & 1);
            LocalTensor<uint8_t> base = pool_.Get<uint8_t>()[(i & 1) * tileBytes_];
            LocalTensor<T> src = base.ReinterpretCast<T>();
            src.SetBufferLen(tiling_->tile);
            LocalTensor<T> dst = base[tiling_->tile * sizeof(T)].template ReinterpretCast<T>();
            dst.SetBufferLen(tiling_->tile);
            LocalTensor<uint8_t> bits = base[tiling_->tile * sizeof(T) * 2];
            bits.SetBufferLen(tiling_->tile / 8);
            Mutex::Lock<PIPE_MTE2>(id);
            DataCopyPad(src, x_[done], DataCopyExtParams{1, uint32_t(n * sizeof(T)), 0, 0, 0},
                        DataCopyPadExtParams<T>{false, 0, 0, 0});
            Mutex::Unlock<PIPE_MTE2>(id);
#ifndef OPLIB_SKIP_V_LOCK  // the race check's test leaves the vector pipe's lock out
            Mutex::Lock<PIPE_V>(id);
#endif
            Compute(dst, src, bits, n);
            Mutex::Unlock<PIPE_V>(id);
            Mutex::Lock<PIPE_MTE3>(id);
            DataCopyPad(y_[done], dst, DataCopyExtParams{1, uint32_t(n * sizeof(T)), 0, 0, 0});
            DataCopyPad(bits_[done / 8], bits, DataCopyExtParams{1, n / 8, 0, 0, 0});
            Mutex::Unlock<PIPE_MTE3>(id);
        }
    }

private:
    __tiling_data_ptr__ TileTilingData* tiling_;
    TPipe* pipe_;
    TBuf<TPosition::VECCALC> pool_;
    GlobalTensor<T> x_, y_;
    GlobalTensor<uint8_t> bits_;
    int64_t start_ = 0, count_ = 0;
    uint32_t tileBytes_ = 0;
};
}  // namespace OpLib
#endif
#endif
