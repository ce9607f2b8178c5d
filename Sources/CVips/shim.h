#ifndef TESSERA_CVIPS_SHIM_H
#define TESSERA_CVIPS_SHIM_H
// libvips' C API, and libwebp's encoder (libwebp-dev, which libvips-dev depends on): CImages
// encodes WebP with it directly, without the copy of the whole image libvips' saver makes. Only
// CImages includes them: Swift calls the shim, whose functions are not variadic.
#include <vips/vips.h>
#include <webp/encode.h>
#endif
