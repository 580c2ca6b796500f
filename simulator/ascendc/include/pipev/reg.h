// pipev/reg.h: ascend950's reg-based vector API (issue 34; clean room, written from the public
// AscendC "Reg矢量计算" pages): `__simd_vf__` functions launched with `asc_vf_call<F>(args...)`,
// AscendC::Reg::RegTensor / MaskReg, CreateMask / UpdateMask, LoadAlign / StoreAlign, Compare(s),
// Select, Duplicate, MaskReg Not/And/Or/Xor and element-wise arithmetic. The VF's scalar code (its
// loops, its pointer arithmetic, post-update of addresses) runs natively; every register
// instruction is one pipev statement (docs/isa.md: pset plt vlds vsts plds psts vrcmp vrsel ...)
// issued at the kernel's own line. A RegTensor or MaskReg object names one of the machine's
// registers (v0..v31, p0..p7), taken when it is made and given back when it dies; a RegTensor
// past the 32 registers takes a spill slot (v32..v63: the chip's UB reserve, with a warning).
#ifndef PIPEV_REG_H
#define PIPEV_REG_H
#include "core.h"
#include "types.h"
#include <exception>
#include <set>
#include <string_view>
#include <utility>

#define __simd_vf__
#define __simd_callee__

namespace pipev {
namespace regalloc {
struct Files {
    uint64_t v = 0;  // registers in use, one bit each: v0..v31, then the spill slots v32..v63
    uint64_t p = 0;  // p0..p7, then the spill slots p8..p63
    uint64_t spilled = 0;  // bytes of the UB spill reserve the slots in use take
};
inline Files files;
// the lines whose RegTensor or MaskReg went to a spill slot, warned once each
inline std::set<std::pair<std::string, int>> spilled_at;
// Registers past the file (the C API's data-type page: "矢量数据寄存器数据上限为32，超出上限的寄存
// 器数据会写入预留的8K UB内存中"; MaskRegs past 8 likewise): the compiler keeps them in the chip's
// spill reserve (ascend950: 8 KB) — a RegTensor 256 bytes of it, a MaskReg 32 — with a warning at
// the declaration; the slot is the machine's register v32+ / p8+, whose every read and write
// the timing model charges a reload / spill (docs/timing.md §T9).
inline int take(bool mask, Loc loc) {
    uint64_t& used = mask ? files.p : files.v;
    const int n = mask ? 8 : 32;
    const uint64_t bytes = mask ? 32 : 256;
    const char* what = mask ? "MaskRegs" : "RegTensors";
    for (int r = 0; r < n; ++r) {
        if (!(used >> r & 1)) {
            used |= uint64_t(1) << r;
            return r;
        }
    }
    const uint64_t reserve = detail::bridge().spill_bytes;
    for (int r = n; r < 64 && files.spilled + bytes <= reserve; ++r) {
        if (!(used >> r & 1)) {
            used |= uint64_t(1) << r;
            files.spilled += bytes;
            if (spilled_at.insert({loc.file, loc.line}).second)
                detail::warning(loc, "more than %d %s live at once: the vendor's compiler spills "
                                "this one to the %llu-byte register-spill reserve at the top of UB "
                                "(every instruction that reads it reloads it, every one that "
                                "writes it spills it again: slower, the same results)", n, what,
                                (unsigned long long)reserve);
            return r;
        }
    }
    detail::error(loc, "more than %d %s live at once and no room left for it in the %llu-byte "
                  "register-spill reserve at the top of UB (%llu bytes of it hold other spilled "
                  "registers)", n, what, (unsigned long long)reserve,
                  (unsigned long long)files.spilled);
}
inline void give(bool mask, int r) {
    if (r < 0) return;
    uint64_t& used = mask ? files.p : files.v;
    used &= ~(uint64_t(1) << r);
    if (r >= (mask ? 8 : 32)) files.spilled -= mask ? 32 : 256;
}
// The UB operand of a load or store at host pointer PTR: `NAME[xK]` of the typed tensor over the
// buffer holding it (so the checks name the tensor), else `@xK`.
inline std::string ub_operand(detail::Stmt& s, const void* ptr, const char* type, size_t esize, Loc loc) {
    // int4x2_t: a register moves its bytes; an s4 view's index counts halves of bytes, which a
    // register index cannot (the decoder), so the bytes are addressed through a u8 view
    if (std::strcmp(type, "s4") == 0) type = "u8";
    auto ub = reinterpret_cast<uintptr_t>(detail::bridge().ub);
    uint64_t addr = uint64_t(reinterpret_cast<uintptr_t>(ptr) - ub);
    for (size_t i = 0; i < detail::g.regions.size(); ++i) {
        const auto& rg = detail::g.regions[i];
        if (addr < rg.addr || addr >= rg.addr + rg.bytes || (addr - rg.addr) % esize) continue;
        const auto& t = detail::typed(int(i), type, esize, loc);
        return detail::format("%s[x%d]", t.name.c_str(), s.r((addr - t.addr) / esize));
    }
    return detail::format("@x%d", s.r(addr));
}
}  // namespace regalloc

// how many VFs have started: the C API's addr_reg counts its iterations within one VF
inline uint64_t vf_generation = 0;
// asc_vf_call<F>(args...): `vf_begin` at the caller's line, F's body natively, `vf_end`.
struct VfCall {
    Loc loc;
    explicit VfCall(Loc l) : loc(l) {}
    template <auto F, class... A> void call(A&&... args) {
        detail::Stmt("vf_begin \"vf\"").issue(loc);
        regalloc::files = {};
        ++vf_generation;
        F(std::forward<A>(args)...);
        detail::Stmt("vf_end").issue(loc);
    }
};
// `__VEC_SCOPE__ { ... }`: a VF written inline as a scope (the form the vendor's arch35 kernels
// used before `__simd_vf__` + `asc_vf_call`): `vf_begin` at the scope's line, the block natively,
// `vf_end` at the same line when the block is left (not while pipev unwinds a stopped run). The
// register files are not reset: RegTensors and MaskRegs the function declared before the scope
// are used in it (the operator library's tanh), and keep their registers (#34 r6).
struct VecScope {
    Loc loc;
    explicit VecScope(Loc l) : loc(l) {
        detail::Stmt("vf_begin \"vf\"").issue(loc);
        ++vf_generation;
    }
    VecScope(const VecScope&) = delete;
    ~VecScope() noexcept(false) {
        if (std::uncaught_exceptions() == 0) detail::Stmt("vf_end").issue(loc);
    }
};
}  // namespace pipev
#define asc_vf_call ::pipev::VfCall(::pipev::Loc()).call
#define __VEC_SCOPE__ if (::pipev::VecScope pipev_vec_scope_{::pipev::Loc()}; true)

