// pipev/unmodelled.h: vector APIs pipev names but does not model (the operator library's common
// headers name them in templates, so a kernel that includes them needs the names to compile even
// when it never calls them). Each compiles; a call stops the run with an error at its line. The
// algorithm configs are the public API pages' (SinConfig{SinAlgo}, ...). Clean room.
#ifndef PIPEV_UNMODELLED_H
#define PIPEV_UNMODELLED_H
#include "core.h"
#include "tensor.h"

namespace pipev::detail {
[[noreturn]] inline void unmodelled(const char* api, Loc loc) {
    error(loc, "%s is not modelled by pipev (the API is named so that headers which mention it "
          "compile; docs/ascendc.md, \"Names without a model\")", api);
}
}  // namespace pipev::detail

namespace AscendC {
enum class SinAlgo { POLYNOMIAL_APPROXIMATION, RADIAN_REDUCTION };
enum class CosAlgo { POLYNOMIAL_APPROXIMATION, RADIAN_REDUCTION };
enum class AtanAlgo { POLYNOMIAL_APPROXIMATION };
enum class ErfAlgo { POLYNOMIAL_APPROXIMATION, SUBSECTION_POLYNOMIAL_APPROXIMATION };
// the Sqrt pages' SqrtAlgo (Reg::SqrtSpecificMode's and the Memory Sqrt's SqrtConfig's algo, both
// modelled: pipev/reg.h, pipev/memory_on_reg.h)
enum class SqrtAlgo { INTRINSIC = 0, FAST_INVERSE, PRECISION_1ULP_FTZ_TRUE, PRECISION_0ULP_FTZ_FALSE,
                      PRECISION_1ULP_FTZ_FALSE };
// the Div pages' DivAlgo (Reg::DivSpecificMode's algo, modelled: pipev/reg.h)
enum class DivAlgo { INTRINSIC, DIFF_COMPENSATION, PRECISION_1ULP_FTZ_TRUE, PRECISION_0ULP_FTZ_TRUE,
                     PRECISION_0ULP_FTZ_FALSE, PRECISION_1ULP_FTZ_FALSE };
enum class FmodAlgo { NORMAL, ITERATION_COMPENSATION };
enum class PowerAlgo { INTRINSIC, DOUBLE_FLOAT_TECH };
struct SinConfig { SinAlgo algo; };
struct CosConfig { CosAlgo algo; };
struct AtanConfig { AtanAlgo algo; };
struct ErfConfig { ErfAlgo algo; };
struct SqrtConfig { SqrtAlgo algo = SqrtAlgo::INTRINSIC; };
inline constexpr SqrtConfig DEFAULT_SQRT_CONFIG = {SqrtAlgo::INTRINSIC};
struct DivConfig { DivAlgo algo; };
struct FmodConfig { FmodAlgo algo; uint32_t iterationNum; };
struct PowerConfig { PowerAlgo algo; };
inline constexpr SinConfig kDefaultSinConfig{SinAlgo::POLYNOMIAL_APPROXIMATION};
inline constexpr CosConfig kDefaultCosConfig{CosAlgo::POLYNOMIAL_APPROXIMATION};
inline constexpr AtanConfig kDefaultAtanConfig{AtanAlgo::POLYNOMIAL_APPROXIMATION};
inline constexpr ErfConfig kDefaultErfConfig{ErfAlgo::POLYNOMIAL_APPROXIMATION};
inline constexpr FmodConfig kDefaultFmodConfig{FmodAlgo::NORMAL, 0};
inline constexpr PowerConfig kDefaultPowerConfig{PowerAlgo::INTRINSIC};

// unary math with an algorithm config: Sin, Cos, Atan, Erf (and Erfc without one)
#define PIPEV_UNMODELLED_UNARY_CFG(NAME, CFG, DEF)                                              \
    template <class T, bool isReuseSource = false, const CFG& config = DEF>                     \
    void NAME(const LocalTensor<T>&, const LocalTensor<T>&, uint32_t, PIPEV_LOC) {              \
        pipev::detail::unmodelled(#NAME, loc);                                                  \
    }                                                                                           \
    template <class T, bool isReuseSource = false, const CFG& config = DEF>                     \
    void NAME(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<uint8_t>&,        \
              uint32_t, PIPEV_LOC) {                                                            \
        pipev::detail::unmodelled(#NAME, loc);                                                  \
    }
PIPEV_UNMODELLED_UNARY_CFG(Sin, SinConfig, kDefaultSinConfig)
PIPEV_UNMODELLED_UNARY_CFG(Cos, CosConfig, kDefaultCosConfig)
PIPEV_UNMODELLED_UNARY_CFG(Atan, AtanConfig, kDefaultAtanConfig)
PIPEV_UNMODELLED_UNARY_CFG(Erf, ErfConfig, kDefaultErfConfig)
#undef PIPEV_UNMODELLED_UNARY_CFG
template <class T, bool isReuseSource = false>
void Erfc(const LocalTensor<T>&, const LocalTensor<T>&, uint32_t, PIPEV_LOC) {
    pipev::detail::unmodelled("Erfc", loc);
}
// Fmod(dst, src0, src1, count), Power(dst, base, exp, count) with a tensor or scalar operand
template <class T, bool isReuseSource = false, const FmodConfig& config = kDefaultFmodConfig>
void Fmod(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, uint32_t,
          PIPEV_LOC) {
    pipev::detail::unmodelled("Fmod", loc);
}
template <class T, bool isReuseSource = false, const PowerConfig& config = kDefaultPowerConfig,
          class A, class B>
void Power(const LocalTensor<T>&, const A&, const B&, uint32_t, PIPEV_LOC) {
    pipev::detail::unmodelled("Power", loc);
}
// the Memory-vector Truncate
template <class T, RoundMode roundMode>
void Truncate(const LocalTensor<T>&, const LocalTensor<T>&, uint32_t, PIPEV_LOC) {
    pipev::detail::unmodelled("Truncate", loc);
}
// the config form of Div (its intrinsic form is modelled: bindings.h; Sqrt's config form:
// memory_on_reg.h)
template <class T, const DivConfig& config>
void Div(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, uint32_t,
         PIPEV_LOC) {
    pipev::detail::unmodelled("Div with a DivConfig", loc);
}
}  // namespace AscendC
#endif
