#!/usr/bin/env python3
"""Long-lived Pygments worker. JSON-lines protocol on stdin/stdout.
Request:  {"blocks":[{"lang":"swift","code":"..."}], "tokens": bool}
Response: {"results":[{"html":"...","tokens":[["Keyword","func"],...], "lexer":"swift"}]}
"""
import sys, json
from pygments import lex
from pygments.lexers import get_lexer_by_name
from pygments.formatters import HtmlFormatter
from pygments.util import ClassNotFound
from pygments.token import Text

fmt = HtmlFormatter(nowrap=True)
_lexers = {}
def lexer_for(name):
    lx = _lexers.get(name)
    if lx is None:
        try:
            lx = get_lexer_by_name(name, stripnl=False, ensurenl=True)
        except ClassNotFound:
            lx = get_lexer_by_name("text")
        _lexers[name] = lx
    return lx

def main():
    out = sys.stdout
    for line in sys.stdin:
        req = json.loads(line)
        want_tokens = req.get("tokens", False)
        res = []
        for b in req["blocks"]:
            lx = lexer_for(b["lang"])
            toks = list(lx.get_tokens(b["code"]))
            html = _format(toks)
            r = {"html": html, "lexer": lx.aliases[0] if lx.aliases else lx.name}
            if want_tokens:
                r["tokens"] = [[str(t)[6:] or "Token", v] for t, v in toks]
            res.append(r)
        out.write(json.dumps({"results": res}) + "\n")
        out.flush()

import io
def _format(toks):
    buf = io.StringIO()
    fmt.format(iter(toks), buf)
    return buf.getvalue()

if __name__ == "__main__":
    main()