namespace AscendC {
constexpr uint32_t GetVecLen() { return 256; }
// a vector register's width in bytes, and two registers' (a RegTraitNumTwo tensor, #34)
constexpr uint32_t VECTOR_REG_WIDTH = 256;
constexpr uint32_t VECTOR_REG_WIDTH_2XVL = 2 * VECTOR_REG_WIDTH;

namespace Reg {
struct DefaultType {};
enum class MaskPattern : uint8_t { ALL, VL1, VL2, VL3, VL4, VL8, VL16, VL32, VL64, VL128, M3, M4,
                                   H, Q, ALLF = 15 };
enum class PostLiteral : uint8_t { POST_MODE_NORMAL, POST_MODE_UPDATE };
enum class LoadDist : uint8_t { DIST_NORM, DIST_BRC_B8, DIST_BRC_B16, DIST_BRC_B32, DIST_US_B8,
                                DIST_US_B16, DIST_DS_B8, DIST_DS_B16, DIST_UNPACK_B8,
                                DIST_UNPACK_B16, DIST_BLK, DIST_E2B_B16, DIST_E2B_B32,
                                DIST_UNPACK_B32, DIST_UNPACK4_B8, DIST_DINTLV_B8, DIST_DINTLV_B16,
                                DIST_DINTLV_B32 };
enum class StoreDist : uint8_t { DIST_NORM_B8, DIST_NORM_B16, DIST_NORM_B32,
                                 DIST_FIRST_ELEMENT_B8, DIST_FIRST_ELEMENT_B16,
                                 DIST_FIRST_ELEMENT_B32, DIST_PACK_B16, DIST_PACK_B32,
                                 DIST_PACK_B64, DIST_PACK4_B32, DIST_NORM, DIST_INTLV_B8,
                                 DIST_INTLV_B16, DIST_INTLV_B32 };
enum class DataCopyMode : uint8_t { DATA_BLOCK_COPY };
// AddrReg: an address offset in elements (CreateAddrReg), kept by the VF's scalar code
struct AddrReg {
    uint32_t offset = 0;
};
template <class T = DefaultType>
AddrReg CreateAddrReg(uint16_t i0, uint32_t s0) { return {uint32_t(i0) * s0}; }
template <class T = DefaultType>
AddrReg CreateAddrReg(uint16_t i0, uint32_t s0, uint16_t i1, uint32_t s1) {
    return {uint32_t(i0) * s0 + uint32_t(i1) * s1};
}
template <class T = DefaultType>
AddrReg CreateAddrReg(uint16_t i0, uint32_t s0, uint16_t i1, uint32_t s1, uint16_t i2,
                      uint32_t s2) {
    return {uint32_t(i0) * s0 + uint32_t(i1) * s1 + uint32_t(i2) * s2};
}
template <class T = DefaultType>
AddrReg CreateAddrReg(uint16_t i0, uint32_t s0, uint16_t i1, uint32_t s1, uint16_t i2,
                      uint32_t s2, uint16_t i3, uint32_t s3) {
    return {uint32_t(i0) * s0 + uint32_t(i1) * s1 + uint32_t(i2) * s2 + uint32_t(i3) * s3};
}
enum class MaskMergeMode : uint8_t { ZEROING, MERGING };
// RegTrait (the RegTensor page): how many vector registers a RegTensor<T, trait> holds.
// RegTraitNumTwo (b64, complex32) holds its elements in two registers; an instruction on it
// covers VL_T elements as on RegTraitNumOne (the MaskReg page's VL_T, the element count
// UpdateMask subtracts), so pipev computes it in its first register and takes the second from
// the file (the register pressure is the kernel's) (docs/decisions.md).
struct RegTrait {
    int regs;
};
inline constexpr RegTrait RegTraitNumOne{1};
inline constexpr RegTrait RegTraitNumTwo{2};

// A register of one file: its number, taken for the object's lifetime.
template <bool Mask> class RegHandle {
public:
    explicit RegHandle(PIPEV_LOC) : id_(pipev::regalloc::take(Mask, loc)) {}
    RegHandle(RegHandle&& o) noexcept : id_(o.id_), owned_(o.owned_) { o.id_ = -1; }
    RegHandle& operator=(RegHandle&& o) noexcept {
        std::swap(id_, o.id_);
        std::swap(owned_, o.owned_);
        return *this;
    }
    RegHandle(const RegHandle&) = delete;
    ~RegHandle() {
        if (owned_) pipev::regalloc::give(Mask, id_);
    }
    int id() const { return id_; }

protected:
    struct Alias {};  // a second name for a register another handle owns
    RegHandle(Alias, int id) : id_(id), owned_(false) {}
    int id_;
    bool owned_ = true;
};
class MaskReg : public RegHandle<true> {
public:
    explicit MaskReg(PIPEV_LOC) : RegHandle<true>(loc) {}
    MaskReg(MaskReg&&) noexcept = default;
    MaskReg& operator=(MaskReg&&) noexcept = default;
    MaskReg(const MaskReg& o, PIPEV_LOC) : RegHandle<true>(loc) {
        pipev::detail::Stmt("pmov p%d, p%d", id_, o.id()).issue(loc);
    }
    MaskReg& operator=(const MaskReg& o) {
        if (&o != this) pipev::detail::Stmt("pmov p%d, p%d", id_, o.id()).issue(pipev::detail::g_last);
        return *this;
    }
};
template <class T, const RegTrait& Trait = RegTraitNumOne> class RegTensor : public RegHandle<false> {
    static_assert(Trait.regs == 1 || sizeof(T) == 8, "RegTraitNumTwo holds b64 (or complex32) "
                  "elements");
    struct Second {  // RegTraitNumTwo's second register
        explicit Second(pipev::Loc loc) : id(Trait.regs == 2 ? pipev::regalloc::take(false, loc) : -1) {}
        explicit Second(int none) : id(none) {}  // an alias's: none of its own
        Second(Second&& o) noexcept : id(o.id) { o.id = -1; }
        Second& operator=(Second&& o) noexcept {
            std::swap(id, o.id);
            return *this;
        }
        ~Second() { pipev::regalloc::give(false, id); }
        int id;
    } second_;

public:
    using ElementType = T;
    explicit RegTensor(PIPEV_LOC) : RegHandle<false>(loc), second_(loc) {}
    RegTensor(RegTensor&&) noexcept = default;
    RegTensor& operator=(RegTensor&&) noexcept = default;
    RegTensor(const RegTensor& o, PIPEV_LOC) : RegHandle<false>(loc), second_(loc) {
        pipev::detail::Stmt("vrmov.%s v%d, v%d", pipev::type_name<T>, id_, o.id()).issue(loc);
    }
    RegTensor& operator=(const RegTensor& o) {
        if (&o != this)
            pipev::detail::Stmt("vrmov.%s v%d, v%d", pipev::type_name<T>, id_, o.id()).issue(pipev::detail::g_last);
        return *this;
    }
    // A vector cast, `(vector_int32_t)reg` (the C API samples'): the same register's bits seen
    // as T, as the compiler's vector cast is (no instruction; the register stays the source's).
    template <class U, const RegTrait& TraitU>
    explicit RegTensor(const RegTensor<U, TraitU>& o)
        : RegHandle<false>(typename RegHandle<false>::Alias{}, o.id()), second_(-1) {
        static_assert(Trait.regs == 1 && TraitU.regs == 1, "pipev: a vector cast of a "
                      "RegTraitNumTwo register is not modelled");
    }
};

namespace detail_reg {
template <class U> struct Elem { using type = typename U::ElementType; };
template <class T, class U> using pick = std::conditional_t<std::is_same_v<T, DefaultType>,
                                                            typename Elem<U>::type, T>;
template <class T> const char* tn() { return pipev::type_name<T>; }
// a scalar of T as the register holding its bits
template <class T> uint64_t bits(T v) { return pipev::detail::bits_of(v); }
inline const char* cmp_name(CMPMODE m) {
    static const char* names[] = {"lt", "gt", "eq", "le", "ge", "ne"};
    return names[int(m)];
}
}  // namespace detail_reg

// ---- masks --------------------------------------------------------------------------------------
template <class T, MaskPattern mode = MaskPattern::ALL, const RegTrait& Trait = RegTraitNumOne>
MaskReg CreateMask(PIPEV_LOC) {
    static const char* names[] = {"ALL", "VL1", "VL2", "VL3", "VL4", "VL8", "VL16", "VL32",
                                  "VL64", "VL128", "M3", "M4", "H", "Q", "", "ALLF"};
    MaskReg m(loc);
    pipev::detail::Stmt("pset.%s p%d, %s", pipev::type_name<T>, m.id(), names[int(mode)]).issue(loc);
    return m;
}
// UpdateMask: the first min(scalarValue, VL_T) elements; scalarValue loses VL_T (not below 0).
template <class T, const RegTrait& Trait = RegTraitNumOne>
MaskReg UpdateMask(uint32_t& scalarValue, PIPEV_LOC) {
    MaskReg m(loc);
    pipev::detail::Stmt s("plt.%s", pipev::type_name<T>);
    s.op("p%d", m.id());
    s.op("x%d", s.r(scalarValue)).issue(loc);
    constexpr uint32_t n = 256 / sizeof(T);
    scalarValue = scalarValue < n ? 0 : scalarValue - n;
    return m;
}
inline void Not(MaskReg& dst, MaskReg& src, MaskReg& mask, PIPEV_LOC) {
    pipev::detail::Stmt("pnot p%d, p%d, p%d", dst.id(), src.id(), mask.id()).issue(loc);
}
#define PIPEV_REG_PLOGIC(Name, op)                                                              \
    inline void Name(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask, PIPEV_LOC) {    \
        pipev::detail::Stmt("p" op " p%d, p%d, p%d, p%d", dst.id(), src0.id(), src1.id(), mask.id())    \
            .issue(loc);                                                                         \
    }
PIPEV_REG_PLOGIC(And, "and")
PIPEV_REG_PLOGIC(Or, "or")
PIPEV_REG_PLOGIC(Xor, "xor")
#undef PIPEV_REG_PLOGIC

// ---- loads and stores ----------------------------------------------------------------------------
namespace detail_reg {
// the .vasm dist= word of a single-register LoadDist (null: a dual one)
constexpr const char* load_dist(LoadDist d) {
    constexpr const char* words[] = {"norm", "brc_b8", "brc_b16", "brc_b32", "us_b8", "us_b16",
                                     "ds_b8", "ds_b16", "unpack_b8", "unpack_b16", "blk",
                                     "e2b_b16", "e2b_b32", "unpack_b32", "unpack4_b8"};
    return int(d) < 15 ? words[int(d)] : nullptr;
}
// the .vasm sdist= word of a single-register StoreDist (null: a dual one)
constexpr const char* store_dist(StoreDist d) {
    constexpr const char* words[] = {"norm", "norm", "norm", "first", "first", "first", "pack",
                                     "pack", "pack", "pack4", "norm"};
    return int(d) < 11 ? words[int(d)] : nullptr;
}
// the register element width a packing StoreDist names (DIST_PACK_B32: b32 elements, their low
// halves stored), whatever T is (0: T's own); the mask is read at that width (h34a)
constexpr size_t store_width(StoreDist d) {
    switch (d) {
    case StoreDist::DIST_PACK_B16: return 2;
    case StoreDist::DIST_PACK_B32: case StoreDist::DIST_PACK4_B32: return 4;
    case StoreDist::DIST_PACK_B64: return 8;
    default: return 0;
    }
}
inline const char* unsigned_name(size_t bytes) {
    return bytes == 2 ? "u16" : bytes == 4 ? "u32" : "u64";
}
// a PostUpdate form's pointer step: elements of T for a RegTensor, bytes for a MaskReg (the
// MaskReg LoadAlign / StoreAlign pages: "单位：字节")
template <class U, class T> void post_update(const U&, __ubuf__ T*& p, int32_t step) {
    if constexpr (std::is_same_v<U, MaskReg>)
        p = reinterpret_cast<__ubuf__ T*>(reinterpret_cast<uintptr_t>(p) + intptr_t(step));
    else
        p += step;
}
}  // namespace detail_reg
template <class T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, class U>
void LoadAlign(U& dst, __ubuf__ T* src, PIPEV_LOC) {
    if constexpr (std::is_same_v<U, MaskReg>) {
        pipev::detail::Stmt s("plds");
        s.op("p%d", dst.id());
        s.op("%s", pipev::regalloc::ub_operand(s, src, "u8", 1, loc).c_str()).issue(loc);
    } else {
        static_assert(detail_reg::load_dist(dist) != nullptr, "LoadAlign: a DIST_DINTLV "
                      "distribution loads two RegTensors");
        using E = typename U::ElementType;
        pipev::detail::Stmt s("vlds.%s", pipev::type_name<E>);
        s.op("v%d", dst.id());
        s.op("%s", pipev::regalloc::ub_operand(s, src, pipev::type_name<E>, sizeof(E), loc)
                       .c_str());
        if constexpr (dist != LoadDist::DIST_NORM) s.op("dist=%s", detail_reg::load_dist(dist));
        s.issue(loc);
    }
}
// two RegTensors: the even and the odd elements of 2·VL bytes (DIST_DINTLV_Bx)
template <class T = DefaultType, LoadDist dist = LoadDist::DIST_DINTLV_B32, class U>
void LoadAlign(U& dst0, U& dst1, __ubuf__ T* src, PIPEV_LOC) {
    static_assert(detail_reg::load_dist(dist) == nullptr, "LoadAlign into two RegTensors takes "
                  "a DIST_DINTLV distribution");
    using E = typename U::ElementType;
    pipev::detail::Stmt s("vlds2.%s", pipev::type_name<E>);
    s.op("v%d", dst0.id()).op("v%d", dst1.id());
    s.op("%s", pipev::regalloc::ub_operand(s, src, pipev::type_name<E>, sizeof(E), loc).c_str());
    s.issue(loc);
}
// PostUpdate forms: the access at the pointer, then pointer += postUpdateStride (natively).
template <class T, PostLiteral postMode, LoadDist dist = LoadDist::DIST_NORM, class U>
void LoadAlign(U& dst, __ubuf__ T*& src, int32_t postUpdateStride, PIPEV_LOC) {
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "LoadAlign: POST_MODE_NORMAL is not "
                  "supported with a post-update stride");
    LoadAlign<T, dist>(dst, src, loc);
    detail_reg::post_update(dst, src, postUpdateStride);
}
template <class T, PostLiteral postMode, LoadDist dist = LoadDist::DIST_DINTLV_B32, class U>
void LoadAlign(U& dst0, U& dst1, __ubuf__ T*& src, int32_t postUpdateStride, PIPEV_LOC) {
    LoadAlign<T, dist>(dst0, dst1, src, loc);
    src += postUpdateStride;
}
// AddrReg forms: at the pointer plus the AddrReg's offset (elements)
template <class T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, class U>
void LoadAlign(U& dst, __ubuf__ T* src, AddrReg offset, PIPEV_LOC) {
    LoadAlign<T, dist>(dst, src + offset.offset, loc);
}
template <class T = DefaultType, LoadDist dist = LoadDist::DIST_DINTLV_B32, class U>
void LoadAlign(U& dst0, U& dst1, __ubuf__ T* src, AddrReg offset, PIPEV_LOC) {
    LoadAlign<T, dist>(dst0, dst1, src + offset.offset, loc);
}
// DataBlock forms (DataCopyMode DATA_BLOCK_COPY): 8 blocks dataBlockStride blocks apart
template <class T, DataCopyMode mode = DataCopyMode::DATA_BLOCK_COPY, class U>
void LoadAlign(U& dst, __ubuf__ T* src, uint32_t dataBlockStride, MaskReg& mask, PIPEV_LOC) {
    using E = typename U::ElementType;
    pipev::detail::Stmt s("vldsb.%s", pipev::type_name<E>);
    s.op("v%d", dst.id());
    s.op("%s", pipev::regalloc::ub_operand(s, src, pipev::type_name<E>, sizeof(E), loc).c_str());
    s.op("p%d", mask.id()).op("blk=x%d", s.r(dataBlockStride)).issue(loc);
}
template <class T, DataCopyMode mode, PostLiteral postMode, class U>
void LoadAlign(U& dst, __ubuf__ T*& src, uint32_t dataBlockStride, uint32_t repeatStride,
               MaskReg& mask, PIPEV_LOC) {
    uint32_t step = repeatStride * 32 / sizeof(T);
    if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) {
        LoadAlign<T, mode>(dst, src, dataBlockStride, mask, loc);
        src += step;
    } else {
        LoadAlign<T, mode>(dst, src + step, dataBlockStride, mask, loc);
    }
}
template <class T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, class U,
          class = std::enable_if_t<!std::is_same_v<U, MaskReg>>>
