// pipev/tensor.h: GlobalTensor (a view of a GM buffer) and LocalTensor (a view of a UB buffer).
// Views name pipev tensors in statements: `que0_1[x3]` (UB, element index) and `gm_x[x4]` (GM,
// byte index: GM buffers are declared as u8).
#ifndef PIPEV_TENSOR_H
#define PIPEV_TENSOR_H
#include "core.h"

namespace pipev::detail {
// A GlobalTensor's element type as pipev names it, "" for one it has none for (a struct): such
// a view can still be set, it cannot be a DMA operand.
template <class T> constexpr const char* gm_type_name() {
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, float> ||
                  std::is_same_v<T, bfloat16_t> || std::is_same_v<T, int8_t> ||
                  std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
                  std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> ||
                  std::is_same_v<T, uint32_t> || std::is_same_v<T, int64_t> ||
                  std::is_same_v<T, uint64_t> || std::is_same_v<T, bool> ||
                  std::is_same_v<T, double> || std::is_same_v<T, int4b_t> ||
                  std::is_same_v<T, fp8_e4m3fn_t> || std::is_same_v<T, fp8_e5m2_t> ||
                  std::is_same_v<T, hifloat8_t> || std::is_same_v<T, fp4x2_e2m1_t> ||
                  std::is_same_v<T, fp4x2_e1m2_t>)
        return pipev::type_name<T>;
    else
        return "";
}
}  // namespace pipev::detail

namespace AscendC {

template <class T> class GlobalTensor {
public:
    using PrimType = T;
    void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize, PIPEV_LOC) {
        ptr_ = buffer;
        size_ = bufferSize;
        // an empty view anywhere (a core with no work points past the end): a copy through it
        // is what reports a pointer outside every GM buffer
        if (pipev::detail::g.active && bufferSize && pipev::detail::gm_find(buffer) < 0)
            pipev::detail::gm_declare("gm_buf", buffer, pipev::elem_bytes<T>(bufferSize), loc);
        // the view's type and (from the call's text) its name, for the debugger
        if (pipev::detail::g.active && pipev::detail::gm_find(buffer) >= 0)
            pipev::detail::check(pipev::detail::bridge().gm_tensor(
                loc.file, loc.line, pipev::detail::gm_type_name<T>(), buffer, bufferSize));
    }
    void SetGlobalBuffer(__gm__ T* buffer, PIPEV_LOC) { SetGlobalBuffer(buffer, 0, loc); }
    GlobalTensor operator[](uint64_t offset) const {
        GlobalTensor v = *this;
        if constexpr (pipev::is_int4<T>) {  // two a byte: an odd offset splits one (reported
            v.ptr_ += offset / 2;           // where the view is used)
            v.split_ = split_ || offset % 2;
        } else {
            v.ptr_ += offset;
        }
        v.size_ = size_ > offset ? size_ - offset : 0;
        return v;
    }
    // Scalar access to GM (host memory): not timed; GetValue / SetValue are seen by the
    // cross-core race check (operator() hands out a reference: neither a read nor a write yet).
    T GetValue(uint64_t offset, PIPEV_LOC) const {
        if constexpr (pipev::is_int4<T>) {
            pipev::detail::gm_access(ptr_ + offset / 2, 1, false, loc);
            return T::from_bits(uint8_t(ptr_[offset / 2].bits >> (offset % 2 ? 4 : 0)));
        } else {
            pipev::detail::gm_access(ptr_ + offset, sizeof(T), false, loc);
            return ptr_[offset];
        }
    }
    void SetValue(uint64_t offset, T value, PIPEV_LOC) const {
        // the write first: a --save-vasm recording stores the bytes written
        if constexpr (pipev::is_int4<T>) {  // the other half of the byte is kept
            uint8_t& b = ptr_[offset / 2].bits;
            b = offset % 2 ? uint8_t((b & 0x0F) | (value.bits << 4)) : uint8_t((b & 0xF0) | value.bits);
            pipev::detail::gm_access(ptr_ + offset / 2, 1, true, loc);
        } else {
            ptr_[offset] = value;
            pipev::detail::gm_access(ptr_ + offset, sizeof(T), true, loc);
        }
    }
    T& operator()(uint64_t offset) const { return ptr_[offset]; }
    uint64_t GetSize() const { return size_; }
    __gm__ T* GetPhyAddr() const { return ptr_; }
    __gm__ T* GetPhyAddr(uint64_t offset) const {
        return reinterpret_cast<T*>(reinterpret_cast<uint8_t*>(ptr_) + pipev::elem_bytes<T>(offset));
    }

