// c_api/asc_simd.h: the AscendC C API (asc_*) on pipev. Operands are pointers into UB (`__ubuf__`
// arrays, placed by pipev's source rewrite) or into GM buffers; each pointer names the pipev tensor
// that holds it (`@xN` when no declared tensor does). Each vector call issues one API statement
// (isa/api.py expands it): count forms `count=`, high-dimensional forms no mask keys (MASK is not
// touched, as on the hardware); `_sync` forms end with pipe_barrier ALL. The arithmetic calls are
// binding rows (simulator/bindings.py), defined in the generated c_api/bindings.h.
#ifndef PIPEV_ASC_SIMD_H
#define PIPEV_ASC_SIMD_H
#include "../kernel_operator.h"

namespace pipev::detail {
// UB operand for a pointer: a declared tensor holding it (of type TYPE first), else @xN.
inline void ub_ptr(Stmt& s, const void* p, const char* type, size_t esize, Loc loc) {
    uint64_t a = ub_addr(p, loc);
    const UbTensor* best = nullptr;
    for (auto& t : g.tensors) {
        uint64_t bytes = t.type == "s4" ? t.count / 2 : t.count * t.esize;  // s4: 2 a byte
        if (a < t.addr || a >= t.addr + bytes || (a - t.addr) % t.esize) continue;
        if (type && t.type == type) {
            best = &t;
            break;
        }
        if (!best && (!type || t.esize == esize)) best = &t;
    }
    if (best && best->type == "s4")  // int4b_t: two elements a byte, a constant element index
        s.op("%s[%llu]", best->name.c_str(), (unsigned long long)(2 * (a - best->addr)));
    else if (best) s.op("%s[x%d]", best->name.c_str(), s.r((a - best->addr) / best->esize));
    else s.op("@x%d", s.r(a));
}
template <class T> void ub_ptr(Stmt& s, const T* p, Loc loc) {
    ub_ptr(s, p, type_name<T>, sizeof(T), loc);
}
inline void sync_all(bool sync, Loc loc) {
    if (sync) Stmt("pipe_barrier ALL").issue(loc);
}
inline std::string strides6(unsigned a, unsigned b, unsigned c, unsigned d, unsigned e, unsigned f) {
    return format("stride=%u,%u,%u,%u,%u,%u", a, b, c, d, e, f);
}

template <class T>
void asc_cmp(const char* op, uint8_t* dst, T* a, T* b, uint8_t repeat, const std::string& stride,
             bool sync, Loc loc) {
    Stmt s("compare.%s.%s", op, type_name<T>);
    if (dst) ub_ptr(s, dst, loc);
    else s.op("cmpmask");
    ub_ptr(s, a, loc);
    ub_ptr(s, b, loc);
    if (dst) s.key("repeat", repeat);
    s.op("%s", stride.c_str()).issue(loc);
    sync_all(sync, loc);
}
template <class T>
void asc_cmps(const char* op, uint8_t* dst, T* src, T value, uint8_t repeat, uint16_t db,
              uint16_t sb, uint16_t dr, uint16_t sr, bool sync, Loc loc) {
    Stmt s("compares.%s.%s", op, type_name<T>);
    ub_ptr(s, dst, loc);
    ub_ptr(s, src, loc);
    s.op("%s", scalar_text(value).c_str()).key("repeat", repeat);
    s.op("stride=%u,%u,%u,%u", db, sb, dr, sr).issue(loc);
    sync_all(sync, loc);
}
// An API statement of a binding shape (bindings.h): OPS writes its operands; the first-n
// form (COUNT) or the high-dimensional form without mask keys (MASK as it is, as the C API's
// high-dimensional calls leave it).
template <class Ops> void asc_count(const std::string& head, uint32_t count, bool sync, Loc loc,
                                    Ops ops) {
    Stmt s("%s", head.c_str());
    ops(s);
    count_key(s, "count", count, counter_mode());
    s.issue(loc);
    sync_all(sync, loc);
}
template <class Ops> void asc_repeat(const std::string& head, uint8_t repeat,
                                     const std::string& stride, Loc loc, Ops ops) {
    Stmt s("%s", head.c_str());
    ops(s);
    s.key("repeat", repeat).op("%s", stride.c_str());
    s.issue(loc);
}
template <class... P> void ub_ptrs(Stmt& s, Loc loc, P*... p) { (ub_ptr(s, p, loc), ...); }
inline void asc_copy(const char* mn, bool to_ub, void* dst, void* src, uint64_t nburst,
                     uint64_t burst, uint64_t src_gap, uint64_t dst_gap, bool sync, Loc loc) {
    Stmt s("%s", mn);
    if (to_ub) {
        ub_ptr(s, dst, nullptr, 1, loc);
        gm_ptr_op(s, src, loc);
    } else {
        gm_ptr_op(s, dst, loc);
        ub_ptr(s, src, nullptr, 1, loc);
    }
    s.key("nburst", nburst).key("burst", burst).key("src_gap", src_gap).key("dst_gap", dst_gap);
    s.issue(loc);
    sync_all(sync, loc);
}
inline uint64_t copy_blocks(uint32_t size, Loc loc) {
    if (size == 0 || size % 32)
        error(loc, "a copy of %u bytes: the size must be a non-zero multiple of 32 bytes", size);
    return size / 32;
}
inline int c_pipe(pipe_t p, Loc loc) {
    switch (p) {
        case PIPE_S: return kS;
        case PIPE_V: return kV;
        case PIPE_MTE2: return kMte2;
        case PIPE_MTE3: return kMte3;
        default: error(loc, "pipe %d is not modelled by pipev (PIPE_S, PIPE_V, PIPE_MTE2, "
                       "PIPE_MTE3)", int(p));
    }
}
}  // namespace pipev::detail

// ---- compares: to CMPMASK (no dst) or to UB bits; `_scalar` against a scalar --------------------
#define PIPEV_ASC_CMP(OP)                                                                          \
    template <class T>                                                                             \
    void asc_##OP(T* src0, T* src1, uint8_t repeat, uint8_t dst_block_stride,                      \
                  uint8_t src0_block_stride, uint8_t src1_block_stride, uint8_t dst_repeat_stride,  \
                  uint8_t src0_repeat_stride, uint8_t src1_repeat_stride, PIPEV_LOC) {              \
        pipev::detail::asc_cmp<T>(#OP, nullptr, src0, src1, repeat,                                \
                                  pipev::detail::strides6(dst_block_stride, src0_block_stride,      \
                                                          src1_block_stride, dst_repeat_stride,     \
                                                          src0_repeat_stride, src1_repeat_stride),  \
                                  false, loc);                                                     \
    }                                                                                              \
    template <class T>                                                                             \
    void asc_##OP(uint8_t* dst, T* src0, T* src1, uint8_t repeat, uint8_t dst_block_stride,        \
                  uint8_t src0_block_stride, uint8_t src1_block_stride, uint8_t dst_repeat_stride,  \
                  uint8_t src0_repeat_stride, uint8_t src1_repeat_stride, PIPEV_LOC) {              \
        pipev::detail::asc_cmp<T>(#OP, dst, src0, src1, repeat,                                    \
                                  pipev::detail::strides6(dst_block_stride, src0_block_stride,      \
                                                          src1_block_stride, dst_repeat_stride,     \
                                                          src0_repeat_stride, src1_repeat_stride),  \
                                  false, loc);                                                     \
    }                                                                                              \
    template <class T>                                                                             \
    void asc_##OP##_sync(T* src0, T* src1, uint8_t repeat, uint8_t dst_block_stride,               \
                         uint8_t src0_block_stride, uint8_t src1_block_stride,                     \
                         uint8_t dst_repeat_stride, uint8_t src0_repeat_stride,                    \
                         uint8_t src1_repeat_stride, PIPEV_LOC) {                                  \
        pipev::detail::asc_cmp<T>(#OP, nullptr, src0, src1, repeat,                                \
                                  pipev::detail::strides6(dst_block_stride, src0_block_stride,      \
                                                          src1_block_stride, dst_repeat_stride,     \
                                                          src0_repeat_stride, src1_repeat_stride),  \
                                  true, loc);                                                      \
    }                                                                                              \
    template <class T>                                                                             \
    void asc_##OP##_sync(uint8_t* dst, T* src0, T* src1, uint8_t repeat,                           \
                         uint8_t dst_block_stride, uint8_t src0_block_stride,                      \
                         uint8_t src1_block_stride, uint8_t dst_repeat_stride,                     \
                         uint8_t src0_repeat_stride, uint8_t src1_repeat_stride, PIPEV_LOC) {      \
        pipev::detail::asc_cmp<T>(#OP, dst, src0, src1, repeat,                                    \
                                  pipev::detail::strides6(dst_block_stride, src0_block_stride,      \
                                                          src1_block_stride, dst_repeat_stride,     \
                                                          src0_repeat_stride, src1_repeat_stride),  \
                                  true, loc);                                                      \
    }                                                                                              \
    template <class T>                                                                             \
    void asc_##OP##_scalar(uint8_t* dst, T* src, pipev::NoDeduce<T> value, uint8_t repeat,         \
                           uint16_t dst_block_stride, uint16_t src_block_stride,                   \
                           uint16_t dst_repeat_stride, uint16_t src_repeat_stride, PIPEV_LOC) {    \
        pipev::detail::asc_cmps<T>(#OP, dst, src, value, repeat, dst_block_stride,                 \
                                   src_block_stride, dst_repeat_stride, src_repeat_stride, false,  \
                                   loc);                                                           \
    }                                                                                              \
    template <class T>                                                                             \
    void asc_##OP##_scalar_sync(uint8_t* dst, T* src, pipev::NoDeduce<T> value, uint8_t repeat,    \
                                uint16_t dst_block_stride, uint16_t src_block_stride,              \
                                uint16_t dst_repeat_stride, uint16_t src_repeat_stride,            \
                                PIPEV_LOC) {                                                       \
        pipev::detail::asc_cmps<T>(#OP, dst, src, value, repeat, dst_block_stride,                 \
                                   src_block_stride, dst_repeat_stride, src_repeat_stride, true,   \
                                   loc);                                                           \
    }
