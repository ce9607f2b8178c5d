#!/usr/bin/env python3
"""Page weight: how many bytes a browser downloads to show one page.

Loads URL in headless Chromium (fresh profile, cache disabled) at a phone-sized
window, waits for the load event, optionally scrolls slowly to the bottom so
lazy images load too, then sums the Resource Timing entries (plus the
navigation entry for the HTML itself), grouped by initiatorType:

    img     <img> and <picture> (CSS backgrounds count as css)
    css     stylesheets (<link>) and what they load (fonts, backgrounds)
    script  scripts and what they fetch
    other   the document and everything else

transferSize is the bytes over the wire (headers included, compressed);
encodedBodySize is the body as sent. Both need a same-origin server or
Timing-Allow-Origin, which `python3 -m http.server` is.

Needs selenium 4, /usr/bin/chromedriver and /usr/bin/chromium.

    python3 -m http.server 8771 --directory public &
    python3 Benchmarks/page_weight.py http://localhost:8771/blog/
    python3 Benchmarks/page_weight.py http://localhost:8771/blog/ --dpr 3 --scroll
    python3 Benchmarks/page_weight.py URL --width 1280 --height 900 --json
"""

import argparse
import json
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

GROUPS = ("img", "css", "script", "other")

ENTRIES_JS = """
const nav = performance.getEntriesByType('navigation').map(e => ({
  name: e.name, type: 'other', transfer: e.transferSize, body: e.encodedBodySize}));
const res = performance.getEntriesByType('resource').map(e => ({
  name: e.name, type: e.initiatorType, transfer: e.transferSize, body: e.encodedBodySize}));
return nav.concat(res);
"""


def open_browser(width, height, dpr):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-cache", "--disk-cache-size=1", "--incognito",
                "--hide-scrollbars", f"--window-size={width},{height}",
                f"--force-device-scale-factor={dpr}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    # The window size includes no browser chrome in headless mode; pin the viewport anyway.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": dpr, "mobile": width < 768})
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    driver.execute_script("performance.setResourceTimingBufferSize(10000)")
    return driver


def wait_for_load(driver, timeout=30):
    end = time.time() + timeout
    while driver.execute_script("return document.readyState") != "complete" and time.time() < end:
        time.sleep(0.1)


def scroll_to_bottom(driver, step=300, pause=0.15):
    """Scroll a viewport-ish step at a time, so lazy images enter the viewport and load."""
    y = 0
    while y < driver.execute_script("return document.documentElement.scrollHeight"):
        y += step
        driver.execute_script("window.scrollTo(0, arguments[0])", y)
        time.sleep(pause)
    time.sleep(1.0)  # let the last requests finish


def measure(url, width=390, height=844, dpr=1, scroll=False):
    """Returns {group: {"count", "transfer", "body"}} plus "total", and the raw entries."""
    driver = open_browser(width, height, dpr)
    try:
        driver.get(url)
        wait_for_load(driver)
        if scroll:
            scroll_to_bottom(driver)
        time.sleep(0.5)
        entries = driver.execute_script(ENTRIES_JS)
    finally:
        driver.quit()
    sums = {g: {"count": 0, "transfer": 0, "body": 0} for g in GROUPS + ("total",)}
    for e in entries:
        group = {"link": "css"}.get(e["type"], e["type"])
        group = group if group in GROUPS else "other"
        for g in (group, "total"):
            sums[g]["count"] += 1
            sums[g]["transfer"] += e["transfer"] or 0
            sums[g]["body"] += e["body"] or 0
    return sums, entries


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("url")
    p.add_argument("--width", type=int, default=390)
    p.add_argument("--height", type=int, default=844)
    p.add_argument("--dpr", type=float, default=1, help="device scale factor (1, 2, 3…)")
    p.add_argument("--scroll", action="store_true", help="scroll to the bottom so lazy images load")
    p.add_argument("--list", action="store_true", help="also list every resource")
    p.add_argument("--json", action="store_true", help="print the sums as JSON")
    a = p.parse_args()

    sums, entries = measure(a.url, a.width, a.height, a.dpr, a.scroll)
    if a.json:
        print(json.dumps(sums))
        return
    print(f"{a.url}  {a.width}x{a.height} @{a.dpr:g}x{'  scrolled' if a.scroll else ''}")
    print(f"{'type':<8}{'requests':>9}{'transfer B':>13}{'body B':>13}")
    for g in GROUPS + ("total",):
        s = sums[g]
        print(f"{g:<8}{s['count']:>9}{s['transfer']:>13,}{s['body']:>13,}")
    if a.list:
        for e in sorted(entries, key=lambda e: -(e["transfer"] or 0)):
            print(f"  {e['type']:<8}{e['transfer'] or 0:>10,}  {e['name']}")


if __name__ == "__main__":
    main()
