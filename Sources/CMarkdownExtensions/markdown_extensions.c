#define _GNU_SOURCE
#include "markdown_extensions.h"

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

typedef void (*manage_function)(cmark_parser *parser, int add);

// libcmark-gfm's own function of this name adds (`add` 1) or takes out (0) the special
// characters of the parser's extensions in the shared table; the library calls it through its
// procedure linkage table at the start and end of every inline parse, so the executable's
// definition, this one, is what it calls. It does nothing: the table is managed below. (Linked
// statically with libcmark-gfm.a, the two definitions would clash at link time, not fail
// silently; Tessera's thread test checks the behaviour.)
void cmark_manage_extensions_special_characters(cmark_parser *parser, int add) {
    (void)parser;
    (void)add;
}

/// The library's own function.
static manage_function library;
/// A parser whose one extension has `w` as its only special character: the library's function
/// on it adds or takes out `w` alone.
static cmark_parser *www_parser;
/// How many parses that need `w` are under way; `w` is in the table while there is one. The
/// table's other readers, parses of texts without a linkable `www.`, read its `w` entry without
/// this lock: set or not, stale or fresh, it changes nothing in their output (it only splits their
/// text at more places), so they never wait.
static pthread_mutex_t www_lock = PTHREAD_MUTEX_INITIALIZER;
static int www_parses;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static cmark_node *match_nothing(cmark_syntax_extension *extension, cmark_parser *parser, cmark_node *parent,
                                 unsigned char character, cmark_inline_parser *inline_parser) {
    (void)extension; (void)parser; (void)parent; (void)character; (void)inline_parser;
    return NULL;
}

static void setup(void) {
    // Not thread-safe in the library itself: it fills a global list.
    cmark_gfm_core_extensions_ensure_registered();
    library = (manage_function)dlsym(RTLD_NEXT, "cmark_manage_extensions_special_characters");
    if (!library) abort();
    cmark_parser *parser = cmark_parser_new(CMARK_OPT_DEFAULT);
    if (!parser) abort();
    static const char *const names[] = {"table", "strikethrough", "autolink", "tasklist"};
    for (size_t index = 0; index < sizeof(names) / sizeof(names[0]); index++) {
        cmark_syntax_extension *extension = cmark_find_syntax_extension(names[index]);
        if (!extension) abort();
        cmark_parser_attach_syntax_extension(parser, extension);
    }
    // `~` (marked as emphasis, as strikethrough marks it), `:` and `w`, for good.
    library(parser, 1);
    cmark_parser_free(parser);
    cmark_syntax_extension *www = cmark_syntax_extension_new("tessera-www");
    cmark_syntax_extension_set_match_inline_func(www, match_nothing);
    cmark_syntax_extension_set_special_inline_chars(www, cmark_llist_append(cmark_get_default_mem_allocator(), NULL, (void *)(uintptr_t)'w'));
    www_parser = cmark_parser_new(CMARK_OPT_DEFAULT);
    if (!www_parser) abort();
    cmark_parser_attach_syntax_extension(www_parser, www);
    // `w` out again until a text needs it.
    library(www_parser, 0);
}

void tessera_markdown_extensions_setup(void) {
    pthread_once(&once, setup);
}

void tessera_markdown_inlines_begin(bool www) {
    if (!www) return;
    pthread_mutex_lock(&www_lock);
    if (www_parses++ == 0) library(www_parser, 1);
    pthread_mutex_unlock(&www_lock);
}

void tessera_markdown_inlines_end(bool www) {
    if (!www) return;
    pthread_mutex_lock(&www_lock);
    if (--www_parses == 0) library(www_parser, 0);
    pthread_mutex_unlock(&www_lock);
}
