#ifndef TESSERA_MARKDOWN_EXTENSIONS_H
#define TESSERA_MARKDOWN_EXTENSIONS_H

/// Registers libcmark-gfm's core extensions (table, strikethrough, autolink, tagfilter,
/// tasklist) and makes them safe to use from several threads at once. Call before any parse
/// that attaches one; calling it again, from any thread, does nothing.
///
/// Why: the inline parser stops at the bytes of one table of special characters that every
/// parser of the process shares. libcmark-gfm adds the attached extensions' characters (`~`,
/// `:`, `w`) to it when inline parsing starts and takes them out when it ends, so a parse that
/// ends on one thread takes them from under another that is still parsing, which then misses
/// struck text and links (GitHub's cmark-gfm pull request 176, unmerged). Here they are added
/// once, for good, and the library's per-parse adding and taking out does nothing.
void tessera_markdown_extensions_setup(void);

#endif
