"""A custom-operator project in msopgen's layout (tests/data/ascendc/opproject): the op_host
tiling header (BEGIN_TILING_DATA_DEF … REGISTER_TILING_DATA_CLASS, register/tilingdata_base.h)
and the op_kernel file, whose GET_TILING_DATA names no struct, which names the struct from the
global namespace and whose element types are the DTYPE_ macros of op_host's OpDef, compile
unchanged in a host main that fills the tiling with the header's set_ calls and SaveToBuffer;
the kernel reads back every field (a float, an array, a nested struct) and runs bit-exact on
four cores."""

from __future__ import annotations

from pathlib import Path

import numpy as np

PROJECT = Path(__file__).resolve().parents[1] / "data" / "ascendc" / "opproject"
N = 4096


def _inputs(tmp_path: Path) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(18)
    x, y = (rng.standard_normal(N).astype(np.float32) for _ in range(2))
    x[:4] = [np.inf, -0.0, 3.4e38, np.nan]
    x.tofile(tmp_path / "x.bin")
    y.tofile(tmp_path / "y.bin")
    return x, y


def test_an_op_projects_host_tiling_header_and_kernel_run_unchanged(pipev, tmp_path):
    x, y = _inputs(tmp_path)
    for scale in ("0.5f", "-3.25f"):
        proc = pipev("run", PROJECT / "main.cpp", "-I", PROJECT, "-D", f"SCALE={scale}",
                     "--werror", timeout=600)
        assert proc.returncode == 0, proc.stderr
        assert "tiling 20 bytes, reserved 7 9" in proc.stdout  # (the host class's getters)
        # DTYPE_X … float, from the OpDef; ORIG_DTYPE_X its code, DT_FLOAT
        assert "dtypes 4 4 4 0" in proc.stdout
        assert "scale_add_custom<<<4>>>" in proc.stderr, proc.stderr
        z = np.fromfile(tmp_path / "z.bin", np.float32)
        s = np.float32(float(scale[:-1]))
        with np.errstate(over="ignore", invalid="ignore"):
            want = (x * s).astype(np.float32) + y  # Muls, then Add: each rounded to float
        assert z.tobytes() == want.astype(np.float32).tobytes()


def test_a_kernels_get_tiling_data_without_a_struct_names_what_it_needs(pipev, tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\n'
                   "extern \"C\" __global__ __aicore__ void k(GM_ADDR tiling)\n{\n"
                   "    GET_TILING_DATA(t, tiling);\n    (void)t;\n}\nint main() { return 0; }\n")
    proc = pipev("run", src)
    assert proc.returncode == 1
    assert "GET_TILING_DATA needs REGISTER_TILING_DEFAULT(TilingStruct) first, or an op_host " \
        "tiling header (REGISTER_TILING_DATA_CLASS) included before the kernel" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_kernel_named_after_a_c_library_function_runs_beside_it(pipev, tmp_path):
    """An operator's kernel is often named after its function (`div`, `asinh`): `extern "C"`
    before `__global__` is dropped, so it overloads the C library's instead of conflicting."""
    src = tmp_path / "k.cpp"
    src.write_text(DIV_KERNEL)
    proc = pipev("run", src, "--werror")
    assert proc.returncode == 0, proc.stderr
    assert "div 3 1, z[5] 3, z[255] 128" in proc.stdout
    assert "k.cpp:41 div on ascend910b" in proc.stderr, proc.stderr


DIV_KERNEL = r"""#include <cstdio>
#include <cstdlib>
#include <vector>
#include "acl/acl.h"
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void div(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3 * 256 * sizeof(float));
    AscendC::LocalTensor<float> a = buf.Get<float>();
    AscendC::LocalTensor<float> b = a[256], c = a[512];
    AscendC::GlobalTensor<float> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ float*)x, 256);
    yg.SetGlobalBuffer((__gm__ float*)y, 256);
    zg.SetGlobalBuffer((__gm__ float*)z, 256);
    AscendC::DataCopy(a, xg, 256);
    AscendC::DataCopy(b, yg, 256);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Div(c, a, b, 256);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(zg, c, 256);
}

int main()
{
    std::div_t q = std::div(7, 2);  // the C library's div beside the kernel named div
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream;
    aclrtCreateStream(&stream);
    std::vector<float> x(256), y(256, 2.0f), z(256);
    for (int i = 0; i < 256; ++i) x[i] = float(i + 1);
    void *dx, *dy, *dz;
    aclrtMalloc(&dx, 1024, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dy, 1024, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dz, 1024, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, 1024, x.data(), 1024, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dy, 1024, y.data(), 1024, ACL_MEMCPY_HOST_TO_DEVICE);
    div<<<1, nullptr, stream>>>((GM_ADDR)dx, (GM_ADDR)dy, (GM_ADDR)dz);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(z.data(), 1024, dz, 1024, ACL_MEMCPY_DEVICE_TO_HOST);
    printf("div %d %d, z[5] %g, z[255] %g\n", q.quot, q.rem, z[5], z[255]);
    return 0;
}
"""


def test_a_compare_result_in_int8_feeds_select_as_its_mask(pipev, tmp_path):
    """Compare may write its bits to an int8_t tensor (the page allows it), and kernels (a
    third-party NotEqual) hand that tensor to Select: both name its uint8_t view."""
    src = tmp_path / "k.cpp"
    src.write_text(SELECT_INT8_KERNEL)
    proc = pipev("run", src, "--werror")
    assert proc.returncode == 0, proc.stderr
    # z = x == y ? x : 1 (mode 1), then z2 = the same bits choosing between two tensors (mode 2)
    assert "ok 256 of 256, 40 equal" in proc.stdout, proc.stdout


