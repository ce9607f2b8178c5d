#!/usr/bin/env python3
"""Build-time highlighting: Tessera (its workers: tree-sitter where a grammar is installed, else
Pygments; and Pygments alone, with tree-sitter hidden) against Hugo (Chroma), each against itself
without highlighting, on posts of 2-4 KB of prose and one 20-60 line code block each (six
languages in turn), default outputs, on the project's disk. Medians of interleaved runs.

    python3 Benchmarks/highlight_compare.py --tessera .build/release/tessera --posts 10000 --runs 3

Rows:
- full builds (a first build: no cache yet, a fresh output folder): Tessera with and without highlighting
  (`markdown.highlight`), Hugo with Chroma (its default: `codeFences = true`) and without;
- cached rebuilds after one post's prose, or one post's code, was edited: Tessera with and
  without highlighting, in alternating turns (at least 5), medians.
"""
import argparse, os, random, shutil, statistics, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hugo_compare import Disk, HUGO_LAYOUTS, markdown_body, timed, write  # noqa: E402
from hugo_peers import describe, hugo_peers  # noqa: E402

NAMES = "feed section item view model shell header footer value count index page token title date".split()


def name(rng):
    return rng.choice(NAMES) + rng.choice(NAMES).capitalize()


# One line of each language, made from a random name and number: blocks differ from post to post.
LINES = {
    "swift": [
        lambda r: f"    let {name(r)} = try await loader.load(id: {r.randint(1, 999)})",
        lambda r: f"    guard let {name(r)} = items.first(where: {{ $0.id == \"{name(r)}\" }}) else {{ return nil }}",
        lambda r: f"    // {name(r)}: the {r.choice(NAMES)} of the {r.choice(NAMES)}",
        lambda r: f"    print(\"Loaded \\({name(r)}.count) items in \\(elapsed) s\")",
        lambda r: f"    @MainActor func {name(r)}(_ value: Int) async throws -> [String] {{ [\"{r.randint(1, 99)}\"] }}",
    ],
    "ts": [
        lambda r: f"  const {name(r)}: Map<string, number[]> = new Map();",
        lambda r: f"  export async function {name(r)}(id: number): Promise<string> {{ return `${{id}}-{r.randint(1, 999)}`; }}",
        lambda r: f"  // {name(r)} keeps the {r.choice(NAMES)}",
        lambda r: f"  if ({name(r)} ?? {r.randint(1, 99)} > 3) {{ console.log(\"{r.choice(NAMES)}\"); }}",
    ],
    "go": [
        lambda r: f"\t{name(r)} := make(map[string]int, {r.randint(1, 99)})",
        lambda r: f"\tif err := {name(r)}(ctx); err != nil {{ return fmt.Errorf(\"{r.choice(NAMES)}: %w\", err) }}",
        lambda r: f"\t// {name(r)} is the {r.choice(NAMES)}",
        lambda r: f"\tfor i := 0; i < {r.randint(2, 50)}; i++ {{ total += i }}",
    ],
    "python": [
        lambda r: f"    {name(r).lower()} = [x * {r.randint(2, 9)} for x in range({r.randint(10, 99)})]",
        lambda r: f"    if not {name(r).lower()}: raise ValueError(f\"no {{value!r}} in {r.choice(NAMES)}\")",
        lambda r: f"    # {r.choice(NAMES)} of the {r.choice(NAMES)}",
        lambda r: f"    return {{\"{r.choice(NAMES)}\": {r.randint(1, 999)}, \"ok\": True}}",
    ],
    "rust": [
        lambda r: f"    let {name(r).lower()}: Vec<u32> = (0..{r.randint(2, 99)}).map(|x| x * 2).collect();",
        lambda r: f"    match {name(r).lower()} {{ Some(v) => v, None => return Err(\"{r.choice(NAMES)}\".into()) }};",
        lambda r: f"    // {r.choice(NAMES)} and {r.choice(NAMES)}",
        lambda r: f"    println!(\"{{}} items\", {r.randint(1, 999)});",
    ],
    "yaml": [
        lambda r: f"  {r.choice(NAMES)}: {{ type: {r.choice(['text', 'date', 'number'])}, required: {r.choice(['true', 'false'])} }}",
        lambda r: f"  - component: {r.choice(NAMES)}  # {r.choice(NAMES)}",
        lambda r: f"  {name(r)}: \"{r.choice(NAMES)} {r.randint(1, 999)}\"",
    ],
}
OPENERS = {"swift": "func run() async throws {", "ts": "export function run() {", "go": "func run(ctx context.Context) error {",
           "python": "def run(value):", "rust": "fn run() -> Result<(), String> {", "yaml": "fields:"}
