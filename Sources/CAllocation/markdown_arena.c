#include "allocation.h"

#include <cmark-gfm.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// Every allocation is preceded by a 16-byte header holding its size, and rounded up to 16
// bytes, so every block is aligned as malloc's are.
enum { HEADER = 16, ALIGN = 16 };
// The block kept across texts: enough for a long article's tree and HTML.
static const size_t KEPT_CAPACITY = 256 * 1024;

typedef struct Chunk {
    struct Chunk *previous;
    size_t capacity;
    size_t used;
    size_t unused;  // keeps `data` 16-byte aligned (the header is 32 bytes)
    unsigned char data[];
} Chunk;

typedef struct Arena {
    Chunk *current;
    // The latest allocation, which `realloc` can grow in place (cmark's buffers grow by
    // doubling while nothing else is allocated, the HTML output above all).
    unsigned char *last;
} Arena;

// What the chunks of every thread's arena add up to, for tests that weigh the heap: each thread
// keeps its first chunk for good, so the heap grows when a new thread first renders Markdown.
static _Atomic size_t all_capacity;

static pthread_key_t arena_key;
static pthread_once_t arena_once = PTHREAD_ONCE_INIT;
static _Thread_local Arena *thread_arena;

static void free_chunks(Chunk *chunk) {
    while (chunk) {
        Chunk *previous = chunk->previous;
        atomic_fetch_sub_explicit(&all_capacity, chunk->capacity, memory_order_relaxed);
        free(chunk);
        chunk = previous;
    }
}

// A thread's arena goes with the thread.
static void destroy_arena(void *value) {
    Arena *arena = value;
    free_chunks(arena->current);
    free(arena);
}

static void make_key(void) {
    if (pthread_key_create(&arena_key, destroy_arena) != 0) abort();
}

static Arena *arena(void) {
    if (thread_arena) return thread_arena;
    pthread_once(&arena_once, make_key);
    Arena *fresh = calloc(1, sizeof(Arena));
    if (!fresh) abort();
    if (pthread_setspecific(arena_key, fresh) != 0) abort();
    thread_arena = fresh;
    return fresh;
}

static size_t rounded(size_t size) {
    if (size > SIZE_MAX - 2 * ALIGN - HEADER - sizeof(Chunk)) abort();
    return (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
}

static void *allocate(size_t size) {
    Arena *a = arena();
    size_t need = HEADER + rounded(size);
    Chunk *chunk = a->current;
    if (!chunk || chunk->capacity - chunk->used < need) {
        size_t capacity = chunk && chunk->capacity < SIZE_MAX / 4 ? chunk->capacity * 2 : KEPT_CAPACITY;
        if (capacity < need) capacity = need;
        Chunk *fresh = malloc(sizeof(Chunk) + capacity);
        // cmark aborts when an allocator returns NULL; so does this one, with the same effect.
        if (!fresh) abort();
        atomic_fetch_add_explicit(&all_capacity, capacity, memory_order_relaxed);
        fresh->previous = chunk;
        fresh->capacity = capacity;
        fresh->used = 0;
        a->current = chunk = fresh;
    }
    unsigned char *block = chunk->data + chunk->used;
    chunk->used += need;
    *(size_t *)block = size;
    a->last = block + HEADER;
    return a->last;
}

static void *arena_calloc(size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size) abort();
    void *block = allocate(count * size);
    memset(block, 0, count * size);
    return block;
}

static void *arena_realloc(void *pointer, size_t size) {
    if (!pointer) return allocate(size);
    size_t *header = (size_t *)((unsigned char *)pointer - HEADER);
    size_t old = *header;
    if (size <= old) return pointer;
    Arena *a = arena();
    if (pointer == a->last) {
        Chunk *chunk = a->current;
        size_t extra = rounded(size) - rounded(old);
        if (chunk->capacity - chunk->used >= extra) {
            chunk->used += extra;
            *header = size;
            return pointer;
        }
    }
    void *moved = allocate(size);
    memcpy(moved, pointer, old);
    return moved;
}

static void arena_free(void *pointer) {
    (void)pointer;
}

static cmark_mem allocator = {arena_calloc, arena_realloc, arena_free};

void *tessera_markdown_allocator(void) {
    return &allocator;
}

void tessera_markdown_arena_reset(void) {
    Arena *a = arena();
    Chunk *chunk = a->current;
    // Keep the oldest block when it is the modest first one; a huge text's blocks all go.
    while (chunk && chunk->previous) {
        Chunk *previous = chunk->previous;
        atomic_fetch_sub_explicit(&all_capacity, chunk->capacity, memory_order_relaxed);
        free(chunk);
        chunk = previous;
    }
    if (chunk && chunk->capacity > KEPT_CAPACITY) {
        atomic_fetch_sub_explicit(&all_capacity, chunk->capacity, memory_order_relaxed);
        free(chunk);
        chunk = NULL;
    }
    if (chunk) chunk->used = 0;
    a->current = chunk;
    a->last = NULL;
}

unsigned long tessera_markdown_arena_capacity(void) {
    unsigned long total = 0;
    for (Chunk *chunk = arena()->current; chunk; chunk = chunk->previous) total += chunk->capacity;
    return total;
}

unsigned long tessera_markdown_arenas_capacity(void) {
    return atomic_load_explicit(&all_capacity, memory_order_relaxed);
}