void StoreAlign(__ubuf__ T* dst, U& src, MaskReg& mask, PIPEV_LOC) {
    static_assert(detail_reg::store_dist(dist) != nullptr, "StoreAlign: a DIST_INTLV "
                  "distribution stores two RegTensors");
    using E = typename U::ElementType;
    constexpr size_t w = detail_reg::store_width(dist);
    pipev::detail::Stmt s("vsts.%s", w && w != sizeof(E) ? detail_reg::unsigned_name(w)
                                                         : pipev::type_name<E>);
    s.op("%s", pipev::regalloc::ub_operand(s, dst, pipev::type_name<E>, sizeof(E), loc).c_str());
    s.op("v%d", src.id()).op("p%d", mask.id());
    if constexpr (std::string_view(detail_reg::store_dist(dist)) != "norm")
        s.op("sdist=%s", detail_reg::store_dist(dist));
    s.issue(loc);
}
template <class T, PostLiteral postMode, StoreDist dist = StoreDist::DIST_NORM, class U>
void StoreAlign(__ubuf__ T*& dst, U& src, int32_t postUpdateStride, MaskReg& mask, PIPEV_LOC) {
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "StoreAlign: POST_MODE_NORMAL is "
                  "not supported with a post-update stride");
    StoreAlign<T, dist>(dst, src, mask, loc);
    dst += postUpdateStride;
}
template <class T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, class U>
void StoreAlign(__ubuf__ T* dst, U& src, AddrReg offset, MaskReg& mask, PIPEV_LOC) {
    StoreAlign<T, dist>(dst + offset.offset, src, mask, loc);
}
// two RegTensors interleaved into 2·VL bytes, whatever the mask (DIST_INTLV_Bx)
template <class T = DefaultType, StoreDist dist = StoreDist::DIST_INTLV_B32, class U>
void StoreAlign(__ubuf__ T* dst, U& src0, U& src1, MaskReg& mask, PIPEV_LOC) {
    static_assert(detail_reg::store_dist(dist) == nullptr, "StoreAlign of two RegTensors takes "
                  "a DIST_INTLV distribution");
    (void)mask;
    using E = typename U::ElementType;
    pipev::detail::Stmt s("vsts2.%s", pipev::type_name<E>);
    s.op("%s", pipev::regalloc::ub_operand(s, dst, pipev::type_name<E>, sizeof(E), loc).c_str());
    s.op("v%d", src0.id()).op("v%d", src1.id()).issue(loc);
}
template <class T = DefaultType, StoreDist dist = StoreDist::DIST_INTLV_B32, class U>
void StoreAlign(__ubuf__ T* dst, U& src0, U& src1, AddrReg offset, MaskReg& mask, PIPEV_LOC) {
    StoreAlign<T, dist>(dst + offset.offset, src0, src1, mask, loc);
}
template <class T, DataCopyMode mode = DataCopyMode::DATA_BLOCK_COPY, class U>
void StoreAlign(__ubuf__ T* dst, U& src, uint32_t dataBlockStride, MaskReg& mask, PIPEV_LOC) {
    using E = typename U::ElementType;
    pipev::detail::Stmt s("vstsb.%s", pipev::type_name<E>);
    s.op("%s", pipev::regalloc::ub_operand(s, dst, pipev::type_name<E>, sizeof(E), loc).c_str());
    s.op("v%d", src.id()).op("p%d", mask.id()).op("blk=x%d", s.r(dataBlockStride)).issue(loc);
}
template <class T, DataCopyMode mode, PostLiteral postMode, class U>
void StoreAlign(__ubuf__ T*& dst, U& src, uint32_t dataBlockStride, uint32_t repeatStride,
                MaskReg& mask, PIPEV_LOC) {
    uint32_t step = repeatStride * 32 / sizeof(T);
    if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) {
        StoreAlign<T, mode>(dst, src, dataBlockStride, mask, loc);
        dst += step;
    } else {
        StoreAlign<T, mode>(dst + step, src, dataBlockStride, mask, loc);
    }
}
// A MaskReg to UB (VL/8 bytes).
template <class T = uint8_t> void StoreAlign(__ubuf__ T* dst, MaskReg& src, PIPEV_LOC) {
    pipev::detail::Stmt s("psts");
    s.op("%s", pipev::regalloc::ub_operand(s, dst, "u8", 1, loc).c_str());
    s.op("p%d", src.id()).issue(loc);
}
// the PostUpdate form: the MaskReg pages' offset counts bytes (a RegTensor's counts elements)
template <class T, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE>
void StoreAlign(__ubuf__ T*& dst, MaskReg& src, int32_t offset, PIPEV_LOC) {
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "StoreAlign: POST_MODE_NORMAL is "
                  "not supported with a post-update offset");
    StoreAlign(dst, src, loc);
    detail_reg::post_update(src, dst, offset);
}
template <class T = uint8_t> void StoreAlign(__ubuf__ T* dst, MaskReg& src, AddrReg offset,
                                             PIPEV_LOC) {
    StoreAlign(dst + offset.offset, src, loc);
}

