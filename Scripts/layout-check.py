#!/usr/bin/env python3
"""Checks a built site's pages in headless Chromium as a phone reader meets them: no page is wider
than the screen (320 and 390 px), and no keyboard focus stop lies under the fixed bottom tab bar
(WCAG 2.2, 2.4.11) while tabbing through the page at 390x700.

    python3 Scripts/layout-check.py public index.html blog/index.html ...

Needs Debian's chromium and chromium-driver and PyPI's selenium (`make test` installs them).
Prints a JSON report; exits 1 when a page fails, 2 when a tool is missing.
"""
import json
import sys

import browser_site

FOCUS = """
const active = document.activeElement, bar = document.querySelector('.main-menu');
if (!active || active === document.body) return null;
// Marked when first focused: focus on a marked element means the tab order came round.
const again = active.dataset.layoutCheckSeen === "1";
active.dataset.layoutCheckSeen = "1";
const box = active.getBoundingClientRect();
const fixed = bar && getComputedStyle(bar).position === 'fixed' && !bar.contains(active);
return { again, name: (active.tagName + ' ' + (active.textContent || active.getAttribute('aria-label') || '')).trim().slice(0, 40),
         bottom: box.bottom, top: box.top, bar: fixed ? bar.getBoundingClientRect().top : null };
"""


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    folder, pages = sys.argv[1], sys.argv[2:]
    try:
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys
    except ImportError as error:
        print(f"missing: {error}", file=sys.stderr)
        return 2
    server = browser_site.serve(folder)
    driver = browser_site.chromium(390, 700, extra=("--hide-scrollbars",))
    problems, stops = {}, 0
    try:
        for page in pages:
            url = f"http://127.0.0.1:{server.server_port}/{page}"
            for width in (320, 390):
                driver.set_window_size(width, 700)
                driver.get(url)
                wide = driver.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
                if wide[0] > wide[1]:
                    problems.setdefault(page, []).append(f"{wide[0]} px wide at {width} px")
            driver.set_window_size(390, 700)
            driver.get(url)
            driver.execute_script("document.documentElement.style.scrollBehavior = 'auto'")
            for _ in range(300):
                ActionChains(driver).send_keys(Keys.TAB).perform()
                focus = driver.execute_script(FOCUS)
                if focus is None:
                    continue
                if focus["again"]:
                    break
                stops += 1
                if focus["bar"] is not None and focus["bottom"] > focus["bar"] + 1:
                    problems.setdefault(page, []).append(f"focus on '{focus['name']}' ends at {round(focus['bottom'])}, under the tab bar at {round(focus['bar'])}")
    finally:
        driver.quit()
        server.shutdown()
    print(json.dumps({"pages": len(pages), "focusStops": stops, "problems": problems}, indent=1, ensure_ascii=False))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
