#ifndef TESSERA_MARKDOWN_EXTENSIONS_H
#define TESSERA_MARKDOWN_EXTENSIONS_H

#include <stdbool.h>

/// Registers libcmark-gfm's core extensions (table, strikethrough, autolink, tagfilter,
/// tasklist) and makes them safe to use from several threads at once. Call before any parse
/// that attaches one; calling it again, from any thread, does nothing.
///
/// Why: the inline parser stops at the bytes of one table of special characters that every
/// parser of the process shares. libcmark-gfm adds the attached extensions' characters (`~`,
/// `:`, `w`) to it when inline parsing starts and takes them out when it ends, so a parse that
/// ends on one thread takes them from under another that is still parsing, which then misses
/// struck text and links (GitHub's cmark-gfm pull request 176, unmerged). Here the library's
/// per-parse adding and taking out does nothing: `~` and `:` are added once, for good, and `w`
/// (which stops the parser at every `w` of the text, for `www.` autolinks) only around the
/// inline parsing of a text that needs it, see below.
void tessera_markdown_extensions_setup(void);

/// Call around `cmark_parser_finish` (where libcmark-gfm parses inlines). `www` says the text
/// has a `www.` GitHub's autolinker can link: `w` is in the table from before its inlines are
/// parsed until the last such parse under way ends. Other texts parse alongside, with or
/// without `w`: for them it makes no difference.
void tessera_markdown_inlines_begin(bool www);
void tessera_markdown_inlines_end(bool www);

#endif