// ---- synchronisation inside a VF ------------------------------------------------------------------
enum class MemType : uint8_t { VEC_STORE, VEC_LOAD, SCALAR_STORE, SCALAR_LOAD, VEC_ALL, SCALAR_ALL };
template <MemType src, MemType dst> void LocalMemBar(PIPEV_LOC) {
    constexpr const char* words[] = {"vst", "vld", "sst", "sld", "vall", "sall"};
    pipev::detail::Stmt("vmembar %s, %s", words[int(src)], words[int(dst)]).issue(loc);
}

// ---- compare and select --------------------------------------------------------------------------
template <class T = DefaultType, CMPMODE mode = CMPMODE::EQ, class U>
void Compare(MaskReg& dst, U& src0, U& src1, MaskReg& mask, PIPEV_LOC) {
    using E = typename U::ElementType;
    pipev::detail::Stmt("vrcmp.%s.%s p%d, v%d, v%d, p%d", detail_reg::cmp_name(mode),
                pipev::type_name<E>, dst.id(), src0.id(), src1.id(), mask.id()).issue(loc);
}
template <class T = DefaultType, CMPMODE mode = CMPMODE::EQ, class U, class S>
void Compares(MaskReg& dst, U& src, S scalar, MaskReg& mask, PIPEV_LOC) {
    using E = typename U::ElementType;
    pipev::detail::Stmt s("vrcmps.%s.%s", detail_reg::cmp_name(mode), pipev::type_name<E>);
    s.op("p%d", dst.id()).op("v%d", src.id());
    s.op("x%d", s.r(detail_reg::bits(static_cast<E>(scalar)))).op("p%d", mask.id()).issue(loc);
}
template <class T = DefaultType, class U>
void Select(U& dst, U& src0, U& src1, MaskReg& mask, PIPEV_LOC) {
    using E = typename U::ElementType;
    pipev::detail::Stmt("vrsel.%s v%d, v%d, v%d, p%d", pipev::type_name<E>, dst.id(), src0.id(),
                src1.id(), mask.id()).issue(loc);
}

