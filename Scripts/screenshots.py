#!/usr/bin/env python3
"""Screenshots of every page of a built site, and contact sheets of them.

Builds nothing: serve the built site first, for example

    tessera build && python3 -m http.server 8123 -d public --bind 127.0.0.1 &
    python3 Scripts/screenshots.py --url http://127.0.0.1:8123

Pages come from public/sitemap.xml (or, without one, every index.html under public/, plus
404.html). Each page is shot at 320, 390, 768, 1280 and 1920 px wide, in light, dark and forced
colours (Windows high contrast), by headless Chromium driven over the DevTools protocol
(needs the `websocket-client` package). Every shot also measures the document's scrollWidth:
a page wider than the window (horizontal scrolling) is reported, and the exit status is 1.

Full shots go to --shots (default /tmp/tessera-shots, not committed). Contact sheets of a few
representative pages, downscaled JPEGs (Pillow), go to --sheets (default
Documentation/screenshots/): one per colour scheme, a row per page, a column per width.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import base64
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

try:
    import websocket  # websocket-client
except ImportError:  # pragma: no cover
    sys.exit("screenshots.py needs websocket-client: pip install websocket-client")

WIDTHS = [320, 390, 768, 1280, 1920]
SCHEMES = {
    "light": [{"name": "prefers-color-scheme", "value": "light"}, {"name": "forced-colors", "value": "none"}],
    "dark": [{"name": "prefers-color-scheme", "value": "dark"}, {"name": "forced-colors", "value": "none"}],
    "forced": [{"name": "prefers-color-scheme", "value": "light"}, {"name": "forced-colors", "value": "active"}],
}
SHEET_PAGES = ["/", "/ar/", "/de/billing/", "/activity/", "/components/", "/blog/",
               "/blog/accessible-cards/", "/guides/feeds/", "/courses/", "/404.html"]


def pages_of(public: Path, base: str):
    sitemap = public / "sitemap.xml"
    paths = []
    if sitemap.exists():
        root = ET.parse(sitemap).getroot()
        for loc in root.iter():
            if loc.tag.endswith("loc") and loc.text:
                path = re.sub(r"^[a-z]+://[^/]+", "", loc.text.strip())
                paths.append(path or "/")
    if not paths:
        for index in sorted(public.rglob("index.html")):
            rel = index.parent.relative_to(public).as_posix()
            paths.append("/" if rel == "." else f"/{rel}/")
    if (public / "404.html").exists() and "/404.html" not in paths:
        paths.append("/404.html")
    seen = []
    for p in paths:
        if p not in seen:
            seen.append(p)
    return seen


class Browser:
    def __init__(self, binary: str):
        self.profile = tempfile.mkdtemp(prefix="tessera-shots-")
        self.proc = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--hide-scrollbars", "--disable-gpu",
             "--remote-debugging-port=0", f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = Path(self.profile) / "DevToolsActivePort"
        for _ in range(200):
            if port_file.exists() and port_file.read_text().strip():
                break
            time.sleep(0.05)
        port = port_file.read_text().split()[0]
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        page = next(t for t in targets if t.get("type") == "page")
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=60)
        self.next_id = 0
        self.send("Page.enable")
        self.send("Runtime.enable")

    def send(self, method, **params):
        self.next_id += 1
        my_id = self.next_id
        self.ws.send(json.dumps({"id": my_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == my_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def wait_for(self, event, timeout=20):
        end = time.time() + timeout
        while time.time() < end:
            message = json.loads(self.ws.recv())
            if message.get("method") == event:
                return message
        raise TimeoutError(event)

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        return result.get("result", {}).get("value")

    def shoot(self, url, width, features, max_height):
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=800, deviceScaleFactor=1,
                  mobile=width < 768)
        self.send("Emulation.setEmulatedMedia", media="screen", features=features)
        self.send("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")
        self.evaluate("document.fonts ? document.fonts.ready.then(() => true) : true")
        time.sleep(0.05)
        metrics = self.evaluate(
            "({scroll: document.documentElement.scrollWidth, inner: window.innerWidth,"
            " height: document.documentElement.scrollHeight})")
        height = min(metrics["height"], max_height)
        # A window as tall as the page, so fixed bars (the phone tab bar) sit at its end, not mid-shot.
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=max(height, 800), deviceScaleFactor=1,
                  mobile=width < 768)
        time.sleep(0.05)
        shot = self.send("Page.captureScreenshot", format="png", captureBeyondViewport=False,
                         clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1})
        return base64.b64decode(shot["data"]), metrics

    def close(self):
        try:
            self.ws.close()
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            shutil.rmtree(self.profile, ignore_errors=True)


def slug(path):
    s = path.strip("/").replace("/", "_").replace(".html", "")
    return s or "home"


def contact_sheet(shots: Path, scheme, pages, widths, out: Path, column=220, cell_height=520):
    from PIL import Image, ImageDraw
    label_w, head_h, pad = 150, 28, 10
    rows = [p for p in pages if (shots / f"{slug(p)}--{widths[0]}--{scheme}.png").exists()]
    if not rows:
        return None
    sheet = Image.new("RGB", (label_w + len(widths) * (column + pad) + pad, head_h + len(rows) * (cell_height + pad) + pad),
                      (236, 238, 241))
    draw = ImageDraw.Draw(sheet)
    for c, w in enumerate(widths):
        draw.text((label_w + c * (column + pad) + pad, 8), f"{w} px · {scheme}", fill=(20, 20, 20))
    for r, page in enumerate(rows):
        y = head_h + r * (cell_height + pad) + pad
        draw.text((8, y + 4), page, fill=(20, 20, 20))
        for c, w in enumerate(widths):
            f = shots / f"{slug(page)}--{w}--{scheme}.png"
            if not f.exists():
                continue
            img = Image.open(f).convert("RGB")
            scale = column / img.width
            img = img.resize((column, max(1, int(img.height * scale))), Image.LANCZOS)
            img = img.crop((0, 0, column, min(img.height, cell_height)))
            sheet.paste(img, (label_w + c * (column + pad) + pad, y))
    out.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(out, "JPEG", quality=62, optimize=True, progressive=True)
    return out


def main():
    here = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", default="http://127.0.0.1:8123", help="the running server serving the built site")
    ap.add_argument("--public", default=str(here / "public"), help="the built site (for sitemap.xml)")
    ap.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser") or "google-chrome",
                    help="the Chromium (or Chrome) binary")
    ap.add_argument("--shots", default="/tmp/tessera-shots", help="where full-size shots go")
    ap.add_argument("--sheets", default=str(here / "Documentation" / "screenshots"), help="where contact sheets go")
    ap.add_argument("--widths", default=",".join(map(str, WIDTHS)))
    ap.add_argument("--schemes", default=",".join(SCHEMES))
    ap.add_argument("--pages", default="", help="comma-separated paths instead of every page")
    ap.add_argument("--sheet-pages", default=",".join(SHEET_PAGES), help="pages in the contact sheets")
    ap.add_argument("--max-height", type=int, default=6000, help="cut full-page shots at this height")
    ap.add_argument("--no-sheets", action="store_true")
    args = ap.parse_args()

    widths = [int(w) for w in args.widths.split(",") if w]
    schemes = [s for s in args.schemes.split(",") if s]
    pages = [p for p in args.pages.split(",") if p] or pages_of(Path(args.public), args.url)
    shots = Path(args.shots)
    shots.mkdir(parents=True, exist_ok=True)

    overflow = []
    browser = Browser(args.chromium)
    try:
        for page in pages:
            for scheme in schemes:
                for width in widths:
                    png, m = browser.shoot(args.url.rstrip("/") + page, width, SCHEMES[scheme], args.max_height)
                    (shots / f"{slug(page)}--{width}--{scheme}.png").write_bytes(png)
                    if m["scroll"] > m["inner"]:
                        overflow.append(f"{page} at {width} px ({scheme}): scrollWidth {m['scroll']} > {m['inner']}")
            print(f"shot {page}", file=sys.stderr)
    finally:
        browser.close()

    print(f"{len(pages)} pages x {len(widths)} widths x {len(schemes)} schemes -> {shots}")
    if not args.no_sheets:
        sheet_pages = [p for p in args.sheet_pages.split(",") if p]
        for scheme in schemes:
            out = contact_sheet(shots, scheme, sheet_pages, widths, Path(args.sheets) / f"{scheme}.jpg")
            if out:
                print(f"contact sheet {out} ({out.stat().st_size // 1024} KB)")
    if overflow:
        print("Horizontal overflow:\n  " + "\n  ".join(overflow))
        return 1
    print("No horizontal overflow at any width.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