CLOSERS = {"swift": "}", "ts": "}", "go": "}", "python": "    return None", "rust": "}", "yaml": "  done: true"}


def code_block(i, rng):
    language = list(LINES)[i % len(LINES)]
    lines = [OPENERS[language]] + [rng.choice(LINES[language])(rng) for _ in range(rng.randint(18, 58))] + [CLOSERS[language]]
    return f"```{language}\n" + "\n".join(lines) + "\n```\n"


def posts(n):
    rng = random.Random(31)
    for i in range(n):
        body = markdown_body(rng)
        cut = body.find("\n\n", len(body) // 2)
        yield i, f"Post {i}", f"{2000 + i % 25}-{1 + (i // 25) % 12:02}-{1 + (i // 300) % 28:02}", body[:cut] + "\n\n" + code_block(i, rng) + body[cut:]


def tessera_site(root, tessera, n, highlight):
    subprocess.run([tessera, "new", root], check=True, stdout=subprocess.DEVNULL)
    config = open(root + "/site.yml").read().replace("baseURL: /\n", "baseURL: https://example.com/\n")
    if not highlight:
        config += "markdown:\n  highlight: false\n"
    write(root + "/site.yml", config)
    for i, title, date, body in posts(n):
        write(f"{root}/content/posts/post-{i:05}.md", f"---\ntitle: {title}\ndate: {date}\nsummary: What post {i} is about.\n---\n{body}")


def hugo_site(root, n, highlight):
    write(root + "/hugo.toml", f"""baseURL = "https://example.com/"
title = "Bench"
[taxonomies]
  tag = "tags"
[services.rss]
  limit = 20
[markup.highlight]
  codeFences = {'true' if highlight else 'false'}
""")
    for path, text in HUGO_LAYOUTS.items():
        write(root + "/" + path, text)
    for i, title, date, body in posts(n):
        write(f"{root}/content/posts/post-{i:05}.md", f"---\ntitle: {title}\ndate: {date}\nsummary: What post {i} is about.\n---\n{body}")


def edit(root, what, turn):
    path = root + "/content/posts/post-00001.md"
    text = open(path).read()
    if what == "prose":
        text += f"\nOne more sentence, edited between two builds ({turn}).\n"
    else:
        # The closing fence of the post's highlighted block (its opening names a language).
        start = min(text.find(f"```{language}\n") for language in LINES if f"```{language}\n" in text)
        end = text.find("\n```\n", start + 3)
        text = text[:end] + f"\n    // edited between two builds ({turn})" + text[end:]
    write(path, text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tessera", default=".build/release/tessera")
    parser.add_argument("--posts", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", default=None, help="folder on the disk to measure (default: .build/bench-highlight)")
    parser.add_argument("--hugo", action="append", default=[])
    parser.add_argument("--cached-only", action="store_true", help="only the cached rebuilds (their sites must exist)")
    args = parser.parse_args()
    tessera = os.path.abspath(args.tessera)
    work = os.path.abspath(args.work or ".build/bench-highlight")
    os.makedirs(work, exist_ok=True)
    disk = Disk(work)
    peers = hugo_peers(args.hugo)[:1]
    print(f"# {args.posts} posts, one 20-60 line code block each; {describe(work)}", flush=True)
    sites = {}
    for highlight in (True, False):
        root = f"{work}/tessera-{'on' if highlight else 'off'}"
        if not os.path.exists(root + "/content"):
            shutil.rmtree(root, ignore_errors=True)
            tessera_site(root, tessera, args.posts, highlight)
        sites[("tessera", highlight)] = root
        root = f"{work}/hugo-{'on' if highlight else 'off'}"
        if not os.path.exists(root + "/content"):
            shutil.rmtree(root, ignore_errors=True)
            hugo_site(root, args.posts, highlight)
        sites[("hugo", highlight)] = root
    # Tessera again, with a Python whose tree-sitter is hidden: every block lexed by Pygments.
    shadow = f"{work}/no-tree-sitter"
    write(shadow + "/tree_sitter/__init__.py", "raise ImportError('hidden: Pygments only, for the benchmark')\n")
    write(shadow + "/python3", f"#!/bin/sh\nPYTHONPATH='{shadow}' exec python3 \"$@\"\n")
    os.chmod(shadow + "/python3", 0o755)
    sites[("tessera-pygments", True)] = sites[("tessera", True)]
    for stale in os.listdir(work):
        if stale.startswith(("out-", "cached-", "hugo-cache-")):
            disk.remove(os.path.join(work, stale))
    disk.settle()
    full = {key: [] for key in sites}
    for turn in range(0 if args.cached_only else args.runs):
        # The order rotates from turn to turn, so no build always follows the same other.
        keys = list(sites)
        for key in keys[turn % len(keys):] + keys[:turn % len(keys)]:
            root = sites[key]
            out = f"{work}/out-{key[0]}-{key[1]}-{turn}"
            if key[0].startswith("tessera"):
                # A first build, as a user's: no cache yet (it writes one).
                shutil.rmtree(root + "/.tessera", ignore_errors=True)
                # No worker kept by an earlier turn: a first build starts its own.
                python = [f"TESSERA_PYTHON={shadow}/python3"] if key[0] == "tessera-pygments" else []
                command = ["env", "TESSERA_KEEP_WORKERS=0"] + python + [tessera, "build", "--source", root, "--output", out]
            else:
                command = [peers[0][1], "--quiet", "--source", root, "--destination", out, "--cacheDir", f"{work}/hugo-cache-{turn}"]
            wall, rss, _ = timed(command)
            full[key].append((wall, rss))
            print(f"full {key} turn {turn}: {wall:.2f} s, {rss:.0f} MiB", flush=True)
    # Cached rebuilds: each turn edits the highlighted site and the plain one in turn (the order
    # alternates), so the machine's swings fall on both; at least 5 turns, as they are short.
    # Each site is first built into the output its edits rebuild (the cache is of the last
    # build's output folder), keeping its workers, as a user's build does.
    cached = {}
    edits = max(5, args.runs)
    for what in ("prose", "code"):
        for highlight in (True, False):
            subprocess.run([tessera, "build", "--source", sites[("tessera", highlight)], "--output", f"{work}/cached-{what}-{highlight}"],
                           check=True, stdout=subprocess.DEVNULL)
        times = {True: [], False: []}
        for turn in range(edits):
            for highlight in ((True, False) if turn % 2 == 0 else (False, True)):
                root = sites[("tessera", highlight)]
                edit(root, what, turn)
                wall, _, _ = timed([tessera, "build", "--source", root, "--output", f"{work}/cached-{what}-{highlight}"])
                times[highlight].append(wall)
        for highlight in (True, False):
            cached[(what, highlight)] = statistics.median(times[highlight])
            print(f"cached {what} highlight={highlight}: {[round(t, 3) for t in times[highlight]]}", flush=True)
    if args.cached_only:
        for what in ("prose", "code"):
            print(f"- cached rebuild, one post's {what} edited: highlighted {cached[(what, True)]:.3f} s / not {cached[(what, False)]:.3f} s = **{cached[(what, True)] / cached[(what, False)]:.2f}**")
        return
    med = {key: statistics.median(w for w, _ in values) for key, values in full.items()}
    mem = {key: statistics.median(m for _, m in values) for key, values in full.items()}
    t_on, t_off, h_on, h_off = med[("tessera", True)], med[("tessera", False)], med[("hugo", True)], med[("hugo", False)]
    print()
    print(f"| {args.posts} posts, one 20-60 line block each, default outputs, disk | Tessera | {peers[0][0]} |")
    print("|---|---|---|")
    print(f"| full build, highlighted | {t_on:.2f} s, {mem[('tessera', True)]:.0f} MiB | {h_on:.2f} s, {mem[('hugo', True)]:.0f} MiB |")
    print(f"| full build, not highlighted | {t_off:.2f} s | {h_off:.2f} s |")
    print(f"| highlighting's added cost | {t_on - t_off:.2f} s | {h_on - h_off:.2f} s |")
    t_pyg = med[("tessera-pygments", True)]
    print(f"| full build, highlighted by Pygments alone (tree-sitter hidden) | {t_pyg:.2f} s, {mem[('tessera-pygments', True)]:.0f} MiB | |")
    print(f"| its added cost | {t_pyg - t_off:.2f} s | |")
    print()
    print(f"- added cost, Tessera / Hugo: **{(t_on - t_off) / (h_on - h_off):.2f}** (target <= 0.5)")
    print(f"- whole highlighted build, Tessera / Hugo: **{t_on / h_on:.2f}** (target <= 0.33)")
    print(f"- Pygments alone: added cost / Hugo's {(t_pyg - t_off) / (h_on - h_off):.2f}, whole build / Hugo's {t_pyg / h_on:.2f}; "
          f"tree-sitter's added cost / Pygments' {(t_on - t_off) / (t_pyg - t_off):.2f}")
    for what in ("prose", "code"):
        print(f"- cached rebuild, one post's {what} edited: highlighted {cached[(what, True)]:.3f} s / not {cached[(what, False)]:.3f} s = **{cached[(what, True)] / cached[(what, False)]:.2f}** (target <= 1.10)")


if __name__ == "__main__":
    main()