    T* ptr_ = nullptr;  // pipev: the view's first element (host memory)
    uint64_t size_ = 0;
    bool split_ = false;  // int4b_t: the view starts in the high half of a byte (an odd offset)
};

template <class T> class LocalRef;
template <class T> class LocalTensor;
}  // namespace AscendC

namespace pipev {
// `dst = src0 OP src1;` (pipev/tensor_ops.h): the operands and the expression's line, carried
// from the operator to the assignment that issues the count form.
enum class TensorOpKind : uint8_t { ADD, SUB, MUL, DIV, AND, OR };
template <class T, class Kind> struct TensorOp {
    Kind kind;
    AscendC::LocalTensor<T> a, b;
    Loc loc;
};
}  // namespace pipev

namespace AscendC {
template <class T> class LocalTensor {
public:
    using PrimType = T;
    LocalTensor() = default;
    // Static tensor programming: a tensor at UB byte address ADDR of TILE elements.
    LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize, PIPEV_LOC)
        : addr_(addr), size_(tileSize), pos_(pos) {
        using namespace pipev::detail;
        for (size_t i = 0; i < g.regions.size() && region_ < 0; ++i)
            if (addr >= g.regions[i].addr && addr < g.regions[i].addr + g.regions[i].bytes)
                region_ = int(i);
        if (region_ >= 0) return;
        region_ = new_region(format("ub_%x", addr), addr, pipev::elem_bytes<T>(tileSize));
        // declared here, not at its first use, so that pipev's checks of the placement (the
        // API scratch area, the bounds of UB) point at this line
        if (g.active) typed(region_, pipev::type_name<T>, sizeof(T), loc);
    }
    LocalTensor operator[](uint32_t offset) const {
        LocalTensor v = *this;
        v.addr_ += pipev::elem_bytes<T>(offset);
        if constexpr (pipev::is_int4<T>) v.split_ = split_ || offset % 2;  // reported at its use
        v.size_ = size_ > offset ? size_ - offset : 0;
        return v;
    }
    T GetValue(uint32_t offset, PIPEV_LOC) const {
        if constexpr (pipev::is_int4<T>) {  // the element's half of its byte
            uint64_t a = addr_ + offset / 2;
            check_access(a, loc);
            pipev::detail::host_access(a, 1, false, loc);
            return T::from_bits(uint8_t(pipev::detail::bridge().ub[a] >> (offset % 2 ? 4 : 0)));
        }
        uint64_t a = addr_ + uint64_t(offset) * sizeof(T);
        check_access(a, loc);
        pipev::detail::host_access(a, sizeof(T), false, loc);
        T v;
        std::memcpy(&v, pipev::detail::bridge().ub + a, sizeof(T));
        return v;
    }
    template <class V> void SetValue(uint32_t offset, V value, PIPEV_LOC) const {
        if constexpr (pipev::is_int4<T>) {  // the other half of the byte is kept
            uint64_t a = addr_ + offset / 2;
            check_access(a, loc);
            pipev::detail::host_access(a, 1, true, loc);
            uint8_t& b = pipev::detail::bridge().ub[a];
            uint8_t bits = T(value).bits;
            b = offset % 2 ? uint8_t((b & 0x0F) | (bits << 4)) : uint8_t((b & 0xF0) | bits);
            return;
        }
        uint64_t a = addr_ + uint64_t(offset) * sizeof(T);
        check_access(a, loc);
        pipev::detail::host_access(a, sizeof(T), true, loc);
        T v = static_cast<T>(value);
        std::memcpy(pipev::detail::bridge().ub + a, &v, sizeof(T));
    }
    LocalRef<T> operator()(uint32_t offset, PIPEV_LOC) const;

