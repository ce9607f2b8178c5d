#ifndef TESSERA_IMAGES_H
#define TESSERA_IMAGES_H

#include <stddef.h>
#include <stdint.h>

/// Tessera's calls into libvips, none of them variadic (Swift cannot call libvips' own), with
/// libvips' types kept out of sight: an image is an opaque pointer. Every function that can fail
/// returns NULL or a non-zero code and leaves its reason for `tessera_images_error`.

/// Starts libvips once per process: no operation cache (each build processes an image once, and
/// the cache would only hold memory), one thread per operation (Tessera runs one image per core),
/// and loaders libvips marks as untrusted refused. 0 when it could start. From then on, exit waits
/// until no thread is in a function of this header, which refuses calls made after (vips.c says why).
int tessera_images_start(void);

/// libvips' version, "8.14.1".
const char *tessera_images_version(void);

/// The path of the libvips file the dynamic loader found ("/usr/lib/x86_64-linux-gnu/libvips.so.42"),
/// loading it first; NULL when it cannot be loaded.
const char *tessera_images_library(void);

/// The calling thread's last error, taken (the next call starts afresh); "" when there is none.
/// The caller frees it with `tessera_images_free`.
char *tessera_images_error(void);

/// What a file's header says, read without decoding its pixels.
typedef struct {
    /// The loader libvips picked by the bytes: "jpegload_buffer", "pngload_buffer", ...
    char loader[48];
    /// Pixel size as stored, and as shown (EXIF orientation 5–8 swaps the sides).
    int width, height, orientation;
    int bands, has_alpha, pages;
} tessera_image_header;

/// Reads the header of an image in memory. 0 on success.
int tessera_images_header(const void *bytes, size_t length, tessera_image_header *header);

/// The image in memory made `width` × `height` (shown orientation: EXIF orientation applied),
/// in sRGB, without metadata. With `crop_width` > 0 the scaled image is then cropped to
/// `crop_width` × `crop_height` from (`left`, `top`). Loading fails on truncated or corrupt data.
/// NULL on failure. `tessera_images_release` lets go of the result.
void *tessera_images_scaled(const void *bytes, size_t length, int width, int height,
                            int left, int top, int crop_width, int crop_height);

/// The image in memory decoded whole, strictly (a truncated or corrupt file fails, which
/// `tessera_images_scaled` lets through with a warning), then made `width` × `height` as
/// shown: the check of a new file, on a small version of it. `shrink`: a JPEG decoded at 1/2,
/// 1/4 or 1/8 of its size (2, 4, 8; 1 for any other format). In memory; NULL on failure.
void *tessera_images_checked(const void *bytes, size_t length, int shrink, int width, int height);

/// `image` made `width` × `height`, for smaller sizes from one decoded image.
void *tessera_images_rescaled(void *image, int width, int height);

/// Renders `image` into memory, so that several sizes made from it decode it once.
void *tessera_images_materialized(void *image);

/// Encodes `image`. `format`: 0 JPEG, 1 PNG, 2 WebP, 3 AVIF; 4 WebP always by libvips' own saver,
/// which 2 (libwebp called directly where it can take the image, for memory) must equal: for the
/// differential test. `quality` 1–100; `effort` for WebP (0–6) and AVIF (0–9). The bytes are the
/// caller's, freed with `tessera_images_free`. 0 on success; -1 on failure, or once the process
/// is exiting (see `tessera_images_start`).
int tessera_images_encode(void *image, int format, int quality, int effort, void **bytes, size_t *length);

/// The image's pixels as 8-bit sRGB(A) rows, `bands` per pixel; freed with `tessera_images_free`.
unsigned char *tessera_images_pixels(void *image, int *width, int *height, int *bands);

/// Lets go of an image.
void tessera_images_release(void *image);

/// Frees memory libvips handed out.
void tessera_images_free(void *pointer);

/// Lets go of what libvips keeps for the calling thread (its buffers), and when `trim` is not 0
/// gives the memory the image freed back to the system: call when a thread is done with an
/// image, or a long-lived process's threads each keep theirs.
void tessera_images_thread_done(int trim);

#endif