// ---- fill and element-wise ------------------------------------------------------------------------
template <class T> struct IsRegTensor : std::false_type {};
template <class T, const RegTrait& Tr> struct IsRegTensor<RegTensor<T, Tr>> : std::true_type {};
// the lowest element of a RegTensor, broadcast where the mask enables
template <class T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, class U>
void Duplicate(U& dst, U& src, MaskReg& mask, PIPEV_LOC) {
    using E = typename U::ElementType;
    pipev::detail::Stmt s("vrdupv.%s", pipev::type_name<E>);
    s.op("v%d", dst.id()).op("v%d", src.id()).op("p%d", mask.id());
    if constexpr (mode == MaskMergeMode::MERGING) s.op("merge=1");
    s.issue(loc);
}
template <class T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, class U, class S,
          class = std::enable_if_t<!std::is_same_v<std::decay_t<S>, MaskReg> &&
                                   !IsRegTensor<std::decay_t<S>>::value>>
void Duplicate(U& dst, S scalar, MaskReg& mask, PIPEV_LOC) {
    using E = typename U::ElementType;
    pipev::detail::Stmt s("vrdup.%s", pipev::type_name<E>);
    s.op("v%d", dst.id());
    s.op("x%d", s.r(detail_reg::bits(static_cast<E>(scalar)))).op("p%d", mask.id());
    if constexpr (mode == MaskMergeMode::MERGING) s.op("merge=1");
    s.issue(loc);
}
template <class T = DefaultType, class U, class S,
          class = std::enable_if_t<!std::is_same_v<std::decay_t<S>, MaskReg> &&
                                   !IsRegTensor<std::decay_t<S>>::value>>