PIPEV_ASC_CMP(eq)
PIPEV_ASC_CMP(ne)
PIPEV_ASC_CMP(lt)
PIPEV_ASC_CMP(gt)
PIPEV_ASC_CMP(le)
PIPEV_ASC_CMP(ge)
#undef PIPEV_ASC_CMP

// ---- CMPMASK, MASK ------------------------------------------------------------------------------
inline void asc_get_cmp_mask(void* dst, PIPEV_LOC) {
    pipev::detail::Stmt s("get_cmp_mask");
    pipev::detail::ub_ptr(s, dst, nullptr, 1, loc);
    s.issue(loc);
}
inline void asc_set_cmp_mask(void* src, PIPEV_LOC) {
    pipev::detail::Stmt s("set_cmp_mask");
    pipev::detail::ub_ptr(s, src, nullptr, 1, loc);
    s.issue(loc);
}
inline void asc_set_vector_mask(uint64_t mask1, uint64_t mask0, PIPEV_LOC) {
    pipev::detail::set_vector_mask(mask1, mask0, loc);
}
inline void asc_set_mask_count(PIPEV_LOC) { pipev::detail::Stmt("set_mask_count").issue(loc); }
inline void asc_set_mask_norm(PIPEV_LOC) { pipev::detail::Stmt("set_mask_norm").issue(loc); }

// ---- select (mode 0: CMPMASK from asc_set_cmp_mask), duplicate ----------------------------------
template <class T> void asc_select(T* dst, T* src0, T* src1, uint32_t count, PIPEV_LOC) {
    pipev::detail::asc_count(pipev::detail::head<T>("select"), count, false, loc,
                             [&](pipev::detail::Stmt& s) {
        pipev::detail::ub_ptrs(s, loc, dst, src0, src1);
        s.op("mode=0");
    });
}
template <class T> void asc_select_sync(T* dst, T* src0, T* src1, uint32_t count, PIPEV_LOC) {
    pipev::detail::asc_count(pipev::detail::head<T>("select"), count, true, loc,
                             [&](pipev::detail::Stmt& s) {
        pipev::detail::ub_ptrs(s, loc, dst, src0, src1);
        s.op("mode=0");
    });
}
template <class T>
void asc_select(T* dst, T* src0, T* src1, uint8_t repeat, uint8_t dst_block_stride,
                uint8_t src0_block_stride, uint8_t src1_block_stride, uint8_t dst_repeat_stride,
                uint8_t src0_repeat_stride, uint8_t src1_repeat_stride, PIPEV_LOC) {
    pipev::detail::Stmt s("select.%s", pipev::type_name<T>);  // the no-mask form: vsel alone
    pipev::detail::ub_ptr(s, dst, loc);
    pipev::detail::ub_ptr(s, src0, loc);
    pipev::detail::ub_ptr(s, src1, loc);
    s.op("mode=0").key("repeat", repeat);
    s.op("%s", pipev::detail::strides6(dst_block_stride, src0_block_stride, src1_block_stride,
                                       dst_repeat_stride, src0_repeat_stride, src1_repeat_stride)
                   .c_str());
    s.issue(loc);
}
template <class T> void asc_duplicate(T* dst, pipev::NoDeduce<T> src, uint32_t count, PIPEV_LOC) {
    pipev::detail::Stmt s("duplicate.%s", pipev::type_name<T>);
    pipev::detail::ub_ptr(s, dst, loc);
    s.op("%s", pipev::detail::scalar_text(src).c_str());
    pipev::detail::count_key(s, "count", count, pipev::detail::counter_mode());
    s.issue(loc);
}
template <class T>
void asc_duplicate_sync(T* dst, pipev::NoDeduce<T> src, uint32_t count, PIPEV_LOC) {
    asc_duplicate(dst, src, count, loc);
    pipev::detail::sync_all(true, loc);
}
template <class T>
void asc_duplicate(T* dst, pipev::NoDeduce<T> src, uint8_t repeat, uint16_t dst_block_stride,
                   uint16_t dst_repeat_stride, PIPEV_LOC) {
    pipev::detail::asc_repeat(pipev::detail::head<T>("duplicate"), repeat,
                              pipev::detail::format("stride=%u,1,%u,8", dst_block_stride,
                                                    dst_repeat_stride), loc,
                              [&](pipev::detail::Stmt& s) {
        pipev::detail::ub_ptr(s, dst, loc);
        s.op("%s", pipev::detail::scalar_text<T>(src).c_str());
    });
}

// ---- the binding shapes: NAME is the call, STMT its statement (simulator/bindings.py) ----------
// binary: asc_add asc_sub asc_mul asc_max asc_min (dst, src0, src1), with NAME_sync
#define PIPEV_C_API_BINARY(NAME, STMT)                                                             \
    template <class T> void NAME(T* dst, T* src0, T* src1, uint32_t count, PIPEV_LOC) {            \
        pipev::detail::asc_count(pipev::detail::head<T>(STMT), count, false, loc,                  \
                                 [&](pipev::detail::Stmt& s) {                                     \
            pipev::detail::ub_ptrs(s, loc, dst, src0, src1);                                    \
        });                                                                                        \
    }                                                                                              \
    template <class T> void NAME##_sync(T* dst, T* src0, T* src1, uint32_t count, PIPEV_LOC) {     \
        pipev::detail::asc_count(pipev::detail::head<T>(STMT), count, true, loc,                   \
                                 [&](pipev::detail::Stmt& s) {                                     \
            pipev::detail::ub_ptrs(s, loc, dst, src0, src1);                                    \
        });                                                                                        \
    }                                                                                              \
    template <class T>                                                                             \
    void NAME(T* dst, T* src0, T* src1, uint8_t repeat, uint8_t dst_block_stride,                  \
              uint8_t src0_block_stride, uint8_t src1_block_stride, uint8_t dst_repeat_stride,      \
              uint8_t src0_repeat_stride, uint8_t src1_repeat_stride, PIPEV_LOC) {                  \
        pipev::detail::asc_repeat(pipev::detail::head<T>(STMT), repeat,                            \
                                  pipev::detail::strides6(dst_block_stride, src0_block_stride,      \
                                                          src1_block_stride, dst_repeat_stride,     \
                                                          src0_repeat_stride, src1_repeat_stride),  \
                                  loc, [&](pipev::detail::Stmt& s) {                               \
            pipev::detail::ub_ptrs(s, loc, dst, src0, src1);                                    \
        });                                                                                        \
    }
