#!/usr/bin/env python3
"""Full-build time against site size: does build time grow linearly?

Usage: Benchmarks/build_scaling.py [path/to/tessera]

Builds generated sites of 250, 500, 1000 and 2000 pages (the same page shape as
serve_latency.py) and prints the median of 3 builds for each, with the time per page relative to
the 250-page site (the peer): a ratio near 1.0 means linear growth.
"""
import os, statistics, subprocess, sys, tempfile, time, shutil

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serve_latency

TESSERA = sys.argv[1] if len(sys.argv) > 1 else serve_latency.TESSERA
serve_latency.TESSERA = TESSERA

if __name__ == "__main__":
    base = None
    for pages in [250, 500, 1000, 2000]:
        site = serve_latency.generated_site(pages)
        seconds = serve_latency.full_build_seconds(site)
        per_page = seconds / pages
        base = base or per_page
        print(f"{pages:5} pages: {seconds * 1000:6.0f} ms, {per_page * 1e6:5.0f} µs/page, {per_page / base:.2f}× the 250-page site's time per page")
        shutil.rmtree(os.path.dirname(site))
