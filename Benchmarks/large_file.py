#!/usr/bin/env python3
"""One huge content file: does build time grow linearly with its size, and how much memory?

Usage: Benchmarks/large_file.py [path/to/tessera] [max-megabytes]

Builds a site with one Markdown page (a long body) and one YAML feed (thousands of components)
of 1/8, 1/4, 1/2 and all of max-megabytes (default 50) each, with `/usr/bin/time -v`, and prints
wall time, peak memory (maximum resident set) and time per megabyte relative to the smallest
file (the peer): a ratio near 1.0 means linear growth. Memory is shown as a multiple of the
file size.
"""
import os, re, subprocess, sys, tempfile, shutil

HERE = os.path.dirname(os.path.abspath(__file__))
TESSERA = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", ".build", "release", "tessera")
MAX_MB = float(sys.argv[2]) if len(sys.argv) > 2 else 50


def make_site(kind, megabytes):
    root = tempfile.mkdtemp(prefix="tessera-large-")
    site = os.path.join(root, "site")
    subprocess.run([TESSERA, "new", site], check=True, stdout=subprocess.DEVNULL)
    target = int(megabytes * 1024 * 1024)
    if kind == "markdown":
        paragraph = ("A paragraph of *emphasis*, `code`, a [link](/) and **strong** text, "
                     "long enough to wrap over several lines in a browser window. ") * 4 + "\n\n"
        head = "---\ntitle: Huge\n---\n"
        body = paragraph * (target // len(paragraph) + 1)
        text = head + body[: target - len(head)]
        name = "huge.md"
    else:
        item = '  - { component: notice, message: "Item **%d** of a very long feed", tone: info }\n'
        lines = ["title: Huge feed\ncomponents:\n"]
        size, index = len(lines[0]), 0
        while size < target:
            line = item % index
            lines.append(line)
            size += len(line)
            index += 1
        text = "".join(lines)
        name = "huge.yml"
    with open(os.path.join(site, "content", name), "w") as f:
        f.write(text)
    return root, site, len(text.encode())


def measure(site):
    out = os.path.join(os.path.dirname(site), "out")
    result = subprocess.run(["/usr/bin/time", "-v", TESSERA, "build", "--source", site, "--output", out],
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(result.stderr)
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", result.stderr)
    hours, minutes, seconds = (float(wall.group(1) or 0), float(wall.group(2)), float(wall.group(3)))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr).group(1))
    return hours * 3600 + minutes * 60 + seconds, rss / 1024


if __name__ == "__main__":
    if not shutil.which("time") and not os.path.exists("/usr/bin/time"):
        sys.exit("needs /usr/bin/time (Debian package `time`)")
    empty_root, empty_site, _ = make_site("markdown", 0.001)
    base_seconds, base_rss = measure(empty_site)
    shutil.rmtree(empty_root)
    print(f"baseline (the new site, no large file): {base_seconds:.2f} s, {base_rss:.0f} MB peak")
    for kind in ["markdown", "feed"]:
        first = None
        for fraction in [0.125, 0.25, 0.5, 1.0]:
            root, site, size = make_site(kind, MAX_MB * fraction)
            seconds, rss = measure(site)
            shutil.rmtree(root)
            mb = size / 1024 / 1024
            per_mb = (seconds - base_seconds) / mb
            first = first or per_mb
            print(f"{kind:8} {mb:5.1f} MB: {seconds:6.2f} s, peak {rss:6.0f} MB ({(rss - base_rss) / mb:4.1f}× the file), "
                  f"{per_mb / first:.2f}× the smallest file's time per MB")
