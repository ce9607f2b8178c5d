#ifndef TESSERA_ALLOCATION_H
#define TESSERA_ALLOCATION_H

/// A bump allocator for libcmark, one per thread. Parsing and rendering a Markdown text makes
/// thousands of small allocations (a node each, growing buffers); from the arena they cost a
/// pointer bump instead of a trip through malloc's locks, and the whole tree goes at once.
///
/// Use: pass `tessera_markdown_allocator()` (a `cmark_mem *`) to `cmark_parser_new_with_mem`,
/// copy out what is needed (the HTML, URLs), then call `tessera_markdown_arena_reset()` on the
/// same thread. Nothing cmark returned may be used after the reset, and nothing it returned may
/// be given to `free`: freeing through the allocator is a no-op, the reset frees it all.

/// The calling thread's allocator, as a `cmark_mem *`.
void *tessera_markdown_allocator(void);

/// Lets go of everything the calling thread's arena handed out; keeps one modest block for the
/// next text.
void tessera_markdown_arena_reset(void);

/// Bytes the calling thread's arena holds (for tests).
unsigned long tessera_markdown_arena_capacity(void);

/// Bytes the arenas of all threads hold together (for tests).
unsigned long tessera_markdown_arenas_capacity(void);

/// A build allocates hundreds of megabytes in small pieces on every core. glibc's defaults grow
/// and trim each thread's heap a little at a time (an `mprotect` or `brk` and fresh page faults
/// each time) and give large buffers their own `mmap`. This makes heaps grow in steps of 64 MiB
/// of address space (only touched pages count as memory), keeps them, and serves buffers under
/// 4 MiB from the heap, with one heap per core (not glibc's eight). Does nothing where the C
/// library is not glibc. Call once, at start.
void tessera_tune_allocator(void);

/// Heaps that give back what they free while images are made: call with 1 as an image starts
/// and 0 when it is done. Decoding and encoding a photo frees tens of megabytes in buffers of
/// every size, on two threads or more (libvips' and Tessera's), and heaps kept at their largest
/// held about 40 MiB more at the peak of a build of photos (30 photos: 169 against 147 MiB).
/// While any image is in progress, heaps are trimmed above 4 MiB free with no padding; when the
/// last is done, `tessera_tune_allocator`'s settings return. Does nothing unless the process
/// called `tessera_tune_allocator`.
void tessera_allocator_images(int starting);

/// Gives the free pages of every heap back to the system when they add up to `at_least` bytes
/// or more; 1 when some were given back.
int tessera_return_free_memory(unsigned long at_least);

/// Bytes malloc has handed out and not had back, on every thread (glibc's `mallinfo2`: small
/// blocks in use plus mmapped ones); 0 where the C library is not glibc. For tests that check a
/// long session's memory stays flat: unlike the resident size, it does not count what the
/// allocator keeps for reuse.
unsigned long tessera_heap_bytes_in_use(void);

/// How many bytes `block`, which malloc returned, can hold; 0 where the C library is not glibc.
/// For tests that scan memory as a leak checker does.
unsigned long tessera_heap_block_size(const void *block);

#endif
