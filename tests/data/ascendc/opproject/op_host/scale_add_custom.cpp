// pipev's own custom-operator project in the msopgen layout: the operator's definition. pipev does
// not compile this file (it needs CANN's op_def_registry); it reads its inputs' and outputs'
// DataType lists for the kernel's DTYPE_ macros (the first combination: float).
#include "scale_add_custom_tiling.h"
#include "register/op_def_registry.h"

namespace ops {
class ScaleAddCustom : public OpDef {
public:
    explicit ScaleAddCustom(const char* name) : OpDef(name)
    {
        // the k-th entry of every list makes the k-th kernel binary
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        /* this->Input("bias").DataType({ge::DT_INT8}); -- not an input */
        this->Output("z")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScaleAddCustom);
}  // namespace ops