// unary: asc_exp asc_relu asc_rsqrt (dst, src), with NAME_sync (#27a)
#define PIPEV_C_API_UNARY(NAME, STMT)                                                              \
    template <class T> void NAME(T* dst, T* src, uint32_t count, PIPEV_LOC) {                      \
        pipev::detail::asc_count(pipev::detail::head<T>(STMT), count, false, loc,                  \
                                 [&](pipev::detail::Stmt& s) {                                     \
            pipev::detail::ub_ptrs(s, loc, dst, src);                                              \
        });                                                                                        \
    }                                                                                              \
    template <class T> void NAME##_sync(T* dst, T* src, uint32_t count, PIPEV_LOC) {               \
        pipev::detail::asc_count(pipev::detail::head<T>(STMT), count, true, loc,                   \
                                 [&](pipev::detail::Stmt& s) {                                     \
            pipev::detail::ub_ptrs(s, loc, dst, src);                                              \
        });                                                                                        \
    }                                                                                              \
    template <class T>                                                                             \
    void NAME(T* dst, T* src, uint8_t repeat, uint16_t dst_block_stride, uint16_t src_block_stride, \
              uint16_t dst_repeat_stride, uint16_t src_repeat_stride, PIPEV_LOC) {                  \
        pipev::detail::asc_repeat(pipev::detail::head<T>(STMT), repeat,                            \
                                  pipev::detail::format("stride=%u,%u,%u,%u", dst_block_stride,    \
                                                        src_block_stride, dst_repeat_stride,       \
                                                        src_repeat_stride),                        \
                                  loc, [&](pipev::detail::Stmt& s) {                               \
            pipev::detail::ub_ptrs(s, loc, dst, src);                                              \
        });                                                                                        \
    }
// scalar: asc_add_scalar ... (dst, src, value), with NAME_sync; KEYS ("" or a key=value the
// statement takes after the value: asc_shiftright_round's round_en=1, #27)
#define PIPEV_C_API_SCALAR_KEYED(NAME, STMT, KEYS)                                                 \
    template <class T>                                                                             \
    void NAME(T* dst, T* src, pipev::NoDeduce<T> value, uint32_t count, PIPEV_LOC) {               \
        pipev::detail::asc_count(pipev::detail::head<T>(STMT), count, false, loc,                  \
                                 [&](pipev::detail::Stmt& s) {                                     \
            pipev::detail::ub_ptrs(s, loc, dst, src);                                           \
            s.op("%s", pipev::detail::scalar_text<T>(value).c_str());                              \
            if (*(KEYS)) s.op("%s", KEYS);                                                         \
        });                                                                                        \
    }                                                                                              \
    template <class T>                                                                             \
    void NAME##_sync(T* dst, T* src, pipev::NoDeduce<T> value, uint32_t count, PIPEV_LOC) {        \
        pipev::detail::asc_count(pipev::detail::head<T>(STMT), count, true, loc,                   \
                                 [&](pipev::detail::Stmt& s) {                                     \
            pipev::detail::ub_ptrs(s, loc, dst, src);                                           \
            s.op("%s", pipev::detail::scalar_text<T>(value).c_str());                              \
            if (*(KEYS)) s.op("%s", KEYS);                                                         \
        });                                                                                        \
    }                                                                                              \
    template <class T>                                                                             \
    void NAME(T* dst, T* src, pipev::NoDeduce<T> value, uint8_t repeat, uint16_t dst_block_stride, \
              uint16_t src_block_stride, uint16_t dst_repeat_stride, uint16_t src_repeat_stride,   \
              PIPEV_LOC) {                                                                         \
        pipev::detail::asc_repeat(pipev::detail::head<T>(STMT), repeat,                            \
                                  pipev::detail::format("stride=%u,%u,%u,%u", dst_block_stride,    \
                                                        src_block_stride, dst_repeat_stride,       \
                                                        src_repeat_stride),                        \
                                  loc, [&](pipev::detail::Stmt& s) {                               \
            pipev::detail::ub_ptrs(s, loc, dst, src);                                           \
            s.op("%s", pipev::detail::scalar_text<T>(value).c_str());                              \
            if (*(KEYS)) s.op("%s", KEYS);                                                         \
        });                                                                                        \
    }
#define PIPEV_C_API_SCALAR(NAME, STMT) PIPEV_C_API_SCALAR_KEYED(NAME, STMT, "")
#define PIPEV_C_API_SCALAR_ROUND(NAME, STMT) PIPEV_C_API_SCALAR_KEYED(NAME, STMT, "round_en=1")
// scalar_mixed / binary_mixed (#27): asc_axpy and asc_fma, whose pages add half sources into a
// float dst beside the same-type overloads: T, U ones issuing STMT.T.U (AscendC's Axpy/MulAddDst)
#define PIPEV_C_API_SCALAR_MIXED(NAME, STMT)                                                       \
    PIPEV_C_API_SCALAR(NAME, STMT)                                                                 \
    template <class T, class U, std::enable_if_t<!std::is_same_v<T, U>, int> = 0>                  \
    void NAME(T* dst, U* src, pipev::NoDeduce<U> value, uint32_t count, PIPEV_LOC) {               \
        pipev::detail::asc_count(pipev::detail::head_tu<T, U>(STMT), count, false, loc,            \
                                 [&](pipev::detail::Stmt& s) {                                     \
            pipev::detail::ub_ptrs(s, loc, dst, src);                                              \
            s.op("%s", pipev::detail::scalar_text<U>(value).c_str());                              \
        });                                                                                        \
    }                                                                                              \
    template <class T, class U, std::enable_if_t<!std::is_same_v<T, U>, int> = 0>                  \
    void NAME##_sync(T* dst, U* src, pipev::NoDeduce<U> value, uint32_t count, PIPEV_LOC) {        \
        pipev::detail::asc_count(pipev::detail::head_tu<T, U>(STMT), count, true, loc,             \
                                 [&](pipev::detail::Stmt& s) {                                     \
            pipev::detail::ub_ptrs(s, loc, dst, src);                                              \
            s.op("%s", pipev::detail::scalar_text<U>(value).c_str());                              \
        });                                                                                        \
    }                                                                                              \
    template <class T, class U, std::enable_if_t<!std::is_same_v<T, U>, int> = 0>                  \
    void NAME(T* dst, U* src, pipev::NoDeduce<U> value, uint8_t repeat, uint16_t dst_block_stride, \
              uint16_t src_block_stride, uint16_t dst_repeat_stride, uint16_t src_repeat_stride,   \
              PIPEV_LOC) {                                                                         \
        pipev::detail::asc_repeat(pipev::detail::head_tu<T, U>(STMT), repeat,                      \
                                  pipev::detail::format("stride=%u,%u,%u,%u", dst_block_stride,    \
                                                        src_block_stride, dst_repeat_stride,       \
                                                        src_repeat_stride),                        \
                                  loc, [&](pipev::detail::Stmt& s) {                               \
            pipev::detail::ub_ptrs(s, loc, dst, src);                                              \
            s.op("%s", pipev::detail::scalar_text<U>(value).c_str());                              \
        });                                                                                        \
    }
#define PIPEV_C_API_BINARY_MIXED(NAME, STMT)                                                       \
    PIPEV_C_API_BINARY(NAME, STMT) PIPEV_C_API_MIXED_AS(NAME, STMT)
