// adv_api/activation/gelu.h: the advanced API header path; pipev's APIs are all in kernel_operator.h.
#include "../../kernel_operator.h"
