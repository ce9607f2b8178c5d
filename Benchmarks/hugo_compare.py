#!/usr/bin/env python3
"""Tessera against Hugo on the same corpora, built in turns; medians of wall time and peak memory.

Usage: Benchmarks/hugo_compare.py [--tessera PATH] [--sizes 1000,10000,100000] [--runs 5]
                                  [--corpora plain,tagged,feed] [--work DIR]

Corpora (generated deterministically, seed 42):
  plain   N posts: front matter and 2-4 KB of Markdown each. Hugo: taxonomies, RSS and sitemap off.
  tagged  the same posts with three of 40 tags each, RSS of the blog and of every tag, the sitemap.
  feed    N Tessera feed pages of 20 components of 9 types (dates, percents, currencies, numbers,
          Markdown, links), against Hugo's plain posts (Hugo has no component model).
Each Tessera run is a full build (--no-cache). Then, with Tessera's build cache, a second build with
nothing changed and a build after editing one post's body are timed (Hugo rebuilds everything
every time; its column there is its full build).
Floors: the `cmark` command over all the corpus's Markdown, and `cp -r` of the corpus.
Installs Hugo (and cmark) with apt-get when missing. Prints one table; ratios are Tessera / Hugo.
--work puts corpora and outputs there (the published figures use /dev/shm, a RAM disk, so that the
shared machine's disk does not decide them).

--check times nothing and needs no Hugo: it builds each corpus with Tessera in full, then with the
build cache (nothing changed, one post edited, a new post), and fails unless every cached build's
output is byte for byte a full build's. The test suite runs it at a small N, so the corpora keep
building with the current theme and the cache keeps its promise on them.
"""
import argparse, os, random, shutil, statistics, subprocess, sys, tempfile, time

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
            block = "```\nlet value = " + str(rng.randint(1, 999)) + "\nprint(value)\n```"
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


def tessera_site(root, tessera, corpus, n):
    subprocess.run([tessera, "new", root], check=True, stdout=subprocess.DEVNULL)
    config = open(root + "/site.yml").read().replace("baseURL: /\n", "baseURL: https://example.com/\n")
    if corpus == "tagged":
        config += "taxonomies:\n  tags: { paginate: 10, feeds: [rss] }\n"
        write(root + "/content/posts/index.md", "---\ntitle: Posts\nfeeds: [rss]\nsections:\n  - query: { under: posts, sort: date desc, paginate: 10, component: article-thumb }\n---\n")
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
    return f"---\ntitle: {title}\ndate: {date}\nsections:\n" + "\n".join(sections) + "\n---\n"


HUGO_LAYOUTS = {
    "layouts/_default/baseof.html": "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{{ .Title }} · {{ .Site.Title }}</title></head><body><header><a href=\"{{ \"/\" | relURL }}\">{{ .Site.Title }}</a></header><main>{{ block \"main\" . }}{{ end }}</main></body></html>\n",
    "layouts/_default/single.html": "{{ define \"main\" }}<article><h1>{{ .Title }}</h1><time>{{ .Date.Format \"Jan 2, 2006\" }}</time>{{ .Content }}{{ with .Params.tags }}<ul>{{ range . }}<li><a href=\"{{ \"tags/\" | relURL }}{{ . | urlize }}/\">{{ . }}</a></li>{{ end }}</ul>{{ end }}</article>{{ end }}\n",
    "layouts/_default/list.html": "{{ define \"main\" }}<h1>{{ .Title }}</h1>{{ range (.Paginate .Pages).Pages }}<article><h2><a href=\"{{ .RelPermalink }}\">{{ .Title }}</a></h2><p>{{ .Summary }}</p></article>{{ end }}{{ end }}\n",
}


def hugo_site(root, corpus, n):
    kinds = '["taxonomy", "term", "RSS", "sitemap"]' if corpus != "tagged" else '[]'
    write(root + "/hugo.toml", f"""baseURL = "https://example.com/"
title = "Bench"
disableKinds = {kinds}
[pagination]
  pagerSize = 10
[markup.highlight]
  codeFences = false
""")
    for path, text in HUGO_LAYOUTS.items():
        write(root + "/" + path, text)
    for i, title, date, body in posts(n):
        tags = f"tags: [{', '.join(tags_for(i))}]\n" if corpus == "tagged" else ""
        write(f"{root}/content/posts/post-{i:05}.md", f"---\ntitle: {title}\ndate: {date}\nsummary: What post {i} is about.\n{tags}---\n{body}")


def timed(command, cwd=None):
    """Wall seconds and peak RSS in MiB of one run."""
    with tempfile.NamedTemporaryFile(mode="r") as report:
        start = time.perf_counter()
        result = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report.name] + command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.perf_counter() - start
        if result.returncode != 0:
            sys.exit(f"failed: {' '.join(command)}\n{result.stderr[-2000:]}")
        return wall, int(report.read().strip().splitlines()[-1]) / 1024


def median_runs(runs, command, cwd=None, before=None):
    walls, peaks = [], []
    for _ in range(runs):
        if before:
            before()
        wall, peak = timed(command, cwd)
        walls.append(wall)
        peaks.append(peak)
    return statistics.median(walls), statistics.median(peaks)


