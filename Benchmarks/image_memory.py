#!/usr/bin/env python3
"""Peak memory of a first build with many photos: the issue's bound is 2,000 photos within 2 GiB.

    python3 Benchmarks/image_memory.py --tessera .build/release/tessera [--photos 2000] [--work DIR]

The photos are image_compare.py's corpus (3000x2000 JPEGs, made there first), each used again
under new names with a JPEG comment (a COM segment) that makes its bytes, and so its digest,
its own: Tessera makes every one of them (identical bytes would share their files). The site is
image_compare.py's Tessera site (an image field and a 320x213 thumbnail per page, WebP at five
widths and a JPEG fallback). One first build with an empty build cache, on the project's disk; it prints
the wall time, the peak resident memory, and the files made.
"""
import argparse, glob, importlib.util, os, shutil, sys

spec = importlib.util.spec_from_file_location("image_compare", os.path.join(os.path.dirname(os.path.abspath(__file__)), "image_compare.py"))
compare = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare)


def with_comment(jpeg, text):
    """The JPEG with a comment segment right after its SOI marker."""
    payload = text.encode()
    return jpeg[:2] + b"\xff\xfe" + (len(payload) + 2).to_bytes(2, "big") + payload + jpeg[2:]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tessera", required=True)
    parser.add_argument("--photos", type=int, default=2000)
    parser.add_argument("--work", default=os.path.join(compare.REPOSITORY, ".build", "bench-images-memory"))
    parser.add_argument("--corpus", default=None, help="image_compare.py's corpus folder (default: its work folder for 204 photos)")
    args = parser.parse_args()
    sources = sorted(glob.glob(os.path.join(args.corpus or os.path.join(compare.REPOSITORY, ".build", "bench-images-204", "corpus"), "p*.jpg")))
    if not sources:
        sys.exit("no corpus: run image_compare.py first (or pass --corpus)")
    photos_folder = os.path.join(args.work, "photos")
    os.makedirs(photos_folder, exist_ok=True)
    photos = []
    for number in range(1, args.photos + 1):
        path = os.path.join(photos_folder, f"m{number:04}.jpg")
        if not os.path.exists(path):
            with open(sources[(number - 1) % len(sources)], "rb") as source, open(path, "wb") as out:
                out.write(with_comment(source.read(), f"copy {number}"))
        photos.append(path)
    site = os.path.join(args.work, "site")
    shutil.rmtree(site, ignore_errors=True)
    compare.tessera_site(site, photos, "webp")
    # A fresh site: an empty build cache on the project's disk, as a first build has.
    wall, peak, (out, err) = compare.timed([os.path.abspath(args.tessera), "build", "--source", site])
    made = sum(1 for _, _, files in os.walk(os.path.join(site, "public", "photos")) for name in files if name.count(".") == 3)
    print(f"{args.photos} photos: {wall:.1f} s, peak {peak:.0f} MiB ({peak / 1024:.2f} GiB), {made} image files made")
    print(out.splitlines()[0] if out else err[-500:])


if __name__ == "__main__":
    main()