// binary_or_cast (#27): asc_add_relu / asc_sub_relu, whose pages give the same-type overloads and
// converting ones (s16 → s8, f32 → f16, f16 → s8): those issue STMT_cast.T.U (AddReluCast …)
#define PIPEV_C_API_BINARY_OR_CAST(NAME, STMT)                                                     \
    PIPEV_C_API_BINARY(NAME, STMT) PIPEV_C_API_MIXED_AS(NAME, STMT "_cast")
#define PIPEV_C_API_MIXED_AS(NAME, STMT)                                                           \
    template <class T, class U, std::enable_if_t<!std::is_same_v<T, U>, int> = 0>                  \
    void NAME(T* dst, U* src0, U* src1, uint32_t count, PIPEV_LOC) {                               \
        pipev::detail::asc_count(pipev::detail::head_tu<T, U>(STMT), count, false, loc,            \
                                 [&](pipev::detail::Stmt& s) {                                     \
            pipev::detail::ub_ptrs(s, loc, dst, src0, src1);                                       \
        });                                                                                        \
    }                                                                                              \
    template <class T, class U, std::enable_if_t<!std::is_same_v<T, U>, int> = 0>                  \
    void NAME##_sync(T* dst, U* src0, U* src1, uint32_t count, PIPEV_LOC) {                        \
        pipev::detail::asc_count(pipev::detail::head_tu<T, U>(STMT), count, true, loc,             \
                                 [&](pipev::detail::Stmt& s) {                                     \
            pipev::detail::ub_ptrs(s, loc, dst, src0, src1);                                       \
        });                                                                                        \
    }                                                                                              \
    template <class T, class U, std::enable_if_t<!std::is_same_v<T, U>, int> = 0>                  \
    void NAME(T* dst, U* src0, U* src1, uint8_t repeat, uint8_t dst_block_stride,                  \
              uint8_t src0_block_stride, uint8_t src1_block_stride, uint8_t dst_repeat_stride,      \
              uint8_t src0_repeat_stride, uint8_t src1_repeat_stride, PIPEV_LOC) {                  \
        pipev::detail::asc_repeat(pipev::detail::head_tu<T, U>(STMT), repeat,                      \
                                  pipev::detail::strides6(dst_block_stride, src0_block_stride,      \
                                                          src1_block_stride, dst_repeat_stride,     \
                                                          src0_repeat_stride, src1_repeat_stride),  \
                                  loc, [&](pipev::detail::Stmt& s) {                               \
            pipev::detail::ub_ptrs(s, loc, dst, src0, src1);                                       \
        });                                                                                        \
    }
// cast: asc_SRC2DST[_MODE] (dst, src) → cast.DST.SRC round=MODE, with NAME_sync; the count
// and the mask are the wider type's (isa/api.py). Declared for the types the name says, which
// the generated traits pipev::conv::NAME give (with the round mode).
#define PIPEV_C_API_CAST(NAME, STMT)                                                               \
    inline void NAME(pipev::conv::NAME::D* dst, pipev::conv::NAME::S* src, uint32_t count,        \
                     PIPEV_LOC) {                                                                  \
        pipev::detail::asc_count(pipev::detail::conv_head<pipev::conv::NAME>(STMT), count, false, \
                                 loc, [&](pipev::detail::Stmt& s) {                                \
            pipev::detail::ub_ptrs(s, loc, dst, src);                                              \
            s.op("round=%s", pipev::conv::NAME::round);                                            \
        });                                                                                        \
    }                                                                                              \
    inline void NAME##_sync(pipev::conv::NAME::D* dst, pipev::conv::NAME::S* src, uint32_t count, \
                            PIPEV_LOC) {                                                           \
        pipev::detail::asc_count(pipev::detail::conv_head<pipev::conv::NAME>(STMT), count, true,  \
                                 loc, [&](pipev::detail::Stmt& s) {                                \
            pipev::detail::ub_ptrs(s, loc, dst, src);                                              \
            s.op("round=%s", pipev::conv::NAME::round);                                            \
        });                                                                                        \
    }                                                                                              \
    inline void NAME(pipev::conv::NAME::D* dst, pipev::conv::NAME::S* src, uint8_t repeat,        \
                     uint16_t dst_block_stride, uint16_t src_block_stride,                         \
                     uint16_t dst_repeat_stride, uint16_t src_repeat_stride, PIPEV_LOC) {          \
        pipev::detail::asc_repeat(pipev::detail::conv_head<pipev::conv::NAME>(STMT), repeat,       \
                                  pipev::detail::format("stride=%u,%u,%u,%u", dst_block_stride,    \
                                                        src_block_stride, dst_repeat_stride,       \
                                                        src_repeat_stride),                        \
                                  loc, [&](pipev::detail::Stmt& s) {                               \
            pipev::detail::ub_ptrs(s, loc, dst, src);                                              \
            s.op("round=%s", pipev::conv::NAME::round);                                            \
        });                                                                                        \
    }
namespace pipev::detail {
template <class Conv> std::string conv_head(const char* stmt) {
    return std::string(stmt) + Conv::types;
}
}  // namespace pipev::detail
// binary_cast (#27): asc_mul_cast_half2int8/uint8 (dst, src0, src1) with NAME_sync; the
// types are the row's (pipev::conv::NAME), the conversion the statement's own (no round=)
#define PIPEV_C_API_BINARY_CAST(NAME, STMT)                                                        \
    inline void NAME(pipev::conv::NAME::D* dst, pipev::conv::NAME::S* src0,                       \
                     pipev::conv::NAME::S* src1, uint32_t count, PIPEV_LOC) {                     \
        pipev::detail::asc_count(pipev::detail::conv_head<pipev::conv::NAME>(STMT), count, false, \
                                 loc, [&](pipev::detail::Stmt& s) {                                \
            pipev::detail::ub_ptrs(s, loc, dst, src0, src1);                                       \
        });                                                                                        \
    }                                                                                              \
    inline void NAME##_sync(pipev::conv::NAME::D* dst, pipev::conv::NAME::S* src0,                \
                            pipev::conv::NAME::S* src1, uint32_t count, PIPEV_LOC) {              \
        pipev::detail::asc_count(pipev::detail::conv_head<pipev::conv::NAME>(STMT), count, true,  \
                                 loc, [&](pipev::detail::Stmt& s) {                                \
            pipev::detail::ub_ptrs(s, loc, dst, src0, src1);                                       \
        });                                                                                        \
    }                                                                                              \
    inline void NAME(pipev::conv::NAME::D* dst, pipev::conv::NAME::S* src0,                       \
                     pipev::conv::NAME::S* src1, uint8_t repeat, uint8_t dst_block_stride,         \
                     uint8_t src0_block_stride, uint8_t src1_block_stride,                         \
                     uint8_t dst_repeat_stride, uint8_t src0_repeat_stride,                        \
                     uint8_t src1_repeat_stride, PIPEV_LOC) {                                      \
        pipev::detail::asc_repeat(pipev::detail::conv_head<pipev::conv::NAME>(STMT), repeat,       \
                                  pipev::detail::strides6(dst_block_stride, src0_block_stride,     \
                                                          src1_block_stride, dst_repeat_stride,    \
                                                          src0_repeat_stride, src1_repeat_stride), \
                                  loc, [&](pipev::detail::Stmt& s) {                               \
            pipev::detail::ub_ptrs(s, loc, dst, src0, src1);                                       \
        });                                                                                        \
    }
// ---- GM atomics (issue #27): asc_set_atomic_OP_TYPE → set_atomic.T atomic=OP; the UB → GM
// copies that follow accumulate into GM; asc_set_atomic_none → plain stores again
#define PIPEV_ASC_ATOMIC(OP, SUFFIX, T)                                                            \
    inline void asc_set_atomic_##OP##_##SUFFIX(PIPEV_LOC) { pipev::detail::set_atomic<T>(#OP, loc); }