void Duplicate(U& dst, S scalar, PIPEV_LOC) {
    using E = typename U::ElementType;
    MaskReg all = CreateMask<E>(loc);
    Duplicate<T>(dst, scalar, all, loc);
}
#define PIPEV_REG_BINARY(Name, mn)                                                              \
    template <class T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, class U>       \
    void Name(U& dst, U& src0, U& src1, MaskReg& mask, PIPEV_LOC) {                              \
        using E = typename U::ElementType;                                                       \
        pipev::detail::Stmt s(mn ".%s", pipev::type_name<E>);                                  \
        s.op("v%d", dst.id()).op("v%d", src0.id()).op("v%d", src1.id()).op("p%d", mask.id());  \
        if constexpr (mode == MaskMergeMode::MERGING) s.op("merge=1");                          \
        s.issue(loc);                                                                            \
    }
PIPEV_REG_BINARY(Add, "vradd")
PIPEV_REG_BINARY(Sub, "vrsub")
PIPEV_REG_BINARY(Mul, "vrmul")
PIPEV_REG_BINARY(Max, "vrmax")
PIPEV_REG_BINARY(Min, "vrmin")
PIPEV_REG_BINARY(And, "vrand")
PIPEV_REG_BINARY(Or, "vror")
PIPEV_REG_BINARY(Xor, "vrxor")
#undef PIPEV_REG_BINARY
// MulDstAdd(dst, src0, src1, mask): dst = dst * src0 + src1, one rounding (the MulDstAdd page:
// a fused multiply-add); ZEROING only (the page: MERGING not supported)
template <class T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, class U>
void MulDstAdd(U& dst, U& src0, U& src1, MaskReg& mask, PIPEV_LOC) {
    static_assert(mode == MaskMergeMode::ZEROING, "MulDstAdd: MaskMergeMode::MERGING is not "
                  "supported (the MulDstAdd page)");
    using E = typename U::ElementType;
    pipev::detail::Stmt("vrmadd.%s v%d, v%d, v%d, p%d", pipev::type_name<E>, dst.id(),
                        src0.id(), src1.id(), mask.id()).issue(loc);
}
// Div<T, mode>: mode is a MaskMergeMode or a pointer to a DivSpecificMode (the Div page): its
// algo picks the precision and whether subnormals are kept (PRECISION_*_FTZ_FALSE) or flushed
// (every other mode, the default's too); precisionMode with INTRINSIC is DIFF_COMPENSATION.
struct DivSpecificMode {
    MaskMergeMode mrgMode = MaskMergeMode::ZEROING;
    bool precisionMode = false;
    DivAlgo algo = DivAlgo::INTRINSIC;
};
template <class T = DefaultType, auto mode = MaskMergeMode::ZEROING, class U>
void Div(U& dst, U& src0, U& src1, MaskReg& mask, PIPEV_LOC) {
    using E = typename U::ElementType;
    pipev::detail::Stmt s("vrdiv.%s", pipev::type_name<E>);
    s.op("v%d", dst.id()).op("v%d", src0.id()).op("v%d", src1.id()).op("p%d", mask.id());
    if constexpr (std::is_same_v<decltype(mode), MaskMergeMode>) {
        if constexpr (mode == MaskMergeMode::MERGING) s.op("merge=1");
    } else {
        constexpr DivSpecificMode m = *mode;
        constexpr const char* words[] = {"intrinsic", "diff", "p1ulp_ftz", "p0ulp_ftz", "p0ulp",
                                         "p1ulp"};
        constexpr int algo = m.precisionMode && m.algo == DivAlgo::INTRINSIC ? 1 : int(m.algo);
        if constexpr (algo != 0) s.op("algo=%s", words[algo]);
        if constexpr (m.mrgMode == MaskMergeMode::MERGING) s.op("merge=1");
    }
    s.issue(loc);
}
#define PIPEV_REG_UNARY(Name, mn)                                                               \
    template <class T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, class U>       \
    void Name(U& dst, U& src, MaskReg& mask, PIPEV_LOC) {                                        \
        using E = typename U::ElementType;                                                       \
        pipev::detail::Stmt s(mn ".%s", pipev::type_name<E>);                                  \
        s.op("v%d", dst.id()).op("v%d", src.id()).op("p%d", mask.id());                         \
        if constexpr (mode == MaskMergeMode::MERGING) s.op("merge=1");                          \
        s.issue(loc);                                                                            \
    }
