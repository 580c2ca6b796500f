// pipev's own test kernel (issue 34) in the operator library's kernel style: template arguments
// from the tiling key's declaration, the TilingKey dispatch, the 16-byte tiling struct read
// through GET_TILING_DATA_PTR_WITH_STRUCT, the workspace calls and the kernel type.
#include "arch35/sign_bits_dag.h"
#include "tiling/template_argument.h"
#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"

#define TPL_FP16 1
#define TPL_FP32 3
ASCENDC_TPL_ARGS_DECL(SignBits, ASCENDC_TPL_DTYPE_DECL(dType, TPL_FP16, TPL_FP32));

using namespace AscendC;

template <uint64_t dType>
__global__ __aicore__ void sign_bits(GM_ADDR x, GM_ADDR y, GM_ADDR bits, GM_ADDR workspace,
                                     GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    SetSysWorkspace(workspace);
    GM_ADDR user = GetUserWorkspace(workspace);
    if (user != workspace || GetSysWorkSpacePtr() != workspace) return;  // nothing would be written
    REGISTER_TILING_DEFAULT(OpLib::TileTilingData);
    GET_TILING_DATA_PTR_WITH_STRUCT(OpLib::TileTilingData, tilingData, tiling);
    TPipe pipe;
    if (TILING_KEY_IS(300000000000101UL)) {
        if constexpr (dType == TPL_FP32) {
            OpLib::TileSch<float, SignBitsOp::SignBits<float>> sch(tilingData, &pipe);
            sch.Init(x, y, bits);
            sch.Process();
        } else {
            OpLib::TileSch<half, SignBitsOp::SignBits<half>> sch(tilingData, &pipe);
            sch.Init(x, y, bits);
            sch.Process();
        }
    }
}
