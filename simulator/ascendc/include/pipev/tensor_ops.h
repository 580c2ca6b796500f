// pipev/tensor_ops.h: the whole-tensor operators (the Add, Sub, Mul, Div, And, Or and Compare
// pages' "整个tensor参与计算" form): `dst = src0 OP src1;` is the count form over every element
// of the destination (Compare: of the sources, its bits into dst), issued at the expression's
// line (the operators are LocalTensor's, pipev/tensor.h). The pages exclude the Atlas 200I/500
// A2 (ascend310b): there it is an error.
#ifndef PIPEV_TENSOR_OPS_H
#define PIPEV_TENSOR_OPS_H
#include "vector.h"

namespace pipev::detail {
// the chip check and the sources' sizes, before COUNT elements of each are read (COUNT: the
// size of WHOLE)
template <class T>
void whole_tensor(const char* op, uint32_t count, const char* whole,
                  const AscendC::LocalTensor<T>& a, const AscendC::LocalTensor<T>& b, Loc loc) {
    if (bridge().npu_arch == 3002)
        error(loc, "`dst = src0 %s src1`: the whole-tensor operators are not on the Atlas 200I/500 "
              "A2 (their pages); call the API with a count", op);
    for (int i = 0; i < 2; ++i)
        if ((i ? b : a).GetSize() < count)
            error(loc, "`dst = src0 %s src1` computes %u elements (the whole %s), but src%d holds %u",
                  op, count, whole, i, (i ? b : a).GetSize());
}
}  // namespace pipev::detail

namespace AscendC {
template <class T> LocalTensor<T>& LocalTensor<T>::operator=(const Op& e) {
    using K = pipev::TensorOpKind;
    static const char* const signs[] = {"+", "-", "*", "/", "&", "|"};
    pipev::detail::whole_tensor(signs[int(e.kind)], size_, "destination", e.a, e.b, e.loc);
    const int32_t n = int32_t(size_);
    switch (e.kind) {
        case K::ADD: Add(*this, e.a, e.b, n, e.loc); break;
        case K::SUB: Sub(*this, e.a, e.b, n, e.loc); break;
        case K::MUL: Mul(*this, e.a, e.b, n, e.loc); break;
        case K::DIV: Div(*this, e.a, e.b, n, e.loc); break;
        case K::AND: And(*this, e.a, e.b, n, e.loc); break;
        case K::OR: Or(*this, e.a, e.b, n, e.loc); break;
    }
    return *this;
}
template <class T>
template <class S>
LocalTensor<T>& LocalTensor<T>::operator=(const pipev::TensorOp<S, CMPMODE>& e) {
    static const char* const signs[] = {"<", ">", "==", "<=", ">=", "!="};  // CMPMODE's order
    const uint32_t n = e.a.GetSize();
    pipev::detail::whole_tensor(signs[int(e.kind)], n, "src0", e.a, e.b, e.loc);
    Compare(*this, e.a, e.b, e.kind, n, e.loc);
    return *this;
}
}  // namespace AscendC
#endif