PIPEV_REG_UNARY(Abs, "vrabs")
PIPEV_REG_UNARY(Neg, "vrneg")
PIPEV_REG_UNARY(Relu, "vrrelu")
PIPEV_REG_UNARY(Not, "vrnot")
PIPEV_REG_UNARY(Exp, "vrexp")
PIPEV_REG_UNARY(Ln, "vrln")
PIPEV_REG_UNARY(Log, "vrln")  // the Log page: "equivalent to Ln" (#34)
#undef PIPEV_REG_UNARY
// Sqrt<T, mode>: mode is a MaskMergeMode or a pointer to a SqrtSpecificMode (the Sqrt page): its
// algo (AscendC::SqrtAlgo) decides whether subnormal inputs are kept (FAST_INVERSE and the
// PRECISION_*_FTZ_FALSE modes) or flushed (the others, the default's too); precisionMode with
// INTRINSIC is FAST_INVERSE (the page: "the fast inverse algorithm", float only)
struct SqrtSpecificMode {
    MaskMergeMode mrgMode = MaskMergeMode::ZEROING;
    bool precisionMode = false;
    SqrtAlgo algo = SqrtAlgo::INTRINSIC;
};
template <class T = DefaultType, auto mode = MaskMergeMode::ZEROING, class U>
void Sqrt(U& dst, U& src, MaskReg& mask, PIPEV_LOC) {
    using E = typename U::ElementType;
    pipev::detail::Stmt s("vrsqt.%s", pipev::type_name<E>);
    s.op("v%d", dst.id()).op("v%d", src.id()).op("p%d", mask.id());
    if constexpr (std::is_same_v<decltype(mode), MaskMergeMode>) {
        static_assert(mode == MaskMergeMode::ZEROING, "Sqrt: MaskMergeMode::MERGING is not "
                      "supported (the Sqrt page)");
    } else {
        constexpr SqrtSpecificMode m = *mode;
        static_assert(m.mrgMode == MaskMergeMode::ZEROING, "Sqrt: MaskMergeMode::MERGING is not "
                      "supported (the Sqrt page)");
        constexpr const char* words[] = {"intrinsic", "fast", "p1ulp_ftz", "p0ulp", "p1ulp"};
        constexpr int algo = m.precisionMode && m.algo == SqrtAlgo::INTRINSIC ? 1 : int(m.algo);
        if constexpr (algo != 0) s.op("salgo=%s", words[algo]);
    }
    s.issue(loc);
}
// the pages' template order <T, scalar type, mode, RegTensor type>: the operator library's
// kernels write Muls<float, float, MaskMergeMode::ZEROING>(...) (the scalar's type is a tag here:
// the scalar is converted to the elements' type as the page's data-type table pairs them)
#define PIPEV_REG_SCALAR(Name, mn)                                                              \
    template <class T = DefaultType, class V = DefaultType,                                      \
              MaskMergeMode mode = MaskMergeMode::ZEROING, class U, class S>                     \
    void Name(U& dst, U& src, S scalar, MaskReg& mask, PIPEV_LOC) {                              \
        using E = typename U::ElementType;                                                       \
        pipev::detail::Stmt s(mn ".%s", pipev::type_name<E>);                                       \
        s.op("v%d", dst.id()).op("v%d", src.id());                                                \
        s.op("x%d", s.r(detail_reg::bits(static_cast<E>(scalar)))).op("p%d", mask.id());        \
        if constexpr (mode == MaskMergeMode::MERGING) s.op("merge=1");                          \
        s.issue(loc);                                                                            \
    }
