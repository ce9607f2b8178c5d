// C-level tree-sitter bench: parse + highlights query captures per block.
#include <tree_sitter/api.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
const TSLanguage *tree_sitter_swift(void);
static char *slurp(const char *p, size_t *n) { FILE *f = fopen(p, "rb"); fseek(f, 0, SEEK_END); *n = ftell(f); rewind(f); char *b = malloc(*n + 1); fread(b, 1, *n, f); b[*n] = 0; fclose(f); return b; }
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static int cmp(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return x < y ? -1 : x > y; }
int main(int argc, char **argv) {
  const char *which = argv[1]; const char *code_path = argv[2]; const char *q_path = argv[3]; int N = atoi(argv[4]);
  const TSLanguage *lang;
  if (!strcmp(which, "swift")) lang = tree_sitter_swift();
  else { void *h = dlopen(argv[5], RTLD_LAZY); lang = ((const TSLanguage *(*)(void))dlsym(h, "tree_sitter_typescript"))(); }
  size_t cn, qn; char *code = slurp(code_path, &cn); char *qs = slurp(q_path, &qn);
  uint32_t eo; TSQueryError et; TSQuery *q = ts_query_new(lang, qs, qn, &eo, &et);
  if (!q) { printf("query error %d at %u\n", et, eo); return 1; }
  TSParser *p = ts_parser_new(); ts_parser_set_language(p, lang);
  TSQueryCursor *qc = ts_query_cursor_new();
  double *tp = malloc(N * sizeof(double)), *tt = malloc(N * sizeof(double)); long caps = 0;
  double t0 = now();
  for (int i = 0; i < N; i++) {
    double a = now();
    TSTree *t = ts_parser_parse_string(p, NULL, code, cn);
    double b = now();
    ts_query_cursor_exec(qc, q, ts_tree_root_node(t));
    TSQueryMatch m; uint32_t ci; caps = 0;
    while (ts_query_cursor_next_capture(qc, &m, &ci)) caps++;
    double c = now();
    ts_tree_delete(t); tp[i] = b - a; tt[i] = c - a;
  }
  double total = now() - t0;
  qsort(tp, N, sizeof(double), cmp); qsort(tt, N, sizeof(double), cmp);
  printf("C tree-sitter %s: ABI %u, parse median %.3f ms, parse+captures median %.3f ms (n=%d, %ld captures/block); %d blocks total %.2f s\n",
         which, ts_language_abi_version(lang), tp[N/2]*1e3, tt[N/2]*1e3, N, caps, N, total);
  return 0;
}