#define PIPEV_ASC_ATOMICS(OP)                                                                      \
    PIPEV_ASC_ATOMIC(OP, float, float) PIPEV_ASC_ATOMIC(OP, float16, half)                         \
    PIPEV_ASC_ATOMIC(OP, bfloat, bfloat16_t) PIPEV_ASC_ATOMIC(OP, int, int32_t)                    \
    PIPEV_ASC_ATOMIC(OP, int32, int32_t) PIPEV_ASC_ATOMIC(OP, int16, int16_t)                      \
    PIPEV_ASC_ATOMIC(OP, int8, int8_t)
PIPEV_ASC_ATOMICS(add)
PIPEV_ASC_ATOMICS(max)
PIPEV_ASC_ATOMICS(min)
#undef PIPEV_ASC_ATOMICS
#undef PIPEV_ASC_ATOMIC
inline void asc_set_atomic_none(PIPEV_LOC) { pipev::detail::set_atomic<float>("none", loc); }
// asc_set_store_atomic_config_v1(type, op) (#27, h27e): the page's type codes (AscendC's
// AtomicDtype order: 0 none, 1 float, 2 half, 3 int16_t, 4 int32_t, 5 int8_t, 6 bfloat16_t)
// and op 0, the sum: the same set_atomic statement as asc_set_atomic_add_TYPE / _none. The page
// gives no meaning to other values, so they are an error at the call.
inline void asc_set_store_atomic_config_v1(uint16_t type, uint16_t op, PIPEV_LOC) {
    using namespace pipev::detail;
    if (type > 6)
        error(loc, "asc_set_store_atomic_config_v1: type %u has no meaning (0 none, 1 float, "
                   "2 half, 3 int16_t, 4 int32_t, 5 int8_t, 6 bfloat16_t)", unsigned(type));
    if (type != 0 && op != 0)
        error(loc, "asc_set_store_atomic_config_v1: op %u has no meaning (0: sum)", unsigned(op));
    switch (type) {
    case 0: set_atomic<float>("none", loc); break;
    case 1: set_atomic<float>("add", loc); break;
    case 2: set_atomic<half>("add", loc); break;
    case 3: set_atomic<int16_t>("add", loc); break;
    case 4: set_atomic<int32_t>("add", loc); break;
    case 5: set_atomic<int8_t>("add", loc); break;
    default: set_atomic<bfloat16_t>("add", loc); break;
    }
}

// ---- scalar helpers (issue #27): the kernel's own scalar code, no statement -----------------
inline int64_t asc_popc(uint64_t value) { return pipev::detail::popcount(value); }
inline int64_t asc_zero_bits_cnt(uint64_t value) { return 64 - pipev::detail::popcount(value); }
inline int64_t asc_clz(uint64_t value_in) { return pipev::detail::clz(value_in); }
inline int64_t asc_ffs(uint64_t value) { return pipev::detail::ffs(value); }
inline int64_t asc_ffz(uint64_t value) { return pipev::detail::ffs(~value); }
inline int64_t asc_sflbits(int64_t value) { return pipev::detail::sign_bits(value); }
inline uint64_t asc_set_nthbit(uint64_t bits, int64_t idx) { return bits | (1ull << (idx & 63)); }
inline uint64_t asc_clear_nthbit(uint64_t bits, int64_t idx) { return bits & ~(1ull << (idx & 63)); }
inline int32_t asc_float2int32_rn(float v) { return pipev::detail::float_to_int32(v, 1); }
inline int32_t asc_float2int32_rd(float v) { return pipev::detail::float_to_int32(v, 2); }
inline int32_t asc_float2int32_ru(float v) { return pipev::detail::float_to_int32(v, 3); }
inline int32_t asc_float2int32_rna(float v) { return pipev::detail::float_to_int32(v, 4); }
#include "bindings.h"
#include "reg.h"  // issue 34: the reg section (ascend950)
#include "nddma.h"  // issue 34: asc_ndim_copy_gm2ub (ascend950)
#include "data_move_align.h"  // asc_copy_gm2ub_align / asc_copy_ub2gm_align, asc_lock

// ---- data movement ------------------------------------------------------------------------------
inline void asc_copy_gm2ub(void* dst, void* src, uint32_t size, PIPEV_LOC) {
    pipev::detail::asc_copy("copy_gm_to_ub", true, dst, src, 1,
                                  pipev::detail::copy_blocks(size, loc), 0, 0, false, loc);
}
inline void asc_copy_gm2ub_sync(void* dst, void* src, uint32_t size, PIPEV_LOC) {
    pipev::detail::asc_copy("copy_gm_to_ub", true, dst, src, 1,
                                  pipev::detail::copy_blocks(size, loc), 0, 0, true, loc);
}
inline void asc_copy_gm2ub(void* dst, void* src, uint16_t n_burst, uint16_t len_burst,
                           uint16_t src_gap, uint16_t dst_gap, PIPEV_LOC) {
    pipev::detail::asc_copy("copy_gm_to_ub", true, dst, src, n_burst, len_burst, src_gap,
                                  dst_gap, false, loc);
}
inline void asc_copy_ub2gm(void* dst, void* src, uint32_t size, PIPEV_LOC) {
    pipev::detail::asc_copy("copy_ub_to_gm", false, dst, src, 1,
                                  pipev::detail::copy_blocks(size, loc), 0, 0, false, loc);
}
inline void asc_copy_ub2gm_sync(void* dst, void* src, uint32_t size, PIPEV_LOC) {
    pipev::detail::asc_copy("copy_ub_to_gm", false, dst, src, 1,
                                  pipev::detail::copy_blocks(size, loc), 0, 0, true, loc);
}
inline void asc_copy_ub2gm(void* dst, void* src, uint16_t n_burst, uint16_t len_burst,
                           uint16_t src_gap, uint16_t dst_gap, PIPEV_LOC) {
    pipev::detail::asc_copy("copy_ub_to_gm", false, dst, src, n_burst, len_burst, src_gap,
                                  dst_gap, false, loc);
}

