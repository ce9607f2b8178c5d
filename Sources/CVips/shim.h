#ifndef TESSERA_CVIPS_SHIM_H
#define TESSERA_CVIPS_SHIM_H
// libvips' C API. Only CImages includes it: Swift calls the shim, whose functions are not variadic.
#include <vips/vips.h>
#endif
