// adv_api/math/erf.h: the advanced math API header path; pipev's APIs are all in kernel_operator.h.
#include "../../kernel_operator.h"