// ---- synchronisation and system ----------------------------------------------------------------
inline void asc_sync_notify(pipe_t pipe, pipe_t tpipe, event_t id, PIPEV_LOC) {
    pipev::detail::set_flag(pipev::detail::c_pipe(pipe, loc), pipev::detail::c_pipe(tpipe, loc),
                            int(id), loc);
}
inline void asc_sync_wait(pipe_t pipe, pipe_t tpipe, event_t id, PIPEV_LOC) {
    pipev::detail::wait_flag(pipev::detail::c_pipe(pipe, loc), pipev::detail::c_pipe(tpipe, loc),
                             int(id), loc);
}
inline void asc_sync_pipe(pipe_t pipe, PIPEV_LOC) { pipev::detail::barrier(pipe, loc); }
inline void asc_sync(PIPEV_LOC) { pipev::detail::barrier(PIPE_ALL, loc); }
inline int64_t asc_get_block_idx() { return AscendC::GetBlockIdx(); }
inline int64_t asc_get_block_num() { return AscendC::GetBlockNum(); }
// The machine is in its reset state when a launch starts.
inline void asc_init() {}
// ---- issue 28 (28b): GatherMask (asc_reduce) and its count --------------------------------------
namespace pipev::detail {
template <class T>
void asc_reduce_stmt(T* dst, T* src0, T* src1, int pattern, const std::string& keys, bool sync,
                     Loc loc) {
    Stmt s("gather_mask.%s", type_name<T>);
    ub_ptr(s, dst, loc);
    ub_ptr(s, src0, loc);
    if (pattern == 0) ub_ptr(s, src1, loc);
    s.op("pattern=%d", pattern);
    s.op("%s", keys.c_str()).issue(loc);
    sync_all(sync, loc);
}
// The first COUNT elements, pattern bits from src1: one counter-mode repeat of COUNT elements.
template <class T> void asc_reduce_n(T* dst, T* src0, T* src1, uint32_t count, bool sync, Loc loc) {
    asc_reduce_stmt(dst, src0, src1, 0,
                    format("count=%u, repeat=1, stride=1,8,1", unsigned(count)), sync, loc);
}
// REPEAT repeats in the mode the machine is in (MASK as it is, as the hardware instruction).
template <class T>
void asc_reduce_hd(T* dst, T* src0, T* src1, uint16_t repeat, uint8_t src0_block_stride,
                   uint8_t pattern_mode, uint16_t src0_repeat_stride, uint8_t src1_repeat_stride,
                   Loc loc) {
    Stmt s("gather_mask.%s", type_name<T>);
    ub_ptr(s, dst, loc);
    ub_ptr(s, src0, loc);
    if (pattern_mode == 0) ub_ptr(s, src1, loc);
    s.op("pattern=%u", unsigned(pattern_mode)).key("repeat", repeat);
    s.op("stride=%u,%u,%u", unsigned(src0_block_stride), unsigned(src0_repeat_stride),
         unsigned(src1_repeat_stride)).issue(loc);
}
}  // namespace pipev::detail
inline void asc_reduce(__ubuf__ uint16_t* dst, __ubuf__ uint16_t* src0, __ubuf__ uint16_t* src1,
                       uint32_t count, PIPEV_LOC) {
    pipev::detail::asc_reduce_n(dst, src0, src1, count, false, loc);
}
inline void asc_reduce(__ubuf__ uint32_t* dst, __ubuf__ uint32_t* src0, __ubuf__ uint32_t* src1,
                       uint32_t count, PIPEV_LOC) {
    pipev::detail::asc_reduce_n(dst, src0, src1, count, false, loc);
}
inline void asc_reduce_sync(__ubuf__ uint16_t* dst, __ubuf__ uint16_t* src0,
                            __ubuf__ uint16_t* src1, uint32_t count, PIPEV_LOC) {
    pipev::detail::asc_reduce_n(dst, src0, src1, count, true, loc);
}
inline void asc_reduce_sync(__ubuf__ uint32_t* dst, __ubuf__ uint32_t* src0,
                            __ubuf__ uint32_t* src1, uint32_t count, PIPEV_LOC) {
    pipev::detail::asc_reduce_n(dst, src0, src1, count, true, loc);
}
inline void asc_reduce(__ubuf__ uint16_t* dst, __ubuf__ uint16_t* src0, __ubuf__ uint16_t* src1,
                       uint16_t repeat, uint8_t src0_block_stride, uint8_t pattern_mode,
                       uint16_t src0_repeat_stride, uint8_t src1_repeat_stride, PIPEV_LOC) {
    pipev::detail::asc_reduce_hd(dst, src0, src1, repeat, src0_block_stride, pattern_mode,
                                 src0_repeat_stride, src1_repeat_stride, loc);
}
inline void asc_reduce(__ubuf__ uint32_t* dst, __ubuf__ uint32_t* src0, __ubuf__ uint32_t* src1,
                       uint16_t repeat, uint8_t src0_block_stride, uint8_t pattern_mode,
                       uint16_t src0_repeat_stride, uint8_t src1_repeat_stride, PIPEV_LOC) {
    pipev::detail::asc_reduce_hd(dst, src0, src1, repeat, src0_block_stride, pattern_mode,
                                 src0_repeat_stride, src1_repeat_stride, loc);
}
// RSVD_CNT: the elements the last asc_reduce (GatherMask) wrote.
inline int64_t asc_get_rsvd_count() { return int64_t(pipev::detail::special("rsvd_cnt")); }
// CTRL (the sys_var pages asc_set_ctrl / asc_get_ctrl, issue 34): the whole register
inline void asc_set_ctrl(uint64_t config, PIPEV_LOC) { AscendC::SetCtrlSpr<0, 63>(int64_t(config), loc); }
inline int64_t asc_get_ctrl() { return int64_t(pipev::detail::special("ctrl")); }
// ---- issue 28 (28b): Brcb (asc_brcb) --------------------------------------------------------------
union asc_brcb_config {
    uint64_t config;
    __extension__ struct {  // anonymous, as the vendor's (__extension__: -Wpedantic allows it)
        uint64_t dst_block_stride : 16;
        uint64_t reserved1 : 16;
        uint64_t dst_repeat_stride : 12;
        uint64_t reserved2 : 12;
        uint64_t repeat : 8;
    };
};
namespace pipev::detail {
template <class T> void asc_brcb_stmt(T* dst, T* src, const asc_brcb_config& c, bool sync, Loc loc) {
    Stmt s("brcb.%s", type_name<T>);
    ub_ptr(s, dst, loc);
    ub_ptr(s, src, loc);
    s.key("repeat", c.repeat);
    s.op("stride=%u,%u", unsigned(c.dst_block_stride), unsigned(c.dst_repeat_stride)).issue(loc);
    sync_all(sync, loc);
}
}  // namespace pipev::detail
inline void asc_brcb(__ubuf__ uint16_t* dst, __ubuf__ uint16_t* src, const asc_brcb_config& config,
                     PIPEV_LOC) {
    pipev::detail::asc_brcb_stmt(dst, src, config, false, loc);
}
inline void asc_brcb(__ubuf__ uint32_t* dst, __ubuf__ uint32_t* src, const asc_brcb_config& config,
                     PIPEV_LOC) {
    pipev::detail::asc_brcb_stmt(dst, src, config, false, loc);
}
inline void asc_brcb_sync(__ubuf__ uint16_t* dst, __ubuf__ uint16_t* src,
                          const asc_brcb_config& config, PIPEV_LOC) {
    pipev::detail::asc_brcb_stmt(dst, src, config, true, loc);
}
inline void asc_brcb_sync(__ubuf__ uint32_t* dst, __ubuf__ uint32_t* src,
                          const asc_brcb_config& config, PIPEV_LOC) {
    pipev::detail::asc_brcb_stmt(dst, src, config, true, loc);
}
// ---- issue 28: the registers asc_repeat_reduce_max/min leave (the extreme over all repeats and
// its position), read as GetRsvdCnt is (PIPE_S on the page; untimed here)
#define PIPEV_REDUCE_CNT(NAME, T)                                                    \
    inline void NAME(T& val, uint32_t& index) {                                      \
        val = pipev::detail::spr_as<T>(pipev::detail::special("reduce_max_min_value")); \
        index = uint32_t(pipev::detail::special("reduce_max_min_index"));            \
    }
PIPEV_REDUCE_CNT(asc_get_reduce_max_cnt, half)
PIPEV_REDUCE_CNT(asc_get_reduce_max_cnt, float)
PIPEV_REDUCE_CNT(asc_get_reduce_min_cnt, half)
PIPEV_REDUCE_CNT(asc_get_reduce_min_cnt, float)
#undef PIPEV_REDUCE_CNT
// ---- h28: the reductions' first-n forms and order-named calls of the newest C-API pages:
// asc_repeat_reduce_max_value_index … _only_index (count or high-dimensional; the order in the
// name), and the `_sync` first-n forms; each is the binding row's call (c_api/bindings.h) with
// the order fixed, then a barrier for `_sync`
#define PIPEV_REDUCE_ORDER(OP, WORD, ORDER)                                                    \
    template <class T> void asc_repeat_reduce_##OP##_##WORD(T* dst, T* src, uint32_t count,   \
                                                             PIPEV_LOC) {                      \
        asc_repeat_reduce_##OP(dst, src, count, ORDER, loc);                                   \
    }                                                                                          \
    template <class T>                                                                         \
    void asc_repeat_reduce_##OP##_##WORD(T* dst, T* src, uint8_t repeat, uint16_t dst_rep,    \
                                         uint16_t src_blk, uint16_t src_rep, PIPEV_LOC) {      \
        asc_repeat_reduce_##OP(dst, src, repeat, dst_rep, src_blk, src_rep, ORDER, loc);       \
    }                                                                                          \
    template <class T> void asc_repeat_reduce_##OP##_##WORD##_sync(T* dst, T* src,            \
                                                                   uint32_t count, PIPEV_LOC) {\
        asc_repeat_reduce_##OP(dst, src, count, ORDER, loc);                                   \
        pipev::detail::sync_all(true, loc);                                                    \
    }
