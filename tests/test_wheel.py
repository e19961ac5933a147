"""paifu as a user installs it: a wheel built from the tree, installed into a fresh venv.

The wheel is built from a copy of the files git knows (tracked, or new and not ignored), so
a file the build leaves out, or a module only the repository's own folders provide, fails
here: from another directory, the installed ``paifu`` lists all ten games, validates every
example, imports a Tenhou log, serves the viewer's index page and answers as a library. The
wheel holds ``paifu/`` and its dist-info and nothing else, and every file of the tree's
package folders is in it (setup.py's FOLDERS: the package -> folder mapping).
"""

from __future__ import annotations

import ast
import http.client
import os
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import zipfile
from pathlib import Path

import pytest

from paifu.replay.games import GAME_MODULES

ROOT = Path(__file__).parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.paifu"))
TENHOU_LOG = ROOT / "tests" / "data" / "tenhou" / "chankan.json"


def folders() -> dict[str, str]:
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "FOLDERS" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("setup.py has no FOLDERS mapping")


def tree_files() -> list[str]:
    """The files of the working tree git would commit (tracked, or untracked and not ignored)."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT,
                         capture_output=True, check=True).stdout.decode()
    return [f for f in out.split("\0") if f and (ROOT / f).is_file()]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the fresh venv's bin folder, the wheel) once the wheel is built and installed."""
    if shutil.which("git") is None:
        pytest.skip("git is needed to list the tree's files")
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    for f in tree_files():
        (src / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / f, src / f)
    dist = base / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation", "-q",
                    "--disable-pip-version-check", "-w", str(dist)], check=True, capture_output=True)
    wheel = next(dist.glob("paifu-*.whl"))
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    bin_dir = venv / "bin"
    subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "--no-deps", "--no-index", "-q",
                    "--disable-pip-version-check", str(wheel)], check=True, capture_output=True)
    # The dependencies come from this interpreter's site-packages, added as a plain path:
    # its .pth files (this checkout's editable install among them) are not run from there.
    site = subprocess.run([str(bin_dir / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    Path(site, "deps-of-the-test.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return bin_dir, wheel, base


def run(installed, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    bin_dir, _, base = installed
    elsewhere = base / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    return subprocess.run([str(bin_dir / args[0]), *args[1:]], cwd=elsewhere, input=stdin, capture_output=True, env=env,
                          timeout=300)


def test_the_wheel_holds_paifu_and_every_file_of_its_folders(installed):
    _, wheel, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {n.split("/")[0] for n in names} == {"paifu", f"{wheel.name.split('-')[0]}-{wheel.name.split('-')[1]}.dist-info"}
    expected = set()
    mapping = folders()
    for f in tree_files():
        for package, folder in mapping.items():
            if f.startswith(folder + "/") and "__pycache__" not in f:
                expected.add("/".join([*package.split("."), f[len(folder) + 1:]]))
    shipped = {n for n in names if n.startswith("paifu/")}
    assert shipped == expected, (sorted(expected - shipped), sorted(shipped - expected))
    for module in GAME_MODULES.values():
        path = module.replace(".", "/")
        assert f"{path}.py" in shipped or f"{path}/__init__.py" in shipped, module


def test_the_installed_command_lists_the_ten_games_and_validates_every_example(installed):
    rules = run(installed, "paifu", "rules")
    assert rules.returncode == 0, rules.stderr.decode()
    for game in GAME_MODULES:
        assert game in rules.stdout.decode(), game
    val = run(installed, "paifu", "validate", *map(str, EXAMPLES))
    assert val.returncode == 0, val.stdout.decode()[-2000:]
    assert f"{len(EXAMPLES)} record(s): {len(EXAMPLES)} valid, 0 invalid; 0 error(s)" in val.stdout.decode()
    assert run(installed, "python", "-m", "paifu", "rules", "sanma").returncode == 0


def test_the_installed_command_imports_a_tenhou_log_and_validates_it(installed):
    imported = run(installed, "paifu", "import", "tenhou", str(TENHOU_LOG))
    assert imported.returncode == 0, imported.stderr.decode()
    assert b'[Game "sanma"]' in imported.stdout
    val = run(installed, "paifu", "validate", "-", stdin=imported.stdout)
    assert val.returncode == 0 and b"1 record(s): 1 valid" in val.stdout, val.stdout.decode()


def test_the_installed_library_is_one_import_package(installed):
    code = ("import paifu, paifu.notation, paifu.replay, paifu.viewer, paifu.schemas, sys\n"
            "r = paifu.parse(open(sys.argv[1], encoding='utf-8').read())\n"
            "print(paifu.__file__); print(paifu.validate(r).valid); print(paifu.write_record(r) == open(sys.argv[1], encoding='utf-8').read())\n"
            "print(paifu.schemas.RECORD.is_file())\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('notation', 'replay', 'viewer', 'schemas')))")
    out = run(installed, "python", "-c", code, str(ROOT / "examples" / "bigtwo-club-night.paifu"))
    import paifu

    assert set(paifu.__all__) == set(paifu._API) | {"__version__"}
    assert all(getattr(paifu, name) is not None for name in paifu.__all__)
    assert out.returncode == 0, out.stderr.decode()
    where, valid, round_trip, schema, strays = out.stdout.decode().splitlines()
    assert Path(where).is_relative_to(installed[0].parent), where  # the venv's copy, not this checkout
    assert (valid, round_trip, schema, strays) == ("True", "True", "True", "[]")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_installed_viewer_serves_its_index_page(installed):
    bin_dir, _, base = installed
    port = free_port()
    proc = subprocess.Popen([str(bin_dir / "paifu"), "view", str(ROOT / "examples"), "--port", str(port)],
                            cwd=base, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        body = ""
        while not all(e.name in body for e in EXAMPLES):  # the first scan lists the files as it reads them
            assert time.monotonic() < deadline, f"the viewer did not list every example within 60 s: {body[-500:]}"
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                conn.request("GET", "/")
                resp = conn.getresponse()
                body = resp.read().decode()
                assert resp.status == 200, body
            except OSError:
                assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            time.sleep(0.2)
        assert 'href="/record/sanma-half-game.paifu?n=1"' in body
    finally:
        proc.terminate()
        proc.wait(timeout=30)
