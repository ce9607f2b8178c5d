#include "allocation.h"

#include <stdlib.h>  // defines __GLIBC__ on glibc

#if defined(__GLIBC__)
#include <malloc.h>
#include <unistd.h>
#endif

#if defined(__GLIBC__)
#include <pthread.h>

static const int top_pad = 64 << 20, trim_threshold = 256 << 20;
static pthread_mutex_t images_lock = PTHREAD_MUTEX_INITIALIZER;
static int tuned = 0, images_in_progress = 0;
#endif

void tessera_tune_allocator(void) {
#if defined(__GLIBC__)
    tuned = 1;
    mallopt(M_TOP_PAD, top_pad);
    mallopt(M_TRIM_THRESHOLD, trim_threshold);
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
    // Two heaps per core, not glibc's eight: the threads that make images (Tessera's and
    // libvips' own) would each get a heap of their own, and what one frees cannot serve another
    // (204 photos took 441 MiB with glibc's count). One heap per core was too few: the renderers,
    // the writer and the build's own thread then queued for the heaps' locks, and 10,000 feed
    // pages spent a sixth of their CPU time in futex calls (2 cores: 9.4-14.4 s against
    // 7.5-10.5 s with four heaps; 30 photos peaked at 136-142 MiB with four, 138-141 with two).
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    mallopt(M_ARENA_MAX, (int)(cores < 2 ? 4 : 2 * cores));
#endif
}

void tessera_allocator_images(int starting) {
#if defined(__GLIBC__)
    pthread_mutex_lock(&images_lock);
    int was = images_in_progress;
    images_in_progress += starting ? 1 : -1;
    // Only a tuned process changes modes, and only when the first image starts or the last ends.
    if (tuned && (was == 0) != (images_in_progress == 0)) {
        int tight = images_in_progress > 0;
        mallopt(M_TOP_PAD, tight ? 0 : top_pad);
        mallopt(M_TRIM_THRESHOLD, tight ? 4 << 20 : trim_threshold);
    }
    pthread_mutex_unlock(&images_lock);
#else
    (void)starting;
#endif
}

int tessera_return_free_memory(unsigned long at_least) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    // The heaps keep what is freed (a top pad of 64 MiB, trimmed only past 256 MiB): fast while
    // a build allocates, but what a finished step freed then stays in the process's memory.
    // malloc_trim gives back every whole free page, in every heap, not only at the top.
    struct mallinfo2 info = mallinfo2();
    if (info.fordblks < at_least) return 0;
    return malloc_trim(0);
#else
    (void)at_least;
    return 0;
#endif
}

unsigned long tessera_heap_bytes_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 info = mallinfo2();
    return (unsigned long)(info.uordblks + info.hblkhd);
#else
    return 0;
#endif
}

unsigned long tessera_heap_block_size(const void *block) {
#if defined(__GLIBC__)
    return (unsigned long)malloc_usable_size((void *)block);
#else
    (void)block;
    return 0;
#endif
}
