import Foundation

extension PygmentsWorker {
    /// Bumped whenever the script's answers could change: it is part of the cache's key.
    static let scriptVersion = 5

    /// The worker. Lexers are made once per language with `stripnl` and `ensurenl` off, so the
    /// tokens are exactly the code (the script checks it and answers `!` otherwise).
    /// How long a worker kept for later builds waits for one before it ends (`PygmentsDaemon`).
    static let idleSeconds = 600

    /// The worker. Lexers are made once per language with `stripnl` and `ensurenl` off, so the
    /// tokens are exactly the code (the script checks it and answers `!` otherwise). Given a
    /// name, it serves builds one after the other on the abstract Unix socket of that name (only
    /// to its own user) until it has waited `idleSeconds` for one, or Pygments changed on disk.
    static let script = #"""
import sys
def main():
    out = sys.stdout.buffer
    # `-c` puts the working folder first on the path: a `pygments.py` there is not imported.
    if sys.path and sys.path[0] == "":
        del sys.path[0]
    import json, os
    serving = sys.argv[1] if len(sys.argv) > 1 else None
    if serving:
        # Nothing the starting build had open is kept open by a process that outlives it.
        os.closerange(3, 65536)
    try:
        import fnmatch, pygments
        from pygments.lexers import find_lexer_class
        from pygments.lexers._mapping import LEXERS
        from pygments.token import STANDARD_TYPES
    except Exception as error:
        if not serving:
            out.write(("!" + "Python %s cannot import Pygments (%s)" % (sys.version.split()[0], error)).replace("\n", " ").encode() + b"\n")
            out.flush()
        return
    def name(ttype):
        text = str(ttype)
        return text[6:] if text.startswith("Token.") else text
    hello = json.dumps({
        "version": pygments.__version__, "file": pygments.__file__, "executable": sys.executable,
        "path": [p for p in sys.path if p],
        "classes": {name(t): c for t, c in STANDARD_TYPES.items()},
        "aliases": sorted({a for _, _, aliases, _, _ in LEXERS.values() for a in aliases}),
    }).encode() + b"\n"
    # Pygments' own lexers only, looked up in its table: a name it lacks would otherwise make it
    # scan every installed package for plugins (a third of a second, each time).
    by_alias = {}
    for key, (_, _, aliases, _, _) in LEXERS.items():
        for alias in aliases:
            by_alias.setdefault(alias, key)
    def lexer_class(language):
        key = by_alias.get(language)
        if key is None:
            for candidate, (_, _, _, patterns, _) in LEXERS.items():
                if any(fnmatch.fnmatch("code." + language, pattern) for pattern in patterns):
                    key = candidate
                    break
        return None if key is None else find_lexer_class(LEXERS[key][1])
    lexers = {}
    def serve(stdin, out):
        # Token types are numbered per build: each build's worker starts its own table.
        names = {}
        out.write(hello)
        out.flush()
        while True:
            line = stdin.readline()
            if not line:
                return
            language, _, size = line.decode().rstrip("\n").partition(" ")
            code = stdin.read(int(size)).decode("utf-8")
            # Types numbered for this block: numbered again by the next if it is not answered.
            fresh = []
            try:
                lexer = lexers.get(language, False)
                if lexer is False:
                    found = lexer_class(language)
                    lexer = None if found is None else found(stripnl=False, ensurenl=False)
                    lexers[language] = lexer
                if lexer is None:
                    out.write(b"?\n")
                    out.flush()
                    continue
                # The lexer's own tokens (`get_tokens` would first normalize line breaks and a
                # byte-order mark away: the lengths would no longer be the code's).
                parts = []
                append = parts.append
                last = None
                length = 0
                total = 0
                for _, ttype, value in lexer.get_tokens_unprocessed(code):
                    count = len(value)
                    total += count
                    if ttype is last:
                        length += count
                        continue
                    if length:
                        append(f"{names[last]}:{length}")
                    if ttype not in names:
                        names[ttype] = len(names)
                        fresh.append(ttype)
                        append("#" + name(ttype))
                    last = ttype
                    length = count
                if length:
                    append(f"{names[last]}:{length}")
                if total != len(code):
                    raise ValueError("the lexer changed the code")
                out.write(("=" + lexer.name.replace("\t", " ").replace("\n", " ") + "\t" + " ".join(parts) + "\n").encode())
            except Exception as error:
                for ttype in fresh:
                    del names[ttype]
                out.write(("!" + ("%s: %s" % (type(error).__name__, error)).replace("\n", " ")).encode() + b"\n")
            out.flush()
    if not serving:
        serve(sys.stdin.buffer, out)
        return
    import socket, struct
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listener.bind("\0" + serving)
    except OSError:
        return
    listener.listen(8)
    listener.settimeout(\#(idleSeconds))
    def signature():
        try:
            info = os.stat(pygments.__file__)
            return (info.st_ino, info.st_mtime_ns, info.st_size)
        except OSError:
            return None
    started = signature()
    while True:
        try:
            connection, _ = listener.accept()
        except socket.timeout:
            return
        with connection:
            connection.settimeout(None)
            _, uid, _ = struct.unpack("3i", connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
            if uid != os.getuid():
                continue
            if signature() != started:
                return
            try:
                serve(connection.makefile("rb"), connection.makefile("wb"))
            except OSError:
                pass
main()
"""#
}
