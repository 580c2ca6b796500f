// A tiled add in the AscendC style: each core adds its share of x and y in tiles, with BUFS
// buffers per TQue (2: double buffering, so copy-in, compute and copy-out overlap). pipev's own test kernel.
// A `// => X` comment names what the line must issue (tests/test_ascendc_headers.py).
#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiled_add.h"

template <typename T, int BUFS> class TiledAdd {
public:
    __aicore__ inline TiledAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength,
                                uint32_t tileNum)
    {
        blockLength = totalLength / AscendC::GetBlockNum();
        tileCount = tileNum;
        tileLength = blockLength / tileNum;
        uint64_t start = blockLength * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ T*)x + start, blockLength);
        yGm.SetGlobalBuffer((__gm__ T*)y + start, blockLength);
        zGm.SetGlobalBuffer((__gm__ T*)z + start, blockLength);
        pipe.InitBuffer(inX, BUFS, tileLength * sizeof(T));
        pipe.InitBuffer(inY, BUFS, tileLength * sizeof(T));
        pipe.InitBuffer(outZ, BUFS, tileLength * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileCount; ++i) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i)
    {
        AscendC::LocalTensor<T> x = inX.template AllocTensor<T>();  // => ub que0_0 | ub que0_1 | wait_flag V, MTE2
        AscendC::LocalTensor<T> y = inY.template AllocTensor<T>();
        AscendC::DataCopy(x, xGm[i * tileLength], tileLength);  // => copy_gm_to_ub que0_
        AscendC::DataCopy(y, yGm[i * tileLength], tileLength);
        inX.EnQue(x);  // => set_flag MTE2, V
        inY.EnQue(y);
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> x = inX.template DeQue<T>();  // => wait_flag MTE2, V
        AscendC::LocalTensor<T> y = inY.template DeQue<T>();
        AscendC::LocalTensor<T> z = outZ.template AllocTensor<T>();
        AscendC::Add(z, x, y, tileLength);  // => add.
        outZ.EnQue(z);  // => set_flag V, MTE3
        inX.FreeTensor(x);  // => set_flag V, MTE2
        inY.FreeTensor(y);
    }
    __aicore__ inline void CopyOut(uint32_t i)
    {
        AscendC::LocalTensor<T> z = outZ.template DeQue<T>();  // => wait_flag V, MTE3
        AscendC::DataCopy(zGm[i * tileLength], z, tileLength);  // => copy_ub_to_gm gm
        outZ.FreeTensor(z);  // => set_flag MTE3, V
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inX, inY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outZ;
    AscendC::GlobalTensor<T> xGm, yGm, zGm;
    uint32_t blockLength = 0, tileCount = 0, tileLength = 0;
};

template <int D_T, int BUFS>
__global__ __aicore__ void tiled_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TiledAddTiling);
    GET_TILING_DATA(t, tiling);
    if constexpr (D_T == C_DT_FLOAT) {
        TiledAdd<float, BUFS> op;
        op.Init(x, y, z, t.totalLength, t.tileNum);
        op.Process();
    } else {
        TiledAdd<half, BUFS> op;
        op.Init(x, y, z, t.totalLength, t.tileNum);
        op.Process();
    }
}
template __global__ __aicore__ void tiled_add<C_DT_FLOAT, 1>(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR);
template __global__ __aicore__ void tiled_add<C_DT_FLOAT, 2>(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR);
template __global__ __aicore__ void tiled_add<C_DT_FLOAT16, 2>(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR);

// The NPU entry of the acl harness: `tiled_add<C_DT_FLOAT, 2><<<blockDim, nullptr, stream>>>(x,
// y, z, tiling);` as a launch rewrite that passes the argument text writes it (the test has no
// rewriter).
void tiled_add_do(uint32_t blockDim, void* stream, uint8_t* x, uint8_t* y, uint8_t* z,
                  uint8_t* tiling)
{
    (void)stream;
    pipev::launch_named(__FILE__, __LINE__, "tiled_add<C_DT_FLOAT, 2>", "x, y, z, tiling", blockDim, tiled_add<C_DT_FLOAT, 2>, x, y, z, tiling);  // => launch tiled_add<C_DT_FLOAT, 2> | gm gm_x | gm gm_tiling
}