SELECT_INT8_KERNEL = r"""#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "kernel_operator.h"
using namespace AscendC;

__global__ __aicore__ void eq_select(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4 * 256 * sizeof(float) + 256);
    LocalTensor<float> a = buf.Get<float>(), b = a[256], c = a[512], d = a[768];
    LocalTensor<int8_t> mask = buf.GetWithOffset<int8_t>(256, 4 * 256 * sizeof(float));
    GlobalTensor<float> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ float*)x, 256);
    yg.SetGlobalBuffer((__gm__ float*)y, 256);
    zg.SetGlobalBuffer((__gm__ float*)z, 512);
    DataCopy(a, xg, 256);
    DataCopy(b, yg, 256);
    PipeBarrier<PIPE_ALL>();
    Compare(mask, a, b, CMPMODE::EQ, 256);
    Select<float>(c, mask, a, 1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 256);
    Select(d, mask, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, 256);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zg, c, 256);
    DataCopy(zg[256], d, 256);
}

int main()
{
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream;
    aclrtCreateStream(&stream);
    std::vector<float> x(256), y(256), z(512);
    int equal = 0;
    for (int i = 0; i < 256; ++i) {
        x[i] = float(i % 7);
        y[i] = float(i % 5);
        equal += x[i] == y[i];
    }
    void *dx, *dy, *dz;
    aclrtMalloc(&dx, 1024, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dy, 1024, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dz, 2048, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, 1024, x.data(), 1024, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dy, 1024, y.data(), 1024, ACL_MEMCPY_HOST_TO_DEVICE);
    eq_select<<<1, nullptr, stream>>>((GM_ADDR)dx, (GM_ADDR)dy, (GM_ADDR)dz);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(z.data(), 2048, dz, 2048, ACL_MEMCPY_DEVICE_TO_HOST);
    int ok = 0;
    for (int i = 0; i < 256; ++i) {
        bool eq = x[i] == y[i];
        ok += z[i] == (eq ? x[i] : 1.0f) && z[256 + i] == (eq ? x[i] : y[i]);
    }
    printf("ok %d of 256, %d equal\n", ok, equal);
    return 0;
}
"""


DTYPE_OPDEF = """#include "register/op_def_registry.h"
namespace ops {
class Twice : public OpDef {
public:
    explicit Twice(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16});
    }
};
OP_ADD(Twice);
}
"""
# the kernel picks its element type by ORIG_DTYPE_X in #if, as the operator library's kernels do,
# and its work by a DataType set as the tiling key
DTYPE_KERNEL = r"""#include "kernel_operator.h"
#if ORIG_DTYPE_X == DT_FLOAT16
using Elem = half;
constexpr int kBranch = 16;
#elif ORIG_DTYPE_X == DT_FLOAT
using Elem = float;
constexpr int kBranch = 32;
#else
#error "ORIG_DTYPE_X names no type this kernel takes"
#endif
#if !defined(DT_INT8) || DT_BF16 != 27
#error "the data type codes"
#endif
static_assert(std::is_same_v<Elem, DTYPE_X>, "ORIG_DTYPE_X and DTYPE_X name one type");

extern "C" __global__ __aicore__ void twice(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256 * sizeof(Elem));
    AscendC::LocalTensor<Elem> a = buf.Get<Elem>();
    AscendC::GlobalTensor<Elem> xg, yg;
    xg.SetGlobalBuffer((__gm__ Elem*)x, 256);
    yg.SetGlobalBuffer((__gm__ Elem*)y, 256);
    AscendC::DataCopy(a, xg, 256);
    AscendC::PipeBarrier<PIPE_ALL>();
    if (TILING_KEY_IS(DT_FLOAT16) || TILING_KEY_IS(DT_FLOAT)) {
        AscendC::Add(a, a, a, 256);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, a, 256);
}
"""
DTYPE_MAIN = r"""#include <cstdio>
#include "tikicpulib.h"
#include "op_kernel/twice.cpp"

int main()
{
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(256 * sizeof(DTYPE_X));
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(256 * sizeof(DTYPE_X));
    DTYPE_X* xs = (DTYPE_X*)x;
    for (int i = 0; i < 256; ++i) xs[i] = DTYPE_X(i * 0.25f);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_SET_TILING_KEY(ORIG_DTYPE_X);  // (a host tiling function sets the DataType so)
    ICPU_RUN_KF(twice, 1, x, y);
    printf("branch %d, %zu-byte elements, y[7] %g\n", kBranch, sizeof(DTYPE_X),
           float(((DTYPE_X*)y)[7]));
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    return 0;
}
"""


def test_orig_dtype_names_the_data_type_code_a_kernel_compares_in_its_ifs(pipev, tmp_path):
    """ORIG_DTYPE_X is the OpDef's first data type's code name (DT_FLOAT), a macro that #if
    compares with the codes of pipev/data_types.h, and follows a DTYPE_X the user gives
    (half: DT_FLOAT16); TILING_KEY_IS takes a code as the key a host sets from a DataType."""
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "op_host" / "twice.cpp").write_text(DTYPE_OPDEF)
    (tmp_path / "op_kernel" / "twice.cpp").write_text(DTYPE_KERNEL)
    main = tmp_path / "main.cpp"
    main.write_text(DTYPE_MAIN)
    for given, want in (((), "branch 32, 4-byte elements, y[7] 3.5"),
                        (("-D", "DTYPE_X=half"), "branch 16, 2-byte elements, y[7] 3.5")):
        proc = pipev("run", main, *given, "--werror", timeout=600)
        assert proc.returncode == 0, proc.stderr
        assert want in proc.stdout, proc.stdout
