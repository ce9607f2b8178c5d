// The one C file that calls libvips (see include/images.h for what each function does).
#ifndef _GNU_SOURCE
#define _GNU_SOURCE  // dladdr
#endif
#include "images.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <pthread.h>
#include <stdlib.h>  // defines __GLIBC__ on glibc
#include <vips/vips.h>
#include <webp/encode.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

/// libvips is loaded when an image is first made, not when the process starts: it links about a
/// hundred libraries (GLib, cairo, X11, curl, GnuTLS, HDF5, ...), whose loading and relocation
/// took 25 ms of every `tessera` command, two thirds of `tessera --version`, on sites without
/// images too. Each function of libvips and GLib below is called through a pointer `dlsym` found,
/// of the type its header declares. (GLib's memory is the C library's own since GLib 2.46:
/// `free` frees it.)
#define TESSERA_LIBVIPS_FUNCTIONS(X) \
    X(vips_init) X(vips_version) X(vips_version_string) X(vips_error) X(vips_error_buffer_copy) \
    X(vips_error_clear) X(vips_cache_set_max) X(vips_concurrency_set) X(vips_block_untrusted_set) \
    X(vips_operation_block_set) X(vips_foreign_find_load_buffer) X(vips_image_new_from_buffer) \
    X(vips_image_get_width) X(vips_image_get_height) X(vips_image_get_orientation) \
    X(vips_image_get_bands) X(vips_image_hasalpha) X(vips_image_get_n_pages) X(vips_thumbnail_buffer) \
    X(vips_extract_area) X(vips_thumbnail_image) X(vips_image_copy_memory) X(vips_array_double_newv) \
    X(vips_flatten) X(vips_area_unref) X(vips_copy) X(vips_image_get_fields) X(vips_image_remove) \
    X(vips_webpsave_buffer) X(vips_image_get_format) X(vips_image_get_interpretation) \
    X(vips_image_write_to_memory) X(vips_format_sizeof_unsafe) X(vips_jpegsave_buffer) \
    X(vips_pngsave_buffer) X(vips_heifsave_buffer) X(vips_colourspace) X(vips_cast_uchar) \
    X(vips_thread_shutdown) X(g_log_set_handler) X(g_object_ref) X(g_object_unref) X(g_strlcpy) \
    X(g_strfreev)

#define TESSERA_DECLARE(name) static __typeof__(name) *tessera_##name;
TESSERA_LIBVIPS_FUNCTIONS(TESSERA_DECLARE)

static pthread_once_t loaded = PTHREAD_ONCE_INIT;
/// 0 once libvips is loaded and every function found; else why not, in `load_error`.
static int load_result = -1;
static char load_error[512];

static void load_once(void) {
    void *library = dlopen("libvips.so.42", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error,
                 "libvips 8 could not be loaded (%s): install it (`apt-get install libvips42`, or `make deps`)", dlerror());
        return;
    }
