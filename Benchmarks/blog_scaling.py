#!/usr/bin/env python3
"""Queries, taxonomies, pagination, feeds and links against the number of posts.

Usage: Benchmarks/blog_scaling.py [path/to/tessera] [largest]

Generates blogs of 1,250, 2,500, 5,000 and 10,000 posts (or up to `largest`): each post has
three of 60 tags, a summary and a Markdown body with a link to an earlier post; the index is a
query section paginated by 10 with RSS, Atom and JSON feeds; every tag gets a paginated term
page with all three feeds; the sitemap is on. Prints the median of 3 `tessera build --timings`
runs per size, each step's time, and the time per post relative to the smallest site (the peer):
near 1.0 means the step grows linearly with the number of posts.
"""
import os, re, shutil, statistics, subprocess, sys, tempfile, time

TESSERA = sys.argv[1] if len(sys.argv) > 1 else ".build/release/tessera"
LARGEST = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
TAGS = [f"topic-{n:02}" for n in range(60)]


def generated_blog(posts):
    root = tempfile.mkdtemp(prefix="tessera-blog-")
    subprocess.run([TESSERA, "new", root + "/s"], check=True, stdout=subprocess.DEVNULL)
    site = root + "/s"
    config = open(site + "/site.yml").read().replace("baseURL: /\n", "baseURL: https://example.com/\n")
    with open(site + "/site.yml", "w") as f:
        f.write(config + "taxonomies:\n  tags: { paginate: 10, feeds: [rss, atom, json] }\n")
    os.makedirs(site + "/content/blog", exist_ok=True)
    with open(site + "/content/blog/index.md", "w") as f:
        f.write("---\ntitle: Blog\nfeeds: [rss, atom, json]\nsections:\n"
                "  - query: { under: blog, sort: date desc, paginate: 10, component: article-thumb }\n---\n")
    for i in range(posts):
        tags = ", ".join(TAGS[(i * k) % len(TAGS)] for k in (1, 7, 13))
        link = f"See [the previous post](@/blog/post-{i - 1:05}.md)." if i else "The first post."
        with open(f"{site}/content/blog/post-{i:05}.md", "w") as f:
            f.write(f"""---
title: Post number {i}
date: {2000 + i // 400}-{1 + (i // 31) % 12:02}-{1 + i % 28:02}
summary: What post {i} is about, in one sentence.
tags: [{tags}]
---
Body of post {i} with *Markdown*, a list and a link.

- one
- two

{link}
""")
    return site


STEP = re.compile(r"^\s*(.+?)\s+([0-9.]+)\s*(ms|s)\s*$")


def timed_build(site):
    out = tempfile.mkdtemp(prefix="tessera-out-")
    runs = []
    for _ in range(3):
        start = time.perf_counter()
        result = subprocess.run([TESSERA, "build", "--source", site, "--output", out + "/public", "--timings"],
                                check=True, capture_output=True, text=True)
        total = time.perf_counter() - start
        steps = {}
        for line in (result.stdout + result.stderr).splitlines():
            match = STEP.match(line)
            if match and "Built" not in line:
                value = float(match.group(2)) / (1000 if match.group(3) == "ms" else 1)
                steps[match.group(1)] = value
        runs.append((total, steps))
    files = sum(len(names) for _, _, names in os.walk(out + "/public"))
    shutil.rmtree(out)
    runs.sort(key=lambda run: run[0])
    return runs[1][0], runs[1][1], files


if __name__ == "__main__":
    base = None
    base_steps = {}
    for posts in [1_250, 2_500, 5_000, 10_000]:
        if posts > LARGEST:
            break
        site = generated_blog(posts)
        seconds, steps, files = timed_build(site)
        per_post = seconds / posts
        base = base or per_post
        print(f"{posts:6} posts, {files} files: {seconds:6.2f} s, {per_post * 1e6:6.0f} µs/post, {per_post / base:.2f}× the smallest site's time per post")
        for name, value in steps.items():
            base_steps.setdefault(name, value / posts)
            peer = base_steps[name]
            ratio = f"{(value / posts) / peer:.2f}×" if peer > 0 else "-"
            print(f"    {name:28} {value * 1000:8.0f} ms  {ratio} per post")
        shutil.rmtree(os.path.dirname(site))
