#!/usr/bin/env python3
"""Time per page and peak memory of first builds at 10,000 and 100,000 posts, on the disk.

    Benchmarks/large_sites.py [--tessera PATH] [--sizes 10000,100000] [--runs 3]
                              [--corpora plain,tagged] [--work DIR]

The corpora are `hugo_compare.py`'s (plain posts with code blocks; tagged posts with tag pages
and RSS), with Tessera's default outputs. Each run is a user's first build: no build cache, a new
output folder (nothing is removed while timing: see `hugo_compare.Disk`), the sizes and corpora
in turns. Tessera alone: `hugo_compare.py --sizes 10000,100000` times the Hugos too, which at
100,000 posts takes an hour. The table gives, per corpus, the medians, the largest peak RSS
(`/usr/bin/time`), and the time per page of each size against the smallest.
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hugo_compare  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tessera", default=".build/release/tessera")
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--corpora", default="plain,tagged")
    parser.add_argument("--work", default=None, help="folder for corpora and outputs (default: .build/bench-large, on the repository's disk)")
    args = parser.parse_args()
    tessera = os.path.abspath(args.tessera)
    if not os.path.exists(tessera):
        sys.exit(f"no Tessera binary at {tessera}: run `swift build -c release --product tessera` first")
    work = os.path.abspath(args.work or hugo_compare.REPOSITORY + "/.build/bench-large")
    sizes, corpora = [int(size) for size in args.sizes.split(",")], args.corpora.split(",")
    if any(corpus not in ("plain", "tagged", "feed") for corpus in corpora):
        sys.exit("--corpora takes plain, tagged and feed")
    os.makedirs(work, exist_ok=True)
    sites = {}
    for corpus in corpora:
        for n in sizes:
            site = f"{work}/{corpus}-{n}"
            if not os.path.exists(site + "/site.yml"):
                shutil.rmtree(site, ignore_errors=True)
                hugo_compare.tessera_site(site, tessera, corpus, n)
            sites[(corpus, n)] = site
    outputs = tempfile.mkdtemp(prefix="outputs-", dir=work)
    print(f"Tessera {tessera}; first builds, default outputs, medians of {args.runs} in turns; work folder {hugo_compare.describe(work)}")
    disk = hugo_compare.Disk(work)
    disk.settle()
    samples = {}
    for turn in range(args.runs):
        for key, site in sites.items():
            shutil.rmtree(site + "/.tessera", ignore_errors=True)  # a first build: no cache (a handful of files)
            os.sync()
            out = tempfile.mkdtemp(prefix=f"{key[0]}-{key[1]}-", dir=outputs)
            wall, peak, said = hugo_compare.timed(["env", "TESSERA_KEEP_WORKERS=0", tessera, "build", "--source", site, "--output", out + "/public"])
            if said and turn == 0:
                print(f"{key[0]} {key[1]:,} said on stderr:\n{said[-1000:]}", file=sys.stderr)
            samples.setdefault(key, []).append((wall, peak))
            print(f"turn {turn + 1}: {key[0]} {key[1]:,} {wall:.2f} s, {peak:,.0f} MiB", file=sys.stderr, flush=True)
    disk.remove(outputs)
    print("\n| corpus | N | first build | per page vs smallest N | peak RSS (largest of the runs) |")
    print("|---|---|---|---|---|")
    for corpus in corpora:
        smallest = None
        for n in sizes:
            runs = samples[(corpus, n)]
            wall = statistics.median(w for w, _ in runs)
            smallest = smallest or wall / n
            print(f"| {corpus} | {n:,} | {wall:.2f} s | {(wall / n) / smallest:.2f} | {max(p for _, p in runs):,.0f} MiB |")


if __name__ == "__main__":
    main()
