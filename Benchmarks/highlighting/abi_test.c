#include <tree_sitter/api.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  void *h = dlopen(argv[1], RTLD_LAZY | RTLD_LOCAL);
  if (!h) { printf("dlopen failed: %s\n", dlerror()); return 2; }
  const TSLanguage *(*fn)(void) = (const TSLanguage *(*)(void))dlsym(h, argv[2]);
  if (!fn) { printf("no symbol %s\n", argv[2]); return 2; }
  const TSLanguage *lang = fn();
  TSParser *p = ts_parser_new();
  printf("%s: language ABI %u, lib max %d -> set_language %s\n", argv[2], ts_language_version(lang), TREE_SITTER_LANGUAGE_VERSION, ts_parser_set_language(p, lang) ? "OK" : "REJECTED");
  return 0;
}
