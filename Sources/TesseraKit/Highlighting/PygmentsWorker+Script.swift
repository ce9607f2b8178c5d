import Foundation

extension PygmentsWorker {
    /// The script's revision and a digest of its text (`6.3f2a…`): part of the cache's key and of
    /// the kept workers' socket names, so a changed script never meets answers or workers of
    /// another, even where the revision was not bumped.
    static let scriptVersion: String = {
        var digest = StableDigest()
        digest.combine(script)
        return "6." + String(digest.value, radix: 16)
    }()

    /// How long a worker kept for later builds waits for one before it ends (`PygmentsDaemon`).
    static let idleSeconds = 600

    /// The worker. A language whose tree-sitter grammar is installed (`GRAMMARS`: Swift,
    /// TypeScript, JavaScript, Python, Go, Rust, C, C++, Java, YAML) is parsed by tree-sitter, its
    /// highlight query's captures written as Pygments' token types (`CAPTURES`): 0.6 of the CPU
    /// time of Pygments' lexers per block here, and closer to the languages' current syntax.
    /// Every other language, and every language when tree-sitter is missing, is lexed by
    /// Pygments. Pygments'
    /// lexers are made once per language with `stripnl` and `ensurenl` off, so the tokens are
    /// exactly the code (the script checks it and answers `!` otherwise). Given a
    /// name, it serves builds one after the other on the abstract Unix socket of that name (only
    /// to its own user) until it has waited `idleSeconds` for one, or Pygments changed on disk.
    static let script = #"""
import re, sys
# tree-sitter, where its grammar for a language is installed: Pygments' lexer (by its class name)
# -> the grammar's package, its language function, and the highlight queries in order (a later
# pattern wins over an earlier one for the same text, as in tree-sitter's own highlighter).
GRAMMARS = {
    "SwiftLexer": ("swift", "language", ["swift/highlights"]),
    "TypeScriptLexer": ("typescript", "language_typescript", ["javascript/highlights", "typescript/highlights"]),
    "TsxLexer": ("typescript", "language_tsx", ["javascript/highlights", "typescript/highlights", "javascript/highlights-jsx"]),
    "JavascriptLexer": ("javascript", "language", ["javascript/highlights", "javascript/highlights-params", "javascript/highlights-jsx"]),
    "JsxLexer": ("javascript", "language", ["javascript/highlights", "javascript/highlights-params", "javascript/highlights-jsx"]),
    "PythonLexer": ("python", "language", ["python/highlights"]),
    "GoLexer": ("go", "language", ["go/highlights"]),
    "RustLexer": ("rust", "language", ["rust/highlights"]),
    "CLexer": ("c", "language", ["c/highlights"]),
    "CppLexer": ("cpp", "language", ["c/highlights", "cpp/highlights"]),
    "JavaLexer": ("java", "language", ["java/highlights"]),
    "YamlLexer": ("yaml", "language", ["yaml/highlights"]),
}
# Captures a grammar writes as another token type than `CAPTURES` says: a YAML key is a
# `property`, which Pygments' YAML lexer (and so every Pygments style) colours as a tag.
LANGUAGE_CAPTURES = {
    "YamlLexer": {"property": "Name.Tag", "punctuation.special": "Punctuation"},
}
# A capture's name (or the nearest name it extends: `keyword.return` is a `keyword`) -> the
# Pygments token type it is written as: the same CSS classes, and the same types in page JSON.
# Names not here (`spell`, `none`) colour nothing.
CAPTURES = {
    "comment": "Comment", "comment.documentation": "Comment.Special",
    "keyword": "Keyword", "keyword.function": "Keyword.Declaration", "keyword.type": "Keyword.Declaration",
    "keyword.modifier": "Keyword.Declaration", "keyword.import": "Keyword.Namespace", "keyword.operator": "Operator.Word",
    "keyword.directive": "Comment.Preproc",
    "string": "Literal.String", "string.escape": "Literal.String.Escape", "escape": "Literal.String.Escape",
    "string.regexp": "Literal.String.Regex", "string.regex": "Literal.String.Regex", "string.special.regex": "Literal.String.Regex",
    "string.special.symbol": "Literal.String.Symbol", "string.special": "Literal.String.Other",
    "character": "Literal.String.Char", "character.special": "Literal.String.Escape",
    "number": "Literal.Number", "number.float": "Literal.Number.Float", "float": "Literal.Number.Float",
    "boolean": "Keyword.Constant", "constant.builtin": "Keyword.Constant", "constant": "Name.Constant", "constant.macro": "Comment.Preproc",
    "function": "Name.Function", "function.builtin": "Name.Builtin", "function.macro": "Name.Function.Magic",
    "function.special": "Comment.Preproc", "constructor": "Name.Class",
    "type": "Name.Class", "type.builtin": "Keyword.Type",
    "variable": "Name", "variable.builtin": "Name.Builtin.Pseudo", "variable.parameter": "Name", "variable.member": "Name",
    "property": "Name", "attribute": "Name.Decorator", "label": "Name.Label", "module": "Name.Namespace", "namespace": "Name.Namespace",
    "tag": "Name.Tag", "tag.attribute": "Name.Attribute",
    "operator": "Operator", "punctuation": "Punctuation", "punctuation.special": "Literal.String.Interpol", "delimiter": "Punctuation",
    "embedded": "Text",
}

# Patterns `(parent (child) @capture)` that a worker answers by reading the parent's children
# itself: tree-sitter compiles such a pattern by analysing every place the child may take in the
# parent's rule, and Swift's `(function_declaration (simple_identifier) @function.method)` is
# 0.1 s of its query's 0.18 s, paid by every worker that colours Swift. The query holds
# `(parent)` in the pattern's place; a child pattern catches the parent's visible direct children
# of the child's type, named, as `Node.children` lists them, so the nodes and the pattern's
# number are the same (a test compares them with the whole query's on generated code).
DIRECT_CHILDREN = {
    "SwiftLexer": {("function_declaration", "simple_identifier")},
}

# The `array` type code of 32-bit unsigned integers (`I` wherever Python runs today).
UINT32 = next(code for code in "IL" if __import__("array").array(code).itemsize == 4)

def grammar_packages(key):
    """The packages the grammar of Pygments' lexer `key` needs: its parser's and its queries'."""
    package, _, queries = GRAMMARS[key]
    return {package} | {query.partition("/")[0] for query in queries}

def installed_version(name, listings):
    """The version of the installed distribution `name` from the `Version:` line of its
    `.dist-info` folder's METADATA, found as `importlib.metadata` finds it (the first entry of
    the path with a folder of that name); None when that is not plain (an `.egg-info` folder,
    two folders in one place, an egg or a zip on the path, a folded line, spaces after the
    version), and then `importlib.metadata` is asked. Importing it and its lookups were 16 ms of
    every worker's start; a test compares the two over every installed package and made-up
    folders. `listings`: each folder's metadata folders by their normalized names, as this
    reads them, for the next name (None for a folder that is not there, False for one that
    cannot be listed)."""
    import os
    def normalized(text):
        return re.sub(r"[-_.]+", "_", text).lower()
    for entry in sys.path:
        folder = entry or "."
        if folder.lower().endswith(".egg"):
            return None
        if folder not in listings:
            try:
                listing = {}
                for child in os.listdir(folder):
                    if child.lower().endswith((".dist-info", ".egg-info")):
                        listing.setdefault(normalized(child.rpartition(".")[0].partition("-")[0]), []).append(child)
                listings[folder] = listing
            except FileNotFoundError:
                listings[folder] = None
            except OSError:
                listings[folder] = False
        listing = listings[folder]
        if listing is None:
            continue
        if listing is False:
            return None
        found = listing.get(normalized(name), [])
        if not found:
            continue
        if len(found) > 1 or not found[0].lower().endswith(".dist-info"):
            return None
        try:
            with open(os.path.join(folder, found[0], "METADATA"), encoding="utf-8") as handle:
                lines = handle.read().split("\n")
        except (OSError, UnicodeError):
            return None
        for index, line in enumerate(lines):
            if not line.strip():
                return None
            if line.startswith("Version:"):
                folded = index + 1 < len(lines) and lines[index + 1][:1] in (" ", "\t")
                # As the email parser reads it: spaces before the value dropped, after it kept.
                version = line[len("Version:"):].lstrip(" \t")
                return None if folded or not version or any(c.isspace() for c in version) else version
        return None
    return None

def distribution_version(name, listings):
    """`importlib.metadata.version(name)`, read without it where `installed_version` can."""
    version = installed_version(name, listings)
    if version is None:
        import importlib.metadata
        version = importlib.metadata.version(name)
    return version

def tree_sitter_versions():
    """tree-sitter's version and each installed grammar's (`tree-sitter 0.25.2`, `swift 0.7.4`):
    part of the engine's identity, so a build cache made with other grammars is not used."""
    try:
        import importlib.util
        import tree_sitter  # noqa: F401 (installed, and it loads)
        listings = {}
        found = ["tree-sitter " + distribution_version("tree-sitter", listings)]
    except Exception:
        return []
    for package in sorted(set().union(*map(grammar_packages, GRAMMARS))):
        try:
            if importlib.util.find_spec("tree_sitter_" + package) is not None:
                found.append(package + " " + distribution_version("tree-sitter-" + package, listings))
        except Exception:
            pass
    return found

def top_level_patterns(source):
    """The byte ranges of a query's patterns: each top-level form (a node, an alternation, a
    string) with the quantifiers and captures after it; comments and strings skipped."""
    found = []
    index, end = 0, len(source)
    def after_string(index):
        index += 1
        while index < end and source[index] != 0x22:
            index += 2 if source[index] == 0x5C else 1
        return index + 1
    def after_comment(index):
        line = source.find(b"\n", index)
        return end if line < 0 else line
    while index < end:
        byte = source[index]
        if byte in b" \t\r\n":
            index += 1
            continue
        if byte == 0x3B:
            index = after_comment(index)
            continue
        start = index
        if byte == 0x22:
            index = after_string(index)
        elif byte in b"([":
            depth = 0
            while index < end:
                byte = source[index]
                if byte == 0x22:
                    index = after_string(index)
                    continue
                if byte == 0x3B:
                    index = after_comment(index)
                    continue
                index += 1
                if byte in b"([":
                    depth += 1
                elif byte in b")]":
                    depth -= 1
                    if depth == 0:
                        break
        else:
            while index < end and source[index] not in b" \t\r\n()[]":
                index += 1
        finish = index
        while True:
            while index < end and source[index] in b" \t\r\n":
                index += 1
            if index < end and source[index] in b"*+?":
                index += 1
                finish = index
            elif index < end and source[index] == 0x40:
                match = re.match(rb"@[A-Za-z_][\w.-]*", source[index:])
                index += len(match.group(0)) if match else 1
                finish = index
            else:
                break
        found.append((start, finish))
        index = finish
    return found

class TreeSitterLexer:
    """One language's tree-sitter parser and highlight query: `captures` gives the token type
    and the nodes of each of the query's captures in the code."""
    def __init__(self, key, name, direct_children=True):
        import importlib, os
        from pygments.token import string_to_tokentype
        from tree_sitter import Language, Parser, Query
        package, function, queries = GRAMMARS[key]
        self.name = name
        language = Language(getattr(importlib.import_module("tree_sitter_" + package), function)())
        text = ""
        for query in queries:
            owner, _, file = query.partition("/")
            folder = os.path.dirname(importlib.import_module("tree_sitter_" + owner).__file__)
            with open(os.path.join(folder, "queries", file + ".scm"), encoding="utf-8") as handle:
                text += handle.read() + "\n"
        self.parser = Parser(language)
        captures = dict(CAPTURES, **LANGUAGE_CAPTURES.get(key, {}))
        def token_type(capture):
            while capture not in captures and "." in capture:
                capture = capture.rpartition(".")[0]
            return string_to_tokentype(captures[capture]) if capture in captures else None
        # `DIRECT_CHILDREN` that this query has: the parent's capture -> (the child's type,
        # (the child's token type, the pattern's number)).
        split = DIRECT_CHILDREN.get(key, set()) if direct_children else set()
        self.children = {}
        # For one node caught by several patterns the last pattern wins. Each capture is renamed
        # with its pattern's number (`@type` in pattern 12 is `@type.-12`, in its predicates too),
        # so every capture knows the pattern that made it. (Compiling a query is slow, 0.18 s for
        # Swift's, so the patterns are found by `top_level_patterns`, not by compiling it twice.)
        source = text.encode()
        numbered = []
        offset = 0
        patterns = top_level_patterns(source)
        for index, (begin, finish) in enumerate(patterns):
            numbered.append(source[offset:begin])
            pattern = source[begin:finish]
            child = re.fullmatch(rb"\(\s*([a-z_]+)\s+\(\s*([a-z_]+)\s*\)\s*@([A-Za-z_][\w.-]*)\s*\)", pattern)
            parent, kind, name = child.group(1, 2, 3) if child else (b"", b"", b"")
            ttype = child and token_type(name.decode())
            if child and ttype is not None and (parent.decode(), kind.decode()) in split:
                capture = "tessera.parent.-%d" % index
                self.children[capture] = (kind.decode(), (ttype, index))
                numbered.append(b"(%s) @%s" % (parent, capture.encode()))
            else:
                numbered.append(re.sub(rb'("(?:[^"\\]|\\.)*")|(;[^\n]*)|@([A-Za-z_][\w.-]*)',
                                       lambda match: match.group(0) if match.group(3) is None else b"@%s.-%d" % (match.group(3), index),
                                       pattern))
            offset = finish
        numbered.append(source[offset:])
        self.query = Query(language, b"".join(numbered).decode())
        if self.query.pattern_count != len(patterns):
            raise ValueError("the query's patterns were not found")
        self.types = {}
        for index in range(self.query.capture_count):
            capture = self.query.capture_name(index)
            if capture in self.children:
                continue
            found, _, pattern = capture.rpartition(".-")
            ttype = token_type(found)
            if ttype is not None:
                self.types[capture] = (ttype, int(pattern))
            else:
                self.query.disable_capture(capture)