#define TESSERA_FIND(name) \
    if (!(tessera_##name = (__typeof__(name) *)dlsym(library, #name))) { \
        snprintf(load_error, sizeof load_error, "the libvips that was loaded has no %s: install libvips 8.14 or later", #name); \
        return; \
    }
    TESSERA_LIBVIPS_FUNCTIONS(TESSERA_FIND)
    load_result = 0;
}

static int load(void) {
    pthread_once(&loaded, load_once);
    return load_result;
}

// From here on, each name calls through its pointer.
#undef g_object_ref
#define vips_init (*tessera_vips_init)
#define vips_version (*tessera_vips_version)
#define vips_version_string (*tessera_vips_version_string)
#define vips_error (*tessera_vips_error)
#define vips_error_buffer_copy (*tessera_vips_error_buffer_copy)
#define vips_error_clear (*tessera_vips_error_clear)
#define vips_cache_set_max (*tessera_vips_cache_set_max)
#define vips_concurrency_set (*tessera_vips_concurrency_set)
#define vips_block_untrusted_set (*tessera_vips_block_untrusted_set)
#define vips_operation_block_set (*tessera_vips_operation_block_set)
#define vips_foreign_find_load_buffer (*tessera_vips_foreign_find_load_buffer)
#define vips_image_new_from_buffer (*tessera_vips_image_new_from_buffer)
#define vips_image_get_width (*tessera_vips_image_get_width)
#define vips_image_get_height (*tessera_vips_image_get_height)
#define vips_image_get_orientation (*tessera_vips_image_get_orientation)
#define vips_image_get_bands (*tessera_vips_image_get_bands)
#define vips_image_hasalpha (*tessera_vips_image_hasalpha)
#define vips_image_get_n_pages (*tessera_vips_image_get_n_pages)
#define vips_thumbnail_buffer (*tessera_vips_thumbnail_buffer)
#define vips_extract_area (*tessera_vips_extract_area)
#define vips_thumbnail_image (*tessera_vips_thumbnail_image)
#define vips_image_copy_memory (*tessera_vips_image_copy_memory)
#define vips_array_double_newv (*tessera_vips_array_double_newv)
#define vips_flatten (*tessera_vips_flatten)
#define vips_area_unref (*tessera_vips_area_unref)
#define vips_copy (*tessera_vips_copy)
#define vips_image_get_fields (*tessera_vips_image_get_fields)
#define vips_image_remove (*tessera_vips_image_remove)
#define vips_webpsave_buffer (*tessera_vips_webpsave_buffer)
#define vips_image_get_format (*tessera_vips_image_get_format)
#define vips_image_get_interpretation (*tessera_vips_image_get_interpretation)
#define vips_image_write_to_memory (*tessera_vips_image_write_to_memory)
#define vips_format_sizeof_unsafe (*tessera_vips_format_sizeof_unsafe)
#define vips_jpegsave_buffer (*tessera_vips_jpegsave_buffer)
#define vips_pngsave_buffer (*tessera_vips_pngsave_buffer)
#define vips_heifsave_buffer (*tessera_vips_heifsave_buffer)
#define vips_colourspace (*tessera_vips_colourspace)
#define vips_cast_uchar (*tessera_vips_cast_uchar)
#define vips_thread_shutdown (*tessera_vips_thread_shutdown)
#define g_log_set_handler (*tessera_g_log_set_handler)
#define g_object_ref (*tessera_g_object_ref)
#define g_object_unref (*tessera_g_object_unref)
#define g_strlcpy (*tessera_g_strlcpy)
#define g_strfreev (*tessera_g_strfreev)

static pthread_once_t started = PTHREAD_ONCE_INIT;
static int start_result = -1;

/// libvips' warnings (a JPEG's extraneous bytes) would go to the terminal: Tessera reports what matters itself.
static void ignore(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

static void start_once(void) {
    if (load() != 0) return;
    // VIPS_INIT's check, without its GLib warnings: the library's ABI is the headers'.
    if (vips_version(3) - vips_version(5) != VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE) {
        snprintf(load_error, sizeof load_error, "the libvips that was loaded (%s) is not of the ABI Tessera was built with: install libvips 8.14",
                 vips_version_string());
        return;
    }
    if (vips_init("tessera") != 0) return;
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE, ignore, NULL);
    vips_cache_set_max(0);
    vips_concurrency_set(1);
    vips_block_untrusted_set(TRUE);
    // SVG comes from the site's own files, and makes raster share cards of SVG covers.
    vips_operation_block_set("VipsForeignLoadSvg", FALSE);
    start_result = 0;
}

/// Exit waits for libvips to be left. exit() runs the libraries' destructors while other threads
/// go on, and glibc marks each library it finalised as not initialised. A module libvips' start
/// loads after that (ImageMagick's, which needs libgomp) runs libgomp's constructors a second time,
/// and libgomp aborts (`goacc_register: Assertion '!dispatchers[disp->type]' failed`): a build of
/// a site without images ended while libvips started in the background. An encode still running
/// would use libheif's or libaom's finalised objects the same way. So every entry below that
/// touches libvips counts itself in and out; the handler registered with atexit (those run before
/// the destructors) waits until none is in, and refuses any that comes later.
static pthread_mutex_t use_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t use_left = PTHREAD_COND_INITIALIZER;
static int users, exiting;
static pthread_once_t exit_guarded = PTHREAD_ONCE_INIT;

static int enter(void) {
    pthread_mutex_lock(&use_lock);
    int open = !exiting;
    if (open) users++;
    pthread_mutex_unlock(&use_lock);
    return open;
}

static void leave(int *entered) {
    (void)entered;
    pthread_mutex_lock(&use_lock);
    if (--users == 0) pthread_cond_broadcast(&use_left);
    pthread_mutex_unlock(&use_lock);
}

static void close_at_exit(void) {
    pthread_mutex_lock(&use_lock);
    exiting = 1;
    while (users > 0) pthread_cond_wait(&use_left, &use_lock);
    pthread_mutex_unlock(&use_lock);
}

static void guard_exit(void) { atexit(close_at_exit); }

/// The first line of an entry that uses libvips: returns `refused` once the process exits, else
/// counts the call in until it returns.
#define USES_LIBVIPS(refused) \
    if (!enter()) return refused; \
    __attribute__((cleanup(leave))) int entered = 1; \
    (void)entered

int tessera_images_start(void) {
    pthread_once(&exit_guarded, guard_exit);
    USES_LIBVIPS(-1);
    pthread_once(&started, start_once);
    return start_result;
}

const char *tessera_images_version(void) {
    pthread_once(&exit_guarded, guard_exit);
    USES_LIBVIPS("unavailable");
    return load() == 0 ? vips_version_string() : "unavailable";
}

const char *tessera_images_library(void) {
    // The file the dynamic loader mapped for libvips, as it found it.
    Dl_info info;
    if (load() != 0 || !dladdr((void *)tessera_vips_version_string, &info) || !info.dli_fname) return NULL;
    return info.dli_fname;
}

char *tessera_images_error(void) {
    // Why libvips could not be loaded or started comes first.
    int usable = load() == 0;
    if (load_error[0]) return strdup(load_error);
    char *copy = usable ? vips_error_buffer_copy() : NULL;
    return copy ? copy : strdup("");
}

int tessera_images_header(const void *bytes, size_t length, tessera_image_header *header) {
    memset(header, 0, sizeof *header);
    USES_LIBVIPS(-1);
    // What an earlier image left (a warning logged as an error) is not this one's.
    vips_error_clear();
    const char *loader = vips_foreign_find_load_buffer(bytes, length);
    if (!loader) return -1;
    g_strlcpy(header->loader, loader, sizeof header->loader);
    VipsImage *image = vips_image_new_from_buffer(bytes, length, "", NULL);
    if (!image) return -1;
    header->width = vips_image_get_width(image);
    header->height = vips_image_get_height(image);
    header->orientation = vips_image_get_orientation(image);
    header->bands = vips_image_get_bands(image);
    header->has_alpha = vips_image_hasalpha(image);
    header->pages = vips_image_get_n_pages(image);
    g_object_unref(image);
    return 0;
}

void *tessera_images_scaled(const void *bytes, size_t length, int width, int height,
                            int left, int top, int crop_width, int crop_height) {
    USES_LIBVIPS(NULL);
    VipsImage *scaled = NULL;
    if (vips_thumbnail_buffer((void *)bytes, length, &scaled, width, "height", height,
                              "size", VIPS_SIZE_FORCE, "fail_on", VIPS_FAIL_ON_ERROR, NULL) != 0) return NULL;
    if (crop_width <= 0) return scaled;
    VipsImage *cropped = NULL;
    int failed = vips_extract_area(scaled, &cropped, left, top, crop_width, crop_height, NULL);
    g_object_unref(scaled);
    return failed ? NULL : cropped;
}

void *tessera_images_checked(const void *bytes, size_t length, int shrink, int width, int height) {
    USES_LIBVIPS(NULL);
    VipsImage *loaded = shrink > 1
        ? vips_image_new_from_buffer(bytes, length, "", "shrink", shrink, "fail_on", VIPS_FAIL_ON_TRUNCATED, "access", VIPS_ACCESS_SEQUENTIAL, NULL)
        : vips_image_new_from_buffer(bytes, length, "", "fail_on", VIPS_FAIL_ON_TRUNCATED, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (!loaded) return NULL;
    VipsImage *scaled = NULL;
    int failed = vips_thumbnail_image(loaded, &scaled, width, "height", height, "size", VIPS_SIZE_FORCE, NULL);
    g_object_unref(loaded);
    if (failed) return NULL;
    VipsImage *memory = vips_image_copy_memory(scaled);
    g_object_unref(scaled);
    return memory;
}

void *tessera_images_rescaled(void *image, int width, int height) {
    USES_LIBVIPS(NULL);
    VipsImage *scaled = NULL;
    if (vips_thumbnail_image((VipsImage *)image, &scaled, width, "height", height, "size", VIPS_SIZE_FORCE, NULL) != 0) return NULL;
    return scaled;
}

void *tessera_images_materialized(void *image) {
    USES_LIBVIPS(NULL);
    return vips_image_copy_memory((VipsImage *)image);
}

/// JPEG has no transparency: transparent parts become white.
static VipsImage *opaque(VipsImage *image) {
    if (!vips_image_hasalpha(image)) {
        g_object_ref(image);
        return image;
    }
    VipsArrayDouble *white = vips_array_double_newv(3, 255.0, 255.0, 255.0);
    VipsImage *flat = NULL;
    int failed = vips_flatten(image, &flat, "background", white, NULL);
    vips_area_unref(VIPS_AREA(white));
    return failed ? NULL : flat;
}

/// A copy of `image` without any metadata: EXIF (with its GPS position), XMP, IPTC, ICC profile
/// (the pixels are sRGB already), comments. The savers' own `strip` is not relied on: libvips
/// 8.14's WebP saver writes EXIF despite it.
static VipsImage *stripped(VipsImage *image) {
    VipsImage *copy = NULL;
    if (vips_copy(image, &copy, NULL) != 0) return NULL;
    gchar **fields = vips_image_get_fields(copy);
    for (int i = 0; fields[i]; i++) vips_image_remove(copy, fields[i]);
    g_strfreev(fields);
    return copy;
}

/// WebP through libvips' saver: what `webp` must equal, and what it leaves images it cannot take to.
static int libvips_webp(VipsImage *image, int quality, int effort, void **bytes, size_t *length) {
    return vips_webpsave_buffer(image, bytes, length, "Q", quality, "effort", effort, "strip", TRUE, NULL);
}

/// Whether libwebp can take `image` as it is: 8-bit sRGB with 3 or 4 bands (what Tessera's scaled
/// images are). libvips' saver converts anything else first, so anything else goes to it.
static int webp_takes(VipsImage *image) {
    int bands = vips_image_get_bands(image);
    return vips_image_get_format(image) == VIPS_FORMAT_UCHAR && (bands == 3 || bands == 4)
        && vips_image_get_interpretation(image) == VIPS_INTERPRETATION_sRGB;
}

/// WebP through libwebp itself, with the settings libvips' saver gives it for a lossy image: the
/// default preset at `quality`, `effort` as the method, the alpha plane at full quality. libvips
/// 8.14's saver first renders the whole image into a frame of its own (16.6 MB for a 1920 × 2880
/// photo, beside libwebp's own copy as YUV); here an image in memory is read where it is, and any
/// other is rendered once and let go as soon as libwebp holds it. Only images `webp_takes`. The
/// VP8 and ALPH chunks equal libvips' byte for byte (the test `directWebPIsLibvipsWebP`); the file
/// has no VP8X or EXIF chunk, which Tessera would remove.
static int webp(VipsImage *image, int quality, int effort, void **bytes, size_t *length) {
    int bands = vips_image_get_bands(image);
    WebPConfig config;
    WebPPicture picture;
    if (!WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, (float)quality) || !WebPPictureInit(&picture)) {
        vips_error("tessera", "libwebp does not match the version Tessera was built with");
        return -1;
    }
    config.method = effort;
    config.alpha_quality = 100;
    picture.width = vips_image_get_width(image);
    picture.height = vips_image_get_height(image);
    int in_memory = image->dtype == VIPS_IMAGE_SETBUF || image->dtype == VIPS_IMAGE_SETBUF_FOREIGN;
    size_t size = 0;
    VipsPel *pixels = in_memory ? VIPS_IMAGE_ADDR(image, 0, 0) : vips_image_write_to_memory(image, &size);
    if (!pixels) return -1;
    int stride = (int)VIPS_IMAGE_SIZEOF_LINE(image);
    int imported = bands == 4 ? WebPPictureImportRGBA(&picture, pixels, stride) : WebPPictureImportRGB(&picture, pixels, stride);
    if (!in_memory) free(pixels);
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &writer;
    int encoded = imported && WebPEncode(&config, &picture);
    int failure = picture.error_code;
    WebPPictureFree(&picture);
    if (!encoded) {
        WebPMemoryWriterClear(&writer);
        vips_error("tessera", "libwebp could not encode the image (error %d)", failure);
        return -1;
    }
    // libwebp allocates with malloc, which `tessera_images_free` frees.
    *bytes = writer.mem;
    *length = writer.size;
    return 0;
}

static int save(VipsImage *image, int format, int quality, int effort, void **bytes, size_t *length) {
    switch (format) {
    case 0: {
        VipsImage *flat = opaque(image);
        if (!flat) return -1;
        int result = vips_jpegsave_buffer(flat, bytes, length, "Q", quality, "strip", TRUE, "optimize_coding", TRUE, NULL);
        g_object_unref(flat);
        return result;
    }
    case 1:
        return vips_pngsave_buffer(image, bytes, length, "strip", TRUE, "compression", 6, NULL);
    case 2:
    case 4:
        return libvips_webp(image, quality, effort, bytes, length);
    case 3:
        return vips_heifsave_buffer(image, bytes, length, "Q", quality, "effort", effort, "strip", TRUE,
                                    "compression", VIPS_FOREIGN_HEIF_COMPRESSION_AV1, NULL);
    default:
        vips_error("tessera", "unknown output format %d", format);
        return -1;
    }
}

int tessera_images_encode(void *pointer, int format, int quality, int effort, void **bytes, size_t *length) {
    *bytes = NULL;
    *length = 0;
    USES_LIBVIPS(-1);
    // libwebp writes no metadata: an image it takes needs no stripped copy (a copy would also hide
    // that the image is in memory, and have it rendered again).
    if (format == 2 && webp_takes((VipsImage *)pointer)) return webp((VipsImage *)pointer, quality, effort, bytes, length);
    VipsImage *clean = stripped((VipsImage *)pointer);
    if (!clean) return -1;
    int result = save(clean, format, quality, effort, bytes, length);
    g_object_unref(clean);
    return result;
}

unsigned char *tessera_images_pixels(void *pointer, int *width, int *height, int *bands) {
    USES_LIBVIPS(NULL);
    VipsImage *image = (VipsImage *)pointer, *srgb = NULL, *bytes8 = NULL;
    if (vips_colourspace(image, &srgb, VIPS_INTERPRETATION_sRGB, NULL) != 0) return NULL;
    int failed = vips_cast_uchar(srgb, &bytes8, NULL);
    g_object_unref(srgb);
    if (failed) return NULL;
    size_t size = 0;
    unsigned char *pixels = vips_image_write_to_memory(bytes8, &size);
    *width = vips_image_get_width(bytes8);
    *height = vips_image_get_height(bytes8);
    *bands = vips_image_get_bands(bytes8);
    g_object_unref(bytes8);
    return pixels;
}

void tessera_images_release(void *image) {
    USES_LIBVIPS();
    if (image) g_object_unref((VipsImage *)image);
}

void tessera_images_free(void *pointer) { free(pointer); }

void tessera_images_thread_done(int trim) {
    USES_LIBVIPS();
    if (start_result != 0) return;
    vips_thread_shutdown();
#if defined(__GLIBC__)
    // A large image's buffers (tens of megabytes in the encoders) go back to the system: Tessera
    // keeps its heaps for page rendering (`tessera_tune_allocator`), and each thread that made an
    // image would otherwise keep what it freed.
    if (trim) malloc_trim(0);
#else
    (void)trim;
#endif
}
