import subprocess, re, json, sys
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound
# target -> candidate names (tried in order; first that works is reported)
T = [("Swift",["swift"]),("Objective-C",["objective-c","objc"]),("Kotlin",["kotlin"]),("Java",["java"]),
("TypeScript",["typescript","ts"]),("JavaScript",["javascript","js"]),("JSX",["jsx","react"]),("TSX",["tsx"]),
("Python",["python","py"]),("Go",["go","golang"]),("Rust",["rust","rs"]),("C",["c"]),("C++",["cpp","c++"]),
("C#",["csharp","c#","cs","c_sharp"]),("Ruby",["ruby","rb"]),("PHP",["php"]),("shell",["bash","sh"]),
("console session",["console","shell-session","sh-session","shellsession"]),("PowerShell",["powershell","ps1","pwsh"]),
("SQL",["sql"]),("YAML",["yaml","yml"]),("JSON",["json"]),("TOML",["toml"]),("XML",["xml"]),("HTML",["html"]),
("CSS",["css"]),("SCSS",["scss"]),("Markdown",["markdown","md"]),("Mustache/Handlebars",["handlebars","mustache","hbs"]),
("Dockerfile",["dockerfile","docker"]),("Makefile",["makefile","make"]),("diff",["diff","patch"]),("GraphQL",["graphql"]),
("Dart",["dart"]),("Lua",["lua"]),("Haskell",["haskell","hs"]),("Elixir",["elixir","ex"]),("Scala",["scala"]),("R",["r","splus","s"]),
("Zig",["zig"]),("HCL",["hcl","terraform","tf"]),("protobuf",["protobuf","proto"])]
ALIASES = ["sh","zsh","js","ts","yml","objc","kt"]
# chroma: parse --list (names + aliases, case-insensitive as chroma's lexers.Get is)
chroma = set()
for line in open("chroma_list.txt"):
    if line.startswith("styles:"): break
    if line.startswith("  ") and not line.startswith("    "): chroma.add(line.strip().lower())
    m = re.match(r"\s+aliases: (.*)", line)
    if m: chroma.update(a.lower() for a in m.group(1).split())
def pyg(n):
    try: get_lexer_by_name(n); return True
    except ClassNotFound: return False
def hl(n):
    r = subprocess.run(["highlight","-S",n,"-O","html","-f"], input="x\n", capture_output=True, text=True)
    return r.returncode == 0 and "Unknown source code type" not in r.stderr
tsl = set(open("tsl_langs.txt").read().split())
tsl_alias = {"ts":"typescript","js":"javascript","sh":"bash","py":"python","rs":"rust","objc":"objc","c#":"c_sharp","csharp":"c_sharp","yml":"yaml","makefile":"make","golang":"go","cs":"c_sharp","md":"markdown"}
def tsl_ok(n): return n in tsl
wheels = {}
for line in open("/work/.library/env/packages/pypi.tsv"):
    f = line.split("\t")
    if f[0].startswith("tree-sitter-"): wheels[f[0][len("tree-sitter-"):]] = f[1]
def wheel(n):
    m = {"objective-c":"objc","c++":"cpp","csharp":"c-sharp","c#":"c-sharp","c_sharp":"c-sharp","makefile":"make","handlebars":"handlebars","shell-session":None,"console":None,"bash":"bash","protobuf":"proto"}
    k = m.get(n, n)
    return k is not None and k in wheels
engines = {"pygments":pyg,"chroma":lambda n: n.lower() in chroma,"highlight":hl,"tsl":tsl_ok,"ts-wheels":wheel}
res = {}
for tgt, cands in T:
    row = {}
    for e, f in engines.items():
        hit = next((c for c in cands if f(c)), None)
        row[e] = hit
    res[tgt] = row
al = {e: {a: bool(f(a)) for a in ALIASES} for e, f in engines.items() if e in ("pygments","chroma","highlight")}
json.dump({"coverage":res,"aliases":al}, open("coverage.json","w"), indent=1)
print("| Language | Pygments 2.21 | Chroma 0.10 | highlight 3.41 | tree-sitter-languages 1.10.2 | per-language tree-sitter wheels (PyPI list) |")
print("|---|---|---|---|---|---|")
for tgt, row in res.items():
    print("| "+tgt+" | "+" | ".join(("yes (`%s`)"%row[e]) if row[e] else "**no**" for e in engines)+" |")
print()
for e, d in al.items(): print(e, " ".join(f"{a}={'y' if v else 'N'}" for a, v in d.items()))
for e in engines: print(e, sum(1 for r in res.values() if r[e]), "/", len(res))