    def captures(self, code):
        """The captures of `code`'s nodes: (Pygments token type, the number of its pattern,
        [start, end, start, end, ...] as UTF-8 byte offsets, an `array` of 32-bit integers) for
        each capture name. Tessera makes the runs of them (`TreeSitterRuns`): in Python that was a
        third of the worker's time. (Written as decimal text, the offsets were a quarter of it.)"""
        from array import array
        from itertools import chain
        from operator import attrgetter
        from tree_sitter import QueryCursor
        tree = self.parser.parse(code.encode("utf-8", "surrogatepass"))
        types = self.types
        byte_range = attrgetter("byte_range")
        found = []
        for capture, nodes in QueryCursor(self.query).captures(tree.root_node).items():
            if capture in types:
                found.append(types[capture] + (array(UINT32, chain.from_iterable(map(byte_range, nodes))),))
                continue
            kind, caught = self.children[capture]
            offsets = array(UINT32, chain.from_iterable(
                child.byte_range for node in nodes for child in node.children if child.is_named and child.type == kind))
            if offsets:
                found.append(caught + (offsets,))
        return found

_tree_sitter_failed = set()
def tree_sitter_lexer(key, name, grammars):
    """The tree-sitter lexer for Pygments' lexer `key`, when tree-sitter and its grammar are
    installed and load; else None, and Pygments lexes it (still coloured: a grammar that fails
    to load, which only a damaged install does, costs speed, not colour)."""
    if key not in GRAMMARS or not grammars or key in _tree_sitter_failed:
        return None
    if not grammar_packages(key) <= {line.split()[0] for line in grammars}:
        return None
    try:
        return TreeSitterLexer(key, name)
    except Exception:
        _tree_sitter_failed.add(key)
        return None
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
    grammars = tree_sitter_versions()
    hello = json.dumps({
        "version": pygments.__version__, "file": pygments.__file__, "executable": sys.executable,
        "path": [p for p in sys.path if p],
        "classes": {name(t): c for t, c in STANDARD_TYPES.items()},
        "aliases": sorted({a for _, _, aliases, _, _ in LEXERS.values() for a in aliases}),
        "grammars": grammars,
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
            # `<language> <size>`, and ` +` when more requests follow at once: their answers are
            # written together, when the last is (one write, not one a block).
            language, size, *more = line.decode().split(" ")
            more = more == ["+\n"]
            code = stdin.read(int(size)).decode("utf-8")
            # Types numbered for this block: numbered again by the next if it is not answered.
            fresh = []
            try:
                lexer = lexers.get(language, False)
                if lexer is False:
                    found = lexer_class(language)
                    lexer = None
                    if found is not None:
                        lexer = tree_sitter_lexer(found.__name__, found.name, grammars)
                        if lexer is None:
                            lexer = found(stripnl=False, ensurenl=False)
                    lexers[language] = lexer
                if lexer is None:
                    out.write(b"?\n")
                    if not more:
                        out.flush()
                    continue
                parts = []
                append = parts.append
                if type(lexer) is TreeSitterLexer:
                    # `~<lexer>\t<type>:<pattern>:<count> ...`, a capture's nodes counted, and
                    # after the line break each capture's nodes' byte ranges: `count` pairs of
                    # 32-bit offsets in this machine's byte order.
                    ranges = []
                    for ttype, pattern, offsets in lexer.captures(code):
                        if ttype not in names:
                            names[ttype] = len(names)
                            fresh.append(ttype)
                            append("#" + name(ttype))
                        append("%d:%d:%d" % (names[ttype], pattern, len(offsets) // 2))
                        ranges.append(offsets.tobytes())
                    out.write(("~" + lexer.name.replace("\t", " ").replace("\n", " ") + "\t" + " ".join(parts) + "\n").encode() + b"".join(ranges))
                    if not more:
                        out.flush()
                    continue
                # The lexer's own tokens (`get_tokens` would first normalize line breaks and a
                # byte-order mark away: the lengths would no longer be the code's).
                runs = ((ttype, len(value)) for _, ttype, value in lexer.get_tokens_unprocessed(code))
                last = None
                length = 0
                total = 0
                for ttype, count in runs:
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
            if not more:
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
        # Pygments' own file, and each folder of the module path: installing, upgrading or
        # removing a package (a tree-sitter grammar, say) changes one of them.
        found = []
        for path in [pygments.__file__] + [p for p in sys.path if p]:
            try:
                info = os.stat(path)
                found.append((info.st_ino, info.st_mtime_ns, info.st_size))
            except OSError:
                found.append(None)
        return found
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
