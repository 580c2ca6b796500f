// simt_api/math_functions.h: the integer min / max of the SIMT API's integer math library
// (ascend950; the `min`, `max`, `llmin`, `llmax`, `ullmin`, `ullmax`, `umin`, `umax` pages), plain
// scalar functions here. kernel_operator.h includes it on every chip: the vendor's arch35
// kernels call `min(a, b)` on int64_t / uint64_t scalars without including it (#34), and
// third-party A2 kernels do the same on uint32_t (their vendor-built ascend910b objects show the
// vendor's toolchain takes it). Clean room.
#ifndef PIPEV_SIMT_MATH_FUNCTIONS_H
#define PIPEV_SIMT_MATH_FUNCTIONS_H

#define PIPEV_INT_MIN_MAX(T)                                                                      \
    inline T min(T x, T y) { return y < x ? y : x; }                                              \
    inline T max(T x, T y) { return x < y ? y : x; }
PIPEV_INT_MIN_MAX(long long)
PIPEV_INT_MIN_MAX(long)
PIPEV_INT_MIN_MAX(int)
PIPEV_INT_MIN_MAX(short)
PIPEV_INT_MIN_MAX(char)
PIPEV_INT_MIN_MAX(unsigned long long)
PIPEV_INT_MIN_MAX(unsigned long)
PIPEV_INT_MIN_MAX(unsigned int)
PIPEV_INT_MIN_MAX(unsigned short)
PIPEV_INT_MIN_MAX(unsigned char)
#undef PIPEV_INT_MIN_MAX
inline long long int llmin(const long long int x, const long long int y) { return min(x, y); }
inline long long int llmax(const long long int x, const long long int y) { return max(x, y); }
inline unsigned long long int ullmin(const unsigned long long int x,
                                     const unsigned long long int y) { return min(x, y); }
inline unsigned long long int ullmax(const unsigned long long int x,
                                     const unsigned long long int y) { return max(x, y); }
inline unsigned int umin(const unsigned int x, const unsigned int y) { return min(x, y); }
inline unsigned int umax(const unsigned int x, const unsigned int y) { return max(x, y); }
#endif