    // The whole-tensor operators of the Add ... Or and Compare pages (`dst = src0 + src1;`,
    // `dst = src0 < src1;`), issued by the assignment (pipev/tensor_ops.h). The left operand
    // is taken through Operand, whose conversion records the expression's line: an operator
    // has no default argument of its own to carry it.
    struct Operand {
        const LocalTensor& t;
        pipev::Loc loc;
        Operand(const LocalTensor& t, pipev::Loc loc = pipev::Loc()) : t(t), loc(loc) {}
    };
    using Op = pipev::TensorOp<T, pipev::TensorOpKind>;
    using Cmp = pipev::TensorOp<T, CMPMODE>;
#define PIPEV_TENSOR_OPERATOR(SIGN, RESULT, KIND)                             \
    friend RESULT operator SIGN(Operand a, const LocalTensor& b) {            \
        return {KIND, a.t, b, a.loc};                                         \
    }
    PIPEV_TENSOR_OPERATOR(+, Op, pipev::TensorOpKind::ADD)
    PIPEV_TENSOR_OPERATOR(-, Op, pipev::TensorOpKind::SUB)
    PIPEV_TENSOR_OPERATOR(*, Op, pipev::TensorOpKind::MUL)
    PIPEV_TENSOR_OPERATOR(/, Op, pipev::TensorOpKind::DIV)
    PIPEV_TENSOR_OPERATOR(&, Op, pipev::TensorOpKind::AND)
    PIPEV_TENSOR_OPERATOR(|, Op, pipev::TensorOpKind::OR)
    PIPEV_TENSOR_OPERATOR(<, Cmp, CMPMODE::LT)
    PIPEV_TENSOR_OPERATOR(>, Cmp, CMPMODE::GT)
    PIPEV_TENSOR_OPERATOR(<=, Cmp, CMPMODE::LE)
    PIPEV_TENSOR_OPERATOR(>=, Cmp, CMPMODE::GE)
    PIPEV_TENSOR_OPERATOR(==, Cmp, CMPMODE::EQ)
    PIPEV_TENSOR_OPERATOR(!=, Cmp, CMPMODE::NE)
#undef PIPEV_TENSOR_OPERATOR
    LocalTensor& operator=(const Op& e);
    template <class S> LocalTensor& operator=(const pipev::TensorOp<S, CMPMODE>& e);
    LocalTensor& operator=(const LocalTensor&) = default;
    LocalTensor(const LocalTensor&) = default;

    uint32_t GetSize() const { return size_; }
    void SetSize(uint32_t size) { size_ = size; }
    void SetBufferLen(uint32_t dataLen) { size_ = dataLen; }  // in elements, as SetSize
    uint32_t GetLength() const { return uint32_t(pipev::elem_bytes<T>(size_)); }
    TPosition GetPosition() const { return pos_; }
    // A view of the same bytes as U (declares the U tensor over the buffer: an alias in pipev).
    template <class U> LocalTensor<U> ReinterpretCast(PIPEV_LOC) const {
        LocalTensor<U> v;
        v.region_ = region_;
        v.addr_ = addr_;
        uint64_t bytes = pipev::elem_bytes<T>(size_);
        v.size_ = uint32_t(pipev::is_int4<U> ? bytes * 2 : bytes / sizeof(U));
        v.pos_ = pos_;
        if (region_ >= 0) pipev::detail::typed(region_, pipev::type_name<U>, sizeof(U), loc);
        return v;
    }
    // The element's host address in pipev's UB (so `(__ubuf__ T*)t.GetPhyAddr()` is a pointer the
    // C API accepts); the UB byte address is this minus the UB base.
    uint64_t GetPhyAddr() const { return GetPhyAddr(0); }
    uint64_t GetPhyAddr(uint32_t offset) const {
        return uint64_t(reinterpret_cast<uintptr_t>(pipev::detail::bridge().ub)) + addr_ +
               pipev::elem_bytes<T>(offset);
    }