PIPEV_REDUCE_ORDER(max, value_index, 0)
PIPEV_REDUCE_ORDER(max, index_value, 1)
PIPEV_REDUCE_ORDER(max, only_value, 2)
PIPEV_REDUCE_ORDER(max, only_index, 3)
PIPEV_REDUCE_ORDER(min, value_index, 0)
PIPEV_REDUCE_ORDER(min, index_value, 1)
PIPEV_REDUCE_ORDER(min, only_value, 2)
PIPEV_REDUCE_ORDER(min, only_index, 3)
#undef PIPEV_REDUCE_ORDER
#define PIPEV_REDUCE_SYNC(NAME)                                                                \
    template <class T> void NAME##_sync(T* dst, T* src, uint32_t count, PIPEV_LOC) {           \
        NAME(dst, src, count, loc);                                                            \
        pipev::detail::sync_all(true, loc);                                                    \
    }
PIPEV_REDUCE_SYNC(asc_repeat_reduce_sum)
PIPEV_REDUCE_SYNC(asc_datablock_reduce_max)
PIPEV_REDUCE_SYNC(asc_datablock_reduce_min)
PIPEV_REDUCE_SYNC(asc_datablock_reduce_sum)
PIPEV_REDUCE_SYNC(asc_pair_reduce_sum)
#undef PIPEV_REDUCE_SYNC
// h28: asc_brcb with positional strides (the newest page's form; the asc_brcb_config form above
// is an earlier page's)
#define PIPEV_BRCB_POSITIONAL(NAME, T, SYNC)                                                   \
    inline void NAME(__ubuf__ T* dst, __ubuf__ T* src, uint16_t dst_block_stride,              \
                     uint16_t dst_repeat_stride, uint8_t repeat, PIPEV_LOC) {                  \
        pipev::detail::Stmt s("brcb.%s", pipev::type_name<T>);                                 \
        pipev::detail::ub_ptr(s, dst, loc);                                                    \
        pipev::detail::ub_ptr(s, src, loc);                                                    \
        s.key("repeat", repeat);                                                               \
        s.op("stride=%u,%u", unsigned(dst_block_stride), unsigned(dst_repeat_stride));         \
        s.issue(loc);                                                                          \
        pipev::detail::sync_all(SYNC, loc);                                                    \
    }
PIPEV_BRCB_POSITIONAL(asc_brcb, uint16_t, false)
PIPEV_BRCB_POSITIONAL(asc_brcb, uint32_t, false)
PIPEV_BRCB_POSITIONAL(asc_brcb_sync, uint16_t, true)
PIPEV_BRCB_POSITIONAL(asc_brcb_sync, uint32_t, true)
#undef PIPEV_BRCB_POSITIONAL
// ---- issue 28: Gather (asc_gather) and Transpose (asc_transpose) ----------------------------------
namespace pipev::detail {
template <class T> void asc_gather_stmt(T* dst, T* src, uint32_t* src_offset, const char* form,
                                        uint64_t a, uint64_t b, bool sync, Loc loc) {
    Stmt s("gather.%s", type_name<T>);
    ub_ptr(s, dst, loc);
    ub_ptr(s, src, loc);
    ub_ptr(s, src_offset, loc);
    if (form[0] == 'c') s.key("count", a);
    else s.key("repeat", b).op("stride=%u", unsigned(a));  // MASK as it is
    s.issue(loc);
    sync_all(sync, loc);
}
}  // namespace pipev::detail
#define PIPEV_GATHER(T)                                                                          \
    inline void asc_gather(__ubuf__ T* dst, __ubuf__ T* src, __ubuf__ uint32_t* src_offset,      \
                           uint32_t count, PIPEV_LOC) {                                          \
        pipev::detail::asc_gather_stmt(dst, src, src_offset, "count", count, 0, false, loc);     \
    }                                                                                            \
    inline void asc_gather(__ubuf__ T* dst, __ubuf__ T* src, __ubuf__ uint32_t* src_offset,      \
                           uint16_t dst_repeat_stride, uint8_t repeat, PIPEV_LOC) {              \
        pipev::detail::asc_gather_stmt(dst, src, src_offset, "repeat", dst_repeat_stride, repeat, \
                                       false, loc);                                              \
    }                                                                                            \
    inline void asc_gather_sync(__ubuf__ T* dst, __ubuf__ T* src, __ubuf__ uint32_t* src_offset, \
                                uint32_t count, PIPEV_LOC) {                                     \
        pipev::detail::asc_gather_stmt(dst, src, src_offset, "count", count, 0, true, loc);      \
    }                                                                                            \
    inline void asc_gather_sync(__ubuf__ T* dst, __ubuf__ T* src, __ubuf__ uint32_t* src_offset, \
                                uint16_t dst_repeat_stride, uint8_t repeat, PIPEV_LOC) {         \
        pipev::detail::asc_gather_stmt(dst, src, src_offset, "repeat", dst_repeat_stride, repeat, \
                                       true, loc);                                               \
    }
PIPEV_GATHER(int16_t)
PIPEV_GATHER(uint16_t)
PIPEV_GATHER(half)
PIPEV_GATHER(bfloat16_t)
PIPEV_GATHER(int32_t)
PIPEV_GATHER(uint32_t)
PIPEV_GATHER(float)
#undef PIPEV_GATHER
// Gatherb (asc_gather_datablock): whole blocks by byte offsets (`gatherb` → vgatherb).
#define PIPEV_GATHERB(T)                                                                         \
    inline void asc_gather_datablock(__ubuf__ T* dst, __ubuf__ T* src, __ubuf__ uint32_t* src_offset, \
                                     uint16_t dst_repeat_stride, uint8_t dst_block_stride,     \
                                     uint8_t repeat, PIPEV_LOC) {                              \
        pipev::detail::Stmt s("gatherb.%s", pipev::type_name<T>);                               \
        pipev::detail::ub_ptrs(s, loc, dst, src, src_offset);                                   \
        s.key("repeat", repeat);                                                                \
        s.op("stride=%u,%u", unsigned(dst_block_stride), unsigned(dst_repeat_stride));          \
        s.issue(loc);                                                                           \
    }                                                                                           \
    inline void asc_gather_datablock_sync(__ubuf__ T* dst, __ubuf__ T* src,                     \
                                          __ubuf__ uint32_t* src_offset,                        \
                                          uint16_t dst_repeat_stride, uint8_t dst_block_stride, \
                                          uint8_t repeat, PIPEV_LOC) {                          \
        asc_gather_datablock(dst, src, src_offset, dst_repeat_stride, dst_block_stride, repeat, \
                             loc);                                                              \
        pipev::detail::sync_all(true, loc);                                                     \
    }
PIPEV_GATHERB(uint16_t)
PIPEV_GATHERB(uint32_t)
#undef PIPEV_GATHERB
#define PIPEV_TRANSPOSE(T)                                                                  \
    inline void asc_transpose(__ubuf__ T* dst, __ubuf__ T* src, PIPEV_LOC) {                \
        pipev::detail::Stmt s("transpose.%s", pipev::type_name<T>);                         \
        pipev::detail::ub_ptrs(s, loc, dst, src);                                           \
        s.issue(loc);                                                                       \
    }                                                                                       \
    inline void asc_transpose_sync(__ubuf__ T* dst, __ubuf__ T* src, PIPEV_LOC) {           \
        asc_transpose(dst, src, loc);                                                       \
        pipev::detail::sync_all(true, loc);                                                 \
    }
