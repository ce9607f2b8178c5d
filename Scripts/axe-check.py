#!/usr/bin/env python3
"""Runs axe-core (the copy PyPI's axe-playwright-python ships) in headless Chromium on pages of a
built site, in the light and the dark colour scheme, and prints every violation.

    python3 Scripts/axe-check.py public blog/index.html blog/some-post/index.html ...
    AXE_WIDTHS=390,1280 python3 Scripts/axe-check.py public index.html   # each page at each width

Needs Debian's chromium and chromium-driver, and PyPI's selenium and axe-playwright-python
(`make test` installs them). Exits 1 when a page has a violation, 2 when a tool is missing.
"""
import json
import os
import sys

import browser_site


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    folder, pages = sys.argv[1], sys.argv[2:]
    try:
        import axe_playwright_python
        import selenium  # noqa: F401 (checked here, used by browser_site)
    except ImportError as error:
        print(f"missing: {error}", file=sys.stderr)
        return 2
    axe = open(os.path.join(os.path.dirname(axe_playwright_python.__file__), "axe.min.js"), encoding="utf-8").read()
    server = browser_site.serve(folder)
    driver = browser_site.chromium()
    driver.set_script_timeout(60)
    found = {}
    # Each width is a layout of its own (the phone's tab bar, the desktop's header menu).
    widths = [int(w) for w in os.environ.get("AXE_WIDTHS", "1280").split(",") if w.strip()]
    try:
        for page, width, scheme in ((p, w, s) for p in pages for w in widths for s in ("light", "dark")):
                driver.set_window_size(width, 900)
                driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
                driver.get(f"http://127.0.0.1:{server.server_port}/{page}")
                driver.execute_script(axe)
                result = driver.execute_async_script(
                    "const done = arguments[arguments.length - 1];"
                    "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations)).catch(e => done(String(e)));")
                key = f"{page} ({width} px, {scheme})" if len(widths) > 1 else f"{page} ({scheme})"
                if isinstance(result, str):
                    found[key] = [{"id": "axe-error", "help": result}]
                    continue
                violations = [
                    {"id": v["id"], "impact": v["impact"], "help": v["help"], "nodes": len(v["nodes"]),
                     "first": v["nodes"][0]["target"] if v["nodes"] else None}
                    for v in result
                ]
                if violations:
                    found[key] = violations
    finally:
        driver.quit()
        server.shutdown()
    print(json.dumps({"pages": len(pages), "violations": found}, indent=1))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