PIPEV_REG_SCALAR(Adds, "vradds")
PIPEV_REG_SCALAR(Muls, "vrmuls")
PIPEV_REG_SCALAR(Maxs, "vrmaxs")
PIPEV_REG_SCALAR(Mins, "vrmins")
#undef PIPEV_REG_SCALAR
// LeakyRelu, ShiftLeft(s) / ShiftRight(s): ZEROING only (their pages: MERGING not supported)
template <class T = DefaultType, class V = DefaultType,
          MaskMergeMode mode = MaskMergeMode::ZEROING, class U, class S>
void LeakyRelu(U& dst, U& src, S scalar, MaskReg& mask, PIPEV_LOC) {
    static_assert(mode == MaskMergeMode::ZEROING, "LeakyRelu: MaskMergeMode::MERGING is not "
                  "supported (the LeakyRelu page)");
    using E = typename U::ElementType;
    pipev::detail::Stmt s("vrlrelu.%s", pipev::type_name<E>);
    s.op("v%d", dst.id()).op("v%d", src.id());
    s.op("x%d", s.r(detail_reg::bits(static_cast<E>(scalar)))).op("p%d", mask.id()).issue(loc);
}
#define PIPEV_REG_SHIFT(Name, mn)                                                               \
    template <class T = DefaultType, class U = DefaultType,                                      \
              MaskMergeMode mode = MaskMergeMode::ZEROING, class S, class V>                     \
    void Name(S& dst, S& src0, V& src1, MaskReg& mask, PIPEV_LOC) {                              \
        static_assert(mode == MaskMergeMode::ZEROING, #Name ": MaskMergeMode::MERGING is not "  \
                      "supported (its page)");                                                   \
        using E = typename S::ElementType;                                                       \
        static_assert(sizeof(typename V::ElementType) == sizeof(E), #Name ": the counts' "      \
                      "RegTensor has elements of the shifted one's width (its page's table)");   \
        pipev::detail::Stmt(mn ".%s v%d, v%d, v%d, p%d", pipev::type_name<E>, dst.id(),          \
                            src0.id(), src1.id(), mask.id()).issue(loc);                          \
    }                                                                                            \
    template <class T = DefaultType, class U = DefaultType,                                      \
              MaskMergeMode mode = MaskMergeMode::ZEROING, class S, class C>                     \
    void Name##s(S& dst, S& src, C scalar, MaskReg& mask, PIPEV_LOC) {                           \
        static_assert(mode == MaskMergeMode::ZEROING, #Name "s: MaskMergeMode::MERGING is not " \
                      "supported (its page)");                                                   \
        using E = typename S::ElementType;                                                       \
        pipev::detail::Stmt s(mn "s.%s", pipev::type_name<E>);                                   \
        s.op("v%d", dst.id()).op("v%d", src.id());                                               \
        s.op("x%d", s.r(uint16_t(int16_t(scalar)))).op("p%d", mask.id()).issue(loc);            \
    }
PIPEV_REG_SHIFT(ShiftLeft, "vrshl")
PIPEV_REG_SHIFT(ShiftRight, "vrshr")
#undef PIPEV_REG_SHIFT
// Reduce SUM / MAX / MIN over one register: dst[0] the result (MAX/MIN: dst[1] its index as T's
// bits), the other elements 0.
using ::AscendC::ReduceType;
// SUM of int16 / uint16 into int32 / uint32 (the page's table 3) is `vredsumw`.
template <ReduceType type = ReduceType::SUM, class T = DefaultType, class U = DefaultType,
          MaskMergeMode mode = MaskMergeMode::ZEROING, class S, class V>
void Reduce(S& dst, V& src, MaskReg& mask, PIPEV_LOC) {
    static_assert(mode == MaskMergeMode::ZEROING, "Reduce: MaskMergeMode::MERGING is not "
                  "supported (the Reduce page)");
    using E = typename V::ElementType;
    using D = typename S::ElementType;
    if constexpr (!std::is_same_v<E, D>) {
        static_assert(type == ReduceType::SUM && sizeof(E) == 2 && sizeof(D) == 4,
                      "Reduce: only SUM widens (int16_t into int32_t, uint16_t into uint32_t)");
        pipev::detail::Stmt("vredsumw.%s.%s v%d, v%d, p%d", pipev::type_name<D>,
                            pipev::type_name<E>, dst.id(), src.id(), mask.id()).issue(loc);
    } else {
        static const char* names[] = {"sum", "max", "min"};
        pipev::detail::Stmt("vred%s.%s v%d, v%d, p%d", names[int(type)], pipev::type_name<E>,
                            dst.id(), src.id(), mask.id()).issue(loc);
    }
}
// ReduceSum / ReduceMax / ReduceMin: the names the vendor's softmax sample calls, Reduce of
// that ReduceType (its README: "Reg::ReduceMax / Reg::ReduceSum")
template <class T = DefaultType, class U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          class S, class V>
void ReduceSum(S& dst, V& src, MaskReg& mask, PIPEV_LOC) {
    Reduce<ReduceType::SUM, T, U, mode>(dst, src, mask, loc);
}
template <class T = DefaultType, class U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          class S, class V>
void ReduceMax(S& dst, V& src, MaskReg& mask, PIPEV_LOC) {
    Reduce<ReduceType::MAX, T, U, mode>(dst, src, mask, loc);
}
template <class T = DefaultType, class U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          class S, class V>
void ReduceMin(S& dst, V& src, MaskReg& mask, PIPEV_LOC) {
    Reduce<ReduceType::MIN, T, U, mode>(dst, src, mask, loc);
}
}  // namespace Reg
namespace MicroAPI = Reg;  // the namespace's other name in the vendor's pages and samples
}  // namespace AscendC
#include "reg_convert.h"  // Cast Truncate Arange Interleave Pack (h34a)
#include "reg_data.h"  // unaligned, Scatter/Gather, ReduceDataBlock, PairReduceElem (h34a)
#endif