    // pipev: the UB region (buffer) of the view, its first byte and its length in elements.
    int region_ = -1;
    uint64_t addr_ = 0;
    uint32_t size_ = 0;
    TPosition pos_ = TPosition::VECCALC;
    bool split_ = false;  // int4b_t: the view starts in the high half of a byte (an odd offset)

private:
    void check_access(uint64_t a, pipev::Loc loc) const {
        if (region_ < 0)
            pipev::detail::error(loc, "LocalTensor has no buffer (use AllocTensor, TBuf::Get or "
                                 "LocalMemAllocator::Alloc first)");
        if (a + sizeof(T) > pipev::detail::bridge().ub_bytes)
            pipev::detail::error(loc, "UB access at 0x%llx is beyond UB", (unsigned long long)a);
    }
};
// operator() of a LocalTensor: reads and writes go through GetValue / SetValue.
template <class T> class LocalRef {
public:
    LocalRef(const LocalTensor<T>& t, uint32_t i, pipev::Loc loc) : t_(t), i_(i), loc_(loc) {}
    operator T() const { return t_.GetValue(i_, loc_); }
    LocalRef& operator=(T v) {
        t_.SetValue(i_, v, loc_);
        return *this;
    }

private:
    LocalTensor<T> t_;
    uint32_t i_;
    pipev::Loc loc_;
};
template <class T> LocalRef<T> LocalTensor<T>::operator()(uint32_t offset, pipev::Loc loc) const {
    return {*this, offset, loc};
}
}  // namespace AscendC

namespace pipev::detail {
// UB operand NAME[xK] of a view (its typed tensor; K = element index in that tensor).
template <class T> void ub_op(Stmt& s, const AscendC::LocalTensor<T>& t, Loc loc,
                              const char* wrap = "%s[x%d]") {
    if (t.region_ < 0)
        error(loc, "LocalTensor has no buffer (use AllocTensor, TBuf::Get or "
              "LocalMemAllocator::Alloc first)");
    const UbTensor& u = typed(t.region_, type_name<T>, sizeof(T), loc);
    uint64_t off = t.addr_ - u.addr;
    if constexpr (pipev::is_int4<T>) {  // NAME[K], K the element index (two a byte): a constant
        if (t.split_)
            error(loc, "an int4b_t tensor at an odd element offset splits a byte (two elements a "
                  "byte: offsets must be even)");
        s.op(std::strcmp(wrap, "%s[x%d]") ? "scalar(%s[%llu])" : "%s[%llu]", u.name.c_str(),
             (unsigned long long)(2 * off));
        return;
    }
    if (off % sizeof(T))
        error(loc, "a %s view at UB 0x%llx is not on a %s element boundary of %s", type_name<T>,
              (unsigned long long)t.addr_, type_name<T>, u.name.c_str());
    s.op(wrap, u.name.c_str(), s.r(off / sizeof(T)));
}
// The tensor element as a scalar operand (ascend950 Select): scalar(NAME[xK]).
template <class T> void ub_scalar_op(Stmt& s, const AscendC::LocalTensor<T>& t, Loc loc) {
    ub_op(s, t, loc, "scalar(%s[x%d])");
}
// GM operand NAME[xK]: K indexes the buffer's elements (bytes for the headers' own u8 buffers).
inline void gm_ptr_op(Stmt& s, const void* p, Loc loc) {
    int i = gm_find(p);
    if (i < 0)
        error(loc, "%p is not in a GM buffer (memory from GmAlloc or aclrtMalloc, or "
              "SetGlobalBuffer with its size)", p);
    const GmBuffer& b = g.gm[size_t(i)];
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - b.host);
    if (b.esize == 0) {  // pipev's own s4 buffer: a constant element index, two a byte
        s.op("%s[%llu]", b.name.c_str(), (unsigned long long)(2 * off));
        return;
    }
    if (off % b.esize)
        error(loc, "GM byte offset %llu is not on an element boundary of %s (%zu-byte elements)",
              (unsigned long long)off, b.name.c_str(), b.esize);
    s.op("%s[x%d]", b.name.c_str(), s.r(off / b.esize));
}
template <class T> void gm_op(Stmt& s, const AscendC::GlobalTensor<T>& t, Loc loc) {
    if (t.split_)
        error(loc, "an int4b_t tensor at an odd element offset splits a byte (two elements a "
              "byte: offsets must be even)");
    gm_ptr_op(s, t.ptr_, loc);
}
}  // namespace pipev::detail
#endif