PIPEV_TRANSPOSE(int16_t)
PIPEV_TRANSPOSE(uint16_t)
#undef PIPEV_TRANSPOSE
// ---- issue 28: TransDataTo5HD (asc_set_va_reg, asc_transto5hd_b8/b16/b32) -------------------
// The address registers: asc_set_va_reg puts 8 UB addresses in one (`set_va`), asc_transto5hd
// reads dst's 16 from VA d and d + 1 and src's from VA s and s + 1 (`vnchwconv_va`).
enum ub_addr8_t : uint8_t { VA0, VA1, VA2, VA3, VA4, VA5, VA6, VA7 };
namespace pipev::detail {
template <class T> void asc_set_va(ub_addr8_t addr, T** src_array, Loc loc) {
    uint64_t a[8];
    for (int k = 0; k < 8; ++k) a[k] = ub_addr(src_array[k], loc);
    set_va(int(addr), a, type_name<T>, sizeof(T), loc);
}
}  // namespace pipev::detail
#define PIPEV_SET_VA(T)                                                                  \
    inline void asc_set_va_reg(ub_addr8_t addr, __ubuf__ T** src_array, PIPEV_LOC) {      \
        pipev::detail::asc_set_va(addr, src_array, loc);                                   \
    }
PIPEV_SET_VA(int8_t)
PIPEV_SET_VA(uint8_t)
PIPEV_SET_VA(int16_t)
PIPEV_SET_VA(uint16_t)
PIPEV_SET_VA(half)
PIPEV_SET_VA(int32_t)
PIPEV_SET_VA(uint32_t)
PIPEV_SET_VA(float)
#undef PIPEV_SET_VA
inline void asc_transto5hd_b32(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dst_stride,
                               uint16_t src_stride, PIPEV_LOC) {
    pipev::detail::vnchwconv_va<uint32_t>(dst, src, repeat, dst_stride, src_stride, false, false, loc);
}
inline void asc_transto5hd_b16(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dst_stride,
                               uint16_t src_stride, PIPEV_LOC) {
    pipev::detail::vnchwconv_va<uint16_t>(dst, src, repeat, dst_stride, src_stride, false, false, loc);
}
inline void asc_transto5hd_b8(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dst_stride,
                              uint16_t src_stride, bool dst_high_half, bool src_high_half,
                              PIPEV_LOC) {
    pipev::detail::vnchwconv_va<uint8_t>(dst, src, repeat, dst_stride, src_stride, dst_high_half,
                                         src_high_half, loc);
}
inline void asc_transto5hd_b32_sync(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat,
                                    uint16_t dst_stride, uint16_t src_stride, PIPEV_LOC) {
    asc_transto5hd_b32(dst, src, repeat, dst_stride, src_stride, loc);
    pipev::detail::sync_all(true, loc);
}
inline void asc_transto5hd_b16_sync(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat,
                                    uint16_t dst_stride, uint16_t src_stride, PIPEV_LOC) {
    asc_transto5hd_b16(dst, src, repeat, dst_stride, src_stride, loc);
    pipev::detail::sync_all(true, loc);
}
inline void asc_transto5hd_b8_sync(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat,
                                   uint16_t dst_stride, uint16_t src_stride, bool dst_high_half,
                                   bool src_high_half, PIPEV_LOC) {
    asc_transto5hd_b8(dst, src, repeat, dst_stride, src_stride, dst_high_half, src_high_half, loc);
    pipev::detail::sync_all(true, loc);
}
// ---- #27/#29 (h27dq): DEQSCALE and the dequantising conversions (the C API's vector compute
// pages asc_set_deq_scale, asc_deq_int322half, asc_deq_int162b8_h/l, asc_vdeq_int162b8_h/l):
// statements set_deq_scale and cast_dequant, expanded by isa/api.py as AscendC's are. _h puts
// each block's 16 results in its high half (bytes 16..31), _l in its low half.
constexpr int ASC_VDEQ_SIZE = 16;
inline void asc_set_deq_scale(half scale, PIPEV_LOC) { AscendC::SetDeqScale(scale, loc); }
inline void asc_set_deq_scale(float scale, int16_t offset, bool sign_mode, PIPEV_LOC) {
    AscendC::SetDeqScale(scale, offset, sign_mode, loc);
}
inline void asc_set_deq_scale(__ubuf__ uint64_t* tmp, float scale_arr[ASC_VDEQ_SIZE],
                              int16_t offset_arr[ASC_VDEQ_SIZE],
                              bool sign_mode_arr[ASC_VDEQ_SIZE], PIPEV_LOC) {
    for (int k = 0; k < ASC_VDEQ_SIZE; ++k) {  // the register's layout, word by word
        uint32_t bits;
        std::memcpy(&bits, &scale_arr[k], 4);
        tmp[k] = uint64_t(bits) | (uint64_t(uint16_t(offset_arr[k]) & 0x1ff) << 37) |
                 (uint64_t(sign_mode_arr[k]) << 46);
    }
    pipev::detail::Stmt s("set_deq_scale.u64");
    pipev::detail::ub_ptrs(s, loc, tmp);
    s.issue(loc);
}
#define PIPEV_C_API_DEQ(NAME, D, S, TYPES, EXTRA)                                                  \
    inline void NAME(__ubuf__ D* dst, __ubuf__ S* src, uint32_t count, PIPEV_LOC) {              \
        pipev::detail::asc_count(std::string("cast_dequant") + TYPES, count, false, loc,          \
                                 [&](pipev::detail::Stmt& s) {                                    \
            pipev::detail::ub_ptrs(s, loc, dst, src);                                              \
            s.op("%s", EXTRA);                                                                     \
        });                                                                                        \
    }                                                                                              \
    inline void NAME##_sync(__ubuf__ D* dst, __ubuf__ S* src, uint32_t count, PIPEV_LOC) {       \
        pipev::detail::asc_count(std::string("cast_dequant") + TYPES, count, true, loc,           \
                                 [&](pipev::detail::Stmt& s) {                                    \
            pipev::detail::ub_ptrs(s, loc, dst, src);                                              \
            s.op("%s", EXTRA);                                                                     \
        });                                                                                        \
    }                                                                                              \
    inline void NAME(__ubuf__ D* dst, __ubuf__ S* src, uint8_t repeat, uint16_t dst_block_stride, \
                     uint16_t src_block_stride, uint8_t dst_repeat_stride,                         \
                     uint8_t src_repeat_stride, PIPEV_LOC) {                                       \
        pipev::detail::asc_repeat(std::string("cast_dequant") + TYPES, repeat,                    \
                                  pipev::detail::format("stride=%u,%u,%u,%u", dst_block_stride,    \
                                                        src_block_stride, dst_repeat_stride,       \
                                                        src_repeat_stride),                        \
                                  loc, [&](pipev::detail::Stmt& s) {                               \
            pipev::detail::ub_ptrs(s, loc, dst, src);                                              \
            s.op("%s", EXTRA);                                                                     \
        });                                                                                        \
    }
PIPEV_C_API_DEQ(asc_deq_int322half, half, int32_t, ".f16.s32", "vec_deq=0")
PIPEV_C_API_DEQ(asc_deq_int162b8_h, int8_t, int16_t, ".s8.s16", "vec_deq=0, half_block=1")
PIPEV_C_API_DEQ(asc_deq_int162b8_h, uint8_t, int16_t, ".u8.s16", "vec_deq=0, half_block=1")
PIPEV_C_API_DEQ(asc_deq_int162b8_l, int8_t, int16_t, ".s8.s16", "vec_deq=0, half_block=0")
PIPEV_C_API_DEQ(asc_deq_int162b8_l, uint8_t, int16_t, ".u8.s16", "vec_deq=0, half_block=0")
PIPEV_C_API_DEQ(asc_vdeq_int162b8_h, int8_t, int16_t, ".s8.s16", "vec_deq=1, half_block=1")
PIPEV_C_API_DEQ(asc_vdeq_int162b8_h, uint8_t, int16_t, ".u8.s16", "vec_deq=1, half_block=1")
PIPEV_C_API_DEQ(asc_vdeq_int162b8_l, int8_t, int16_t, ".s8.s16", "vec_deq=1, half_block=0")
PIPEV_C_API_DEQ(asc_vdeq_int162b8_l, uint8_t, int16_t, ".u8.s16", "vec_deq=1, half_block=0")
#undef PIPEV_C_API_DEQ
#endif
