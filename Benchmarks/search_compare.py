#!/usr/bin/env python3
"""The search index's cost and what a reader downloads, on the benchmark's posts, on the disk.

    python3 Benchmarks/search_compare.py --tessera .build/release/tessera [--posts 10000] [--runs 3]
                                         [--work DIR] [--pagefind]

- The site: hugo_compare.py's "plain" corpus (posts of 2-4 KB of Markdown with a Swift fence,
  made by `tessera new`, default theme, default outputs) with a search page
  (`content/search.md`, `layout: search`). Its twin is the same with `search: false` in site.yml.
- Full builds: `tessera build --no-cache` of each into a new folder on the project's disk, in
  turns; medians. The search step's cost is (with - without) / without: the target is <= 1/3.
- One post edited: a cached `tessera build` of the site with search after a body edit, against
  its full build: the target is <= 1/5.
- A reader's first query: the site served by a local server that counts the bytes it sends, the
  search page opened at `/search/?q=WORD` in headless Chromium (`--dump-dom`, which runs the
  page's script to the end); the bytes of the search's own files (its script, `search/`, and
  the page JSON that excerpts are cut from) are summed, the page itself aside. A word on every
  page and a word on one. The target is <= 150 KB.
- With --pagefind: Pagefind 1.5 (`pip install 'pagefind[extended]'`) over the twin's output, the
  same way, for comparison (its whole-index time against Tessera's added time).
No timed turn removes a file: every build writes a new folder, removed after the turns.
"""
import argparse, http.server, importlib.util, os, shutil, statistics, subprocess, sys, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("hugo_compare", os.path.join(HERE, "hugo_compare.py"))
hugo_compare = importlib.util.module_from_spec(spec)
sys.path.insert(0, HERE)
spec.loader.exec_module(hugo_compare)


def timed(command, cwd=None):
    subprocess.run(["sync"])
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def make_sites(work, tessera, posts):
    on, off = os.path.join(work, "site"), os.path.join(work, "site-off")
    if not os.path.exists(on):
        hugo_compare.tessera_site(on, tessera, "plain", posts)
        hugo_compare.write(on + "/content/search.md", "---\ntitle: Search\nlayout: search\nsearch: false\n---\n")
    if not os.path.exists(off):
        shutil.copytree(on, off)
        with open(off + "/site.yml", "a") as f:
            f.write("search: false\n")
    return on, off


class Counting(http.server.SimpleHTTPRequestHandler):
    sent = []

    def log_message(self, *args):
        pass

    def copyfile(self, source, output):
        data = source.read()
        Counting.sent.append((self.path.split("?")[0], len(data)))
        output.write(data)


def first_query_bytes(folder, word):
    Counting.sent = []
    handler = lambda *args, **kwargs: Counting(*args, directory=folder, **kwargs)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    profile = os.path.join(folder, "..", "chromium-profile")
    subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}", "--virtual-time-budget=20000",
                    "--dump-dom", f"http://127.0.0.1:{port}/search/?q={word}"], check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    server.shutdown()
    shutil.rmtree(profile, ignore_errors=True)
    searched = [(path, size) for path, size in Counting.sent
                if path.startswith("/search/") and path != "/search/" or path.startswith("/assets/search.") or path.endswith("/index.json")]
    return sum(size for _, size in searched), searched


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tessera", default=os.path.join(hugo_compare.REPOSITORY, ".build/release/tessera"))
    parser.add_argument("--posts", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", default=os.path.join(hugo_compare.REPOSITORY, ".build/bench-search"))
    parser.add_argument("--pagefind", action="store_true")
    args = parser.parse_args()
    tessera = os.path.abspath(args.tessera)
    os.makedirs(args.work, exist_ok=True)
    on, off = make_sites(args.work, tessera, args.posts)
    outputs = os.path.join(args.work, "out")
    shutil.rmtree(outputs, ignore_errors=True)
    os.makedirs(outputs)
    with_search, without, pagefind = [], [], []
    for turn in range(args.runs):
        with_search.append(timed([tessera, "build", "--no-cache", "-s", on, "-o", f"{outputs}/on-{turn}"]))
        without.append(timed([tessera, "build", "--no-cache", "-s", off, "-o", f"{outputs}/off-{turn}"]))
        if args.pagefind:
            pagefind.append(timed([sys.executable, "-m", "pagefind", "--site", f"{outputs}/off-{turn}"]))
    a, b = statistics.median(with_search), statistics.median(without)
    print(f"{args.posts} posts, default outputs, on this disk, medians of {args.runs}:")
    print(f"  full build with search     {a:6.2f} s")
    print(f"  full build without search  {b:6.2f} s")
    print(f"  search's added time / build without search: {(a - b) / b:.2f} (target <= 0.33)")
    if pagefind:
        p = statistics.median(pagefind)
        print(f"  Pagefind over the output   {p:6.2f} s: {p / b:.2f} of the build without search, {p / max(a - b, 1e-9):.1f}x Tessera's added time")

    # One post edited, with the build cache.
    cached = f"{outputs}/cached"
    subprocess.run([tessera, "build", "-s", on, "-o", cached], check=True, stdout=subprocess.DEVNULL)
    post = os.path.join(on, "content/posts/post-00042.md")
    original = open(post).read()
    edits = []
    for turn in range(args.runs):
        with open(post, "w") as f:
            f.write(original + f"\nAn edit, number {turn}: zeppelin{turn}.\n")
        edits.append(timed([tessera, "build", "-s", on, "-o", cached]))
    with open(post, "w") as f:
        f.write(original)
    e = statistics.median(edits)
    print(f"  one post edited, cached    {e:6.2f} s: {e / a:.2f} of a full build with search (target <= 0.20)")

    # A reader's first query.
    for word in ["carousel", "4242"]:
        total, files = first_query_bytes(f"{outputs}/on-0", word)
        print(f"  first query '{word}': {total / 1024:.1f} KiB in {len(files)} files (target <= 150 KB)")
        for path, size in files:
            print(f"    {size:7d}  {path}")
    shutil.rmtree(outputs, ignore_errors=True)


if __name__ == "__main__":
    main()
