// tiling/template_argument.h: the path some kernels include the template-argument macros by.
#include "../ascendc/host_api/tiling/template_argument.h"
