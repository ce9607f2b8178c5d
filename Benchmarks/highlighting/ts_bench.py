import time, statistics, html, json
import tree_sitter as ts, tree_sitter_swift as tsw, tree_sitter_typescript as tty
from importlib.resources import files
def load(mod, langfn, qfiles):
    lang = ts.Language(langfn())
    src = "\n".join(files(mod.__name__).joinpath("queries", q).read_text() for q in qfiles)
    return lang, ts.Query(lang, src)
# typescript highlights.scm only has TS additions; without tree-sitter-javascript's queries JS-level tokens are missing
LANGS = {"swift": (tsw, tsw.language, ["highlights.scm"], "samples/sample.swift"),
         "ts": (tty, tty.language_typescript, ["highlights.scm"], "samples/sample.ts")}
def render(code_b, tree, query):
    caps = ts.QueryCursor(query).captures(tree.root_node)
    spans = []
    for name, nodes in caps.items():
        for n in nodes: spans.append((n.start_byte, -n.end_byte, name))
    spans.sort()
    out, pos, toks = [], 0, []
    for s, e, name in spans:
        e = -e
        if s < pos: continue  # first (outermost/earliest) capture wins
        if s > pos: out.append(html.escape(code_b[pos:s].decode())); toks.append(("", code_b[pos:s].decode()))
        txt = code_b[s:e].decode()
        out.append(f'<span class="ts-{name.replace(".", "-")}">{html.escape(txt)}</span>'); toks.append((name, txt)); pos = e
    out.append(html.escape(code_b[pos:].decode()))
    return "".join(out), toks
for key, (mod, fn, qf, path) in LANGS.items():
    lang, q = load(mod, fn, qf)
    parser = ts.Parser(lang)
    code = open(path).read().encode()
    tp, th = [], []
    for i in range(300):
        c = f"// {i}\n".encode() + code
        a = time.perf_counter(); tree = parser.parse(c); b = time.perf_counter(); h, toks = render(c, tree, q); d = time.perf_counter()
        tp.append(b - a); th.append(d - b)
    print(f"py-tree-sitter {key}: parse {statistics.median(tp)*1000:.3f} ms, query+render {statistics.median(th)*1000:.3f} ms, total {statistics.median([x+y for x,y in zip(tp,th)])*1000:.3f} ms (n=300), {len(toks)} runs, errors={tree.root_node.has_error}")
    open(f"ts_{key}.html", "w").write(h)
