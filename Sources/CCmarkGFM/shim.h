#ifndef TESSERA_CCMARKGFM_SHIM_H
#define TESSERA_CCMARKGFM_SHIM_H
// GitHub's libcmark-gfm: the CommonMark parser and HTML renderer, the syntax extension API, and
// the core extensions (table, strikethrough, autolink, tagfilter, tasklist).
#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>
#endif
