#include "allocation.h"

#include <stdlib.h>  // defines __GLIBC__ on glibc

#if defined(__GLIBC__)
#include <malloc.h>
#include <unistd.h>
#endif

void tessera_tune_allocator(void) {
#if defined(__GLIBC__)
    mallopt(M_TOP_PAD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
    // One heap per core, not glibc's eight: the threads that make images (Tessera's and
    // libvips' own) would each get a heap of their own, and what one frees cannot serve another
    // (204 photos took 441 MiB with glibc's count; 40 of them 331 MiB, and 171 MiB with one heap).
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    mallopt(M_ARENA_MAX, (int)(cores < 2 ? 2 : cores));
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
