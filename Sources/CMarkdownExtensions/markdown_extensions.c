#define _GNU_SOURCE
#include "markdown_extensions.h"

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

typedef void (*manage_function)(cmark_parser *parser, int add);

// libcmark-gfm's own function of this name adds (`add` 1) or takes out (0) the special
// characters of the parser's extensions in the shared table; the library calls it through its
// procedure linkage table at the start and end of every inline parse, so the executable's
// definition, this one, is what it calls. It does nothing: the characters were added for good
// by `setup`. (Linked statically with libcmark-gfm.a, the two definitions would clash at link
// time, not fail silently; the thread test checks the behaviour.)
void cmark_manage_extensions_special_characters(cmark_parser *parser, int add) {
    (void)parser;
    (void)add;
}

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void setup(void) {
    // Not thread-safe in the library itself: it fills a global list.
    cmark_gfm_core_extensions_ensure_registered();
    // The library's own function, for the one time the characters are added.
    manage_function library = (manage_function)dlsym(RTLD_NEXT, "cmark_manage_extensions_special_characters");
    if (!library) abort();
    cmark_parser *parser = cmark_parser_new(CMARK_OPT_DEFAULT);
    if (!parser) abort();
    static const char *const names[] = {"table", "strikethrough", "autolink", "tasklist"};
    for (size_t index = 0; index < sizeof(names) / sizeof(names[0]); index++) {
        cmark_syntax_extension *extension = cmark_find_syntax_extension(names[index]);
        if (!extension) abort();
        cmark_parser_attach_syntax_extension(parser, extension);
    }
    library(parser, 1);
    cmark_parser_free(parser);
}

void tessera_markdown_extensions_setup(void) {
    pthread_once(&once, setup);
}
