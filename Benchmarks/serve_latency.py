#!/usr/bin/env python3
"""Save-to-reload latency of `tessera serve`, against a full `tessera build` of the same site.

Usage: Benchmarks/serve_latency.py [path/to/tessera] [pages]

For the example site and for a generated site of N pages (default 1000), starts `tessera serve`,
listens on its event stream, edits one page, and times from the write to the `reload` event:
for edits of the page's body and of a component of its sections (the preview rebuilds that page
alone), and for edits of its title (front matter, which lists, the sitemap and the JSON index show).
Reports medians, and the ratio against a full build of the same site run in the same session
(the peer): absolute times depend on the machine, the ratio much less.
"""
import os, shutil, socket, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESSERA = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/tessera")
PAGES = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
RUNS = 7


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def generated_site(pages):
    site = tempfile.mkdtemp(prefix="tessera-bench-")
    subprocess.run([TESSERA, "new", site + "/s"], check=True, stdout=subprocess.DEVNULL)
    site += "/s"
    for i in range(pages):
        with open(f"{site}/content/page-{i:04}.md", "w") as f:
            f.write(f"""---
title: Page {i}
date: 2025-11-{1 + i % 28:02}
sections:
  - header: {{ component: section-header, title: Section {i} }}
    items:
      - {{ component: course-progress, title: Course {i}, progress: 0.{i % 100:02}, link: /about/ }}
      - {{ component: notice, message: "Notice **{i}**" }}
      - {{ component: stat, value: {i * 13}, label: Learners }}
---
Body of page {i} with *Markdown*.
""")
    return site


def full_build_seconds(site):
    out = tempfile.mkdtemp(prefix="tessera-out-")
    times = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([TESSERA, "build", "--no-cache", "--source", site, "--output", out + "/public"], check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    shutil.rmtree(out)
    return statistics.median(times)


def edited(original, run, kind):
    """The page with its body (or its title) changed on even runs, as it was on odd ones."""
    if run % 2:
        return original
    if kind == "title":
        return original.replace("title:", f"title: Edit {run}", 1)
    if kind == "component":
        # A field of one component of the page's feed (the example site's home has a stat).
        return original.replace("label: ", f"label: Edited {run} ", 1) if "label: " in original else original.replace("title:", f"title: Edit {run}", 1)
    head, sep, body = original.rpartition("\n---\n")
    return head + sep + f"Edited {run}. " + body


def reload_latency(site, page, kind):
    port = free_port()
    server = subprocess.Popen([TESSERA, "serve", "--source", site, "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for line in server.stdout:
            if "Serving at" in line:
                break
        conn = socket.create_connection(("127.0.0.1", port))
        conn.sendall(b"GET /__tessera/events HTTP/1.1\r\nHost: x\r\n\r\n")
        conn.settimeout(30)
        buf = b""
        while b"event: connected" not in buf:
            buf += conn.recv(65536)
        path = os.path.join(site, "content", page)
        original = open(path).read()
        samples = []
        for run in range(RUNS):
            buf = b""
            start = time.perf_counter()
            with open(path, "w") as f:
                f.write(edited(original, run, kind))
            while b"event: reload" not in buf:
                buf += conn.recv(65536)
            samples.append(time.perf_counter() - start)
            time.sleep(0.2)
        conn.close()
        return statistics.median(samples)
    finally:
        server.terminate()
        server.wait(timeout=5)


def report(name, site, page):
    full = full_build_seconds(site)
    for kind in ["body", "component", "title"]:
        latency = reload_latency(site, page, kind)
        print(f"{name}, {kind} edit: save→reload {latency * 1000:.0f} ms (median of {RUNS}); full build {full * 1000:.0f} ms; "
              f"reload takes {latency / full:.2f}× a full build")


if __name__ == "__main__":
    example = tempfile.mkdtemp(prefix="tessera-example-")
    for item in ["site.yml", "content", "themes", "data", "static"]:
        src = os.path.join(ROOT, item)
        (shutil.copytree if os.path.isdir(src) else shutil.copy)(src, os.path.join(example, item))
    report("example site", example, "index.md")
    report(f"generated site, {PAGES} pages", generated_site(PAGES), "page-0500.md" if PAGES > 500 else "page-0000.md")