def floors(root, n):
    files = [os.path.join(dp, f) for dp, _, fs in os.walk(root + "/content") for f in fs if f.endswith(".md")]
    start = time.perf_counter()
    for chunk in range(0, len(files), 500):
        subprocess.run(["cmark"] + files[chunk:chunk + 500], stdout=subprocess.DEVNULL, check=True)
    cmark = time.perf_counter() - start
    copy = tempfile.mkdtemp(prefix="bench-copy-")
    start = time.perf_counter()
    subprocess.run(["cp", "-r", root + "/content", copy + "/c"], check=True)
    cp = time.perf_counter() - start
    shutil.rmtree(copy)
    return cmark, cp


def edit_one_post(root):
    path = root + "/content/posts/post-00001.md"
    with open(path, "a") as f:
        f.write("\nOne more sentence, edited between two builds.\n")


def install_missing(tools):
    """Debian's packages of the tools missing from PATH (through sudo unless root)."""
    missing = [tool for tool in tools if not shutil.which(tool)]
    if not missing:
        return
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(sudo + ["apt-get", "install", "-y", "-qq"] + missing, check=True, env=env)


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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tessera", default=".build/release/tessera")
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--corpora", default="plain,tagged,feed")
    parser.add_argument("--work", default=None, help="folder for corpora and outputs (default: the system's temporary folder)")
    parser.add_argument("--check", action="store_true", help="time nothing: check that cached builds write what full builds write")
    args = parser.parse_args()
    tessera = os.path.abspath(args.tessera)
    if args.work:
        os.makedirs(args.work, exist_ok=True)
    if not os.path.exists(tessera):
        sys.exit(f"no Tessera binary at {tessera}: run `swift build -c release --product tessera` first")
    if args.check:
        sys.exit(check(tessera, [int(size) for size in args.sizes.split(",")], args.corpora.split(","), args.work))
    install_missing(["hugo", "cmark"])
    hugo_version = subprocess.run(["hugo", "version"], capture_output=True, text=True).stdout.split()[1]
    print(f"Tessera {tessera} vs Hugo {hugo_version}; median of {args.runs} runs, in turns; work folder {args.work or tempfile.gettempdir()}\n")
    print("| corpus | N | Tessera | Hugo | time ratio | Tessera MiB | Hugo MiB | memory ratio | Tessera per page vs smallest N | cmark floor | cp -r floor |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    per_page = {}
    incremental = []
    for n in [int(size) for size in args.sizes.split(",")]:
        for corpus in args.corpora.split(","):
            work = tempfile.mkdtemp(prefix=f"bench-{corpus}-{n}-", dir=args.work)
            tessera_site(work + "/tessera", tessera, corpus, n)
            hugo_site(work + "/hugo", "plain" if corpus == "feed" else corpus, n)
            out = work + "/out"
            t_walls, t_peaks, h_walls, h_peaks = [], [], [], []
            for _ in range(args.runs):
                shutil.rmtree(out, ignore_errors=True)
                wall, peak = timed([tessera, "build", "--no-cache", "--source", work + "/tessera", "--output", out + "/tessera"])
                t_walls.append(wall); t_peaks.append(peak)
                shutil.rmtree(work + "/hugo/public", ignore_errors=True)
                wall, peak = timed(["hugo", "--quiet", "--source", work + "/hugo", "--destination", out + "/hugo"])
                h_walls.append(wall); h_peaks.append(peak)
            cmark, cp = floors(work + "/tessera", n)
            tw, tp, hw, hp = (statistics.median(x) for x in (t_walls, t_peaks, h_walls, h_peaks))
            per_page.setdefault(corpus, tw / n)
            linear = (tw / n) / per_page[corpus]
            print(f"| {corpus} | {n:,} | {tw:.2f} s | {hw:.2f} s | {tw / hw:.2f} | {tp:.0f} | {hp:.0f} | {tp / hp:.2f} | {linear:.2f} | {cmark:.2f} s | {cp:.2f} s |", flush=True)
            # The build cache: a first cached build, then nothing changed, then one post edited.
            cached = [tessera, "build", "--source", work + "/tessera", "--output", out + "/cached"]
            timed(cached)
            time.sleep(2.1)  # files older than two seconds are trusted by their stat
            unchanged = statistics.median([timed(cached)[0] for _ in range(args.runs)])
            edits = []
            for _ in range(args.runs):
                edit_one_post(work + "/tessera")
                edits.append(timed(cached)[0])
            edited = statistics.median(edits)
            incremental.append((corpus, n, tw, unchanged, edited, hw))
            shutil.rmtree(work)
    print("\nTessera's build cache (`tessera build` twice; ratios against Tessera's own full build, and Hugo's, which rebuilds everything):\n")
    print("| corpus | N | full build | nothing changed | ratio | one post edited | ratio | vs Hugo's build |")
    print("|---|---|---|---|---|---|---|---|")
    for corpus, n, full, unchanged, edited, hugo in incremental:
        print(f"| {corpus} | {n:,} | {full:.2f} s | {unchanged:.2f} s | {unchanged / full:.2f} | {edited:.2f} s | {edited / full:.2f} | {edited / hugo:.2f} |")


if __name__ == "__main__":
    main()
