"""Hostile files and environments (issue 13), each built for real: FIFOs and devices, symlink loops,
a check and a fix running side by side on one cache, a worker process killed by a signal, a
read-only file fixed by an unprivileged user, a binary config, a file deleted under `--fix`.
Every process runs with a timeout, so a regression fails instead of hanging. docs/reliability.md
lists the guarantees these tests keep."""
from __future__ import annotations

import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from nnsight_lint.doors.api import read_with_stat
from nnsight_lint.sources.cache import Cache, content_hash
from tests.support import ROOT, TWO_INVOKES, TWO_INVOKES_FIXED, run_cli

TIMEOUT = 60  # seconds; every run here takes one or two
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"}
FINDING = "3:36: NNL001 [*]"


def write(path: Path, text: str = TWO_INVOKES) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def finding_files(stdout: str):
    return sorted(line.split(":")[0] for line in stdout.splitlines())


# -- special files: only regular files are read ------------------------------------------------------


def test_a_fifo_in_a_walked_directory_is_skipped(tmp_path):
    write(tmp_path / "a.py")
    os.mkfifo(tmp_path / "pipe.py")
    for flags in ([], ["--jobs", "2"], ["--fix", "--no-cache"]):
        result = run_cli("check", *flags, ".", cwd=tmp_path, timeout=TIMEOUT)
        assert "Traceback" not in result.stderr and "pipe.py" not in result.stderr + result.stdout
    assert (tmp_path / "a.py").read_text() == TWO_INVOKES_FIXED  # the --fix run went on past it


@pytest.mark.parametrize("fix", [False, True], ids=["check", "fix"])
def test_a_named_fifo_or_device_is_refused_with_one_line(tmp_path, fix):
    os.mkfifo(tmp_path / "pipe.py")
    write(tmp_path / "a.py")
    flags = ["--fix"] if fix else []
    result = run_cli("check", *flags, "pipe.py", "/dev/zero", "a.py", cwd=tmp_path, timeout=TIMEOUT)
    assert result.returncode == 2  # as for an unreadable file
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert errors == [
        "error: pipe.py: cannot read: a named pipe (FIFO), not a regular file",
        "error: /dev/zero: cannot read: a character device, not a regular file",
    ]
    assert stat.S_ISFIFO(os.lstat(tmp_path / "pipe.py").st_mode)  # not replaced by a regular file
    if not fix:
        assert finding_files(result.stdout) == ["a.py"]  # the other file is still checked


# -- symbolic link loops: skipped with a warning, the rest checked -------------------------------------


@pytest.fixture
def looping_tree(tmp_path):
    write(tmp_path / "a.py")
    write(tmp_path / "sub" / "b.py")
    (tmp_path / "loop.py").symlink_to("loop.py")
    (tmp_path / "sub" / "up").symlink_to("..")
    return tmp_path


@pytest.mark.parametrize("flags", [[], ["--jobs", "2"], ["--fix"], ["--diff"]], ids=["check", "jobs", "fix", "diff"])
def test_symlink_loops_are_skipped_with_a_warning_and_the_rest_is_checked(looping_tree, flags):
    result = run_cli("check", "--no-cache", *flags, ".", cwd=looping_tree, timeout=TIMEOUT)
    assert "Traceback" not in result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert warnings == [
        "warning: loop.py: a symbolic link loop (too many levels of symbolic links); skipped",
        "warning: sub/up: a symbolic link loop (it leads back to ., a directory above it); skipped",
    ]
    if flags == ["--fix"]:
        assert result.returncode == 0 and "Fixed 2 problems, 0 remaining." in result.stderr
        assert (looping_tree / "sub" / "b.py").read_text() == TWO_INVOKES_FIXED
    elif flags == ["--diff"]:
        assert result.returncode == 1 and result.stdout.count("+++ b/") == 2
    else:
        assert result.returncode == 1  # findings, not a crash
        assert finding_files(result.stdout) == ["a.py", "sub/b.py"]  # each once, not once per lap


def test_a_named_symlink_loop_is_named_as_one(looping_tree):
    result = run_cli("check", "loop.py", cwd=looping_tree, timeout=TIMEOUT)
    assert result.returncode == 2
    assert result.stderr == (
        "nnsight-lint: error: loop.py: a symbolic link loop (too many levels of symbolic links)\n"
    )
    # A directory named through the cycle is walked like any other: each file once, the lap cut
    # where it comes back to the directory the walk started from.
    result = run_cli("check", "--no-cache", "sub/up/sub", cwd=looping_tree, timeout=TIMEOUT)
    assert result.returncode == 1
    assert finding_files(result.stdout) == ["sub/up/sub/b.py", "sub/up/sub/up/a.py"]
    assert "warning: sub/up/sub/up/sub: a symbolic link loop (it leads back to sub/up/sub, a directory above it)" in result.stderr


# -- the cache: keyed by what was read -----------------------------------------------------------------


def _age(path: Path, seconds: float) -> None:
    """Backdate a file, so that the cache does not treat it as just written (racy)."""
    when = time.time() - seconds
    os.utime(path, (when, when))


def test_the_cache_keys_findings_to_the_file_they_were_read_from(tmp_path):
    """The check that read the old text stores its findings after a fix replaced the file: they
    must not become the fixed file's."""
    path = write(tmp_path / "a.py")
    _age(path, 3600)
    data, status, error = read_with_stat(str(path))
    assert error is None and status is not None
    write(tmp_path / "fixed.py", TWO_INVOKES_FIXED).replace(path)  # a --fix lands meanwhile
    _age(path, 1800)
    cache = Cache(str(tmp_path / "cache"), "settings")
    cache.store(str(path), content_hash(data), [], status)  # [] stands for the old text's findings
    assert cache.lookup_by_stat(str(path)) is None
    new_data, new_status, _ = read_with_stat(str(path))
    assert cache.lookup_by_content(str(path), content_hash(new_data), new_status) is None
    # The status a file had when read does key it, once it is old enough to be trusted.
    cache.store(str(path), content_hash(new_data), [], new_status)
    assert cache.lookup_by_stat(str(path)) == []


def test_a_file_written_just_now_is_not_keyed_by_its_status(tmp_path):
    """A write in the same mtime tick as the read would leave size and mtime as they were."""
    path = write(tmp_path / "a.py")
    data, status, _ = read_with_stat(str(path))
    cache = Cache(str(tmp_path / "cache"), "settings")
    cache.store(str(path), content_hash(data), [], status)
    assert cache.lookup_by_stat(str(path)) is None
    assert cache.lookup_by_content(str(path), content_hash(data), status) == []


def test_a_fix_that_lands_while_check_runs_does_not_poison_the_cache(tmp_path):
    """An editor's check beside pre-commit's fix hook, as real processes on one tree and cache,
    with the interleaving that used to poison the cache forced rather than hoped for: the check
    has read the unfixed files, is stopped (SIGSTOP) before it stores their findings, the fix
    runs to the end, then the check goes on (SIGCONT). Seen through access times: relatime
    updates one on the first read after a backdated modification."""
    tree, cache = tmp_path / "tree", tmp_path / "cache"
    names = [f"m{i}.py" for i in range(4)]
    for name in names:
        os.utime(write(tree / name), (time.time() - 7200, time.time() - 3600))
    write(tree / "z_big.py", TWO_INVOKES * 100)  # read after m3.py: more time before the store
    last_read = tree / names[-1]
    before = last_read.stat().st_atime_ns
    check = subprocess.Popen(
        [sys.executable, "-m", "nnsight_lint", "check", "--cache-dir", str(cache), "."],
        cwd=tree, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + TIMEOUT
        while last_read.stat().st_atime_ns == before and check.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
        check.send_signal(signal.SIGSTOP)
        if last_read.stat().st_atime_ns == before:
            pytest.skip("this file system does not update access times")
        fixed = run_cli("check", "--fix", "--cache-dir", str(cache), *names, cwd=tree, timeout=TIMEOUT)
        assert fixed.returncode == 0 and "Fixed 4 problems" in fixed.stderr
        check.send_signal(signal.SIGCONT)
        _, stderr = check.communicate(timeout=TIMEOUT)
    finally:
        check.send_signal(signal.SIGCONT)
        check.kill()
    assert check.returncode == 1 and "Traceback" not in stderr  # it reported the unfixed files
    uncached = run_cli("check", "--no-cache", ".", cwd=tree, timeout=TIMEOUT)
    assert finding_files(uncached.stdout) == ["z_big.py"] * 100
    cached = run_cli("check", "--cache-dir", str(cache), ".", cwd=tree, timeout=TIMEOUT)
    assert (cached.returncode, cached.stdout) == (uncached.returncode, uncached.stdout)


# -- a worker process that dies ------------------------------------------------------------------------


def _children(pid: int):
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:  # fields[1] is the parent's pid
                yield int(entry), (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _no_core_files() -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds worker processes through /proc")
def test_a_worker_killed_by_a_signal_costs_only_its_file(tmp_path):
    """SIGSEGV, from outside, to whichever worker is still parsing the big file (it alone runs
    long): first in the process pool, then in the process the file is retried in alone."""
    for i in range(7):
        write(tmp_path / f"small{i}.py")
    write(tmp_path / "big.py", TWO_INVOKES * 1000)  # seconds of parsing: it is killed long before
    process = subprocess.Popen(
        [sys.executable, "-m", "nnsight_lint", "check", "--no-cache", "--jobs", "2", "."],
        cwd=tmp_path, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=_no_core_files,
    )
    killed = []

    def kill_the_busy_worker():
        while process.poll() is None:
            for child, cpu_seconds in _children(process.pid):
                if cpu_seconds > 0.6 and child not in killed:  # importing libcst and a small file: < 0.4 s
                    os.kill(child, signal.SIGSEGV)
                    killed.append(child)
            time.sleep(0.02)

    killer = threading.Thread(target=kill_the_busy_worker)
    killer.start()
    try:
        stdout, stderr = process.communicate(timeout=TIMEOUT)
    finally:
        process.kill()
        killer.join()
    assert len(killed) == 2, stderr  # the pool's worker, then the lone retry
    assert "Traceback" not in stderr
    assert finding_files(stdout) == [f"small{i}.py" for i in range(7)]
    assert stderr.splitlines()[0] == (
        "error: big.py: internal error: the parser crashed on this file "
        "(its worker process was killed by SIGSEGV); the other files were checked"
    )
    assert process.returncode == 2


# -- read-only files and owners, as a real unprivileged user ------------------------------------------

NOBODY = 65534
# The interpreter lives under /root (0700 here), which no other user may enter: so the launcher
# starts as root, imports everything a fix needs (running one), then becomes nobody for good
# (groups, gid, uid) before the command line runs. Every file system call of the run is nobody's.
LAUNCHER = """\
import os, sys, tempfile, pwd, grp
from nnsight_lint.doors import cli
warm = tempfile.mkdtemp()
with open(os.path.join(warm, "w.py"), "w") as handle:
    handle.write(sys.argv[2])
cli.main(["check", "--fix", "--no-cache", "-q", os.path.join(warm, "w.py")])
cli.main(["check", "--no-cache", "-q", os.path.join(warm, "w.py")])
os.setgroups([])
os.setgid(65534)
os.setuid(65534)
os.chdir(sys.argv[1])
sys.stdout.flush()
sys.exit(cli.main(sys.argv[3:]))
"""


def run_as_nobody(directory: Path, *args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", LAUNCHER, str(directory), TWO_INVOKES, *args],
        capture_output=True, text=True, env=ENV, timeout=TIMEOUT,
    )


@pytest.fixture
def nobodys_directory():
    if os.geteuid() != 0:
        pytest.skip("making files another user's needs root")
    try:
        import pwd

        pwd.getpwuid(NOBODY)
    except KeyError:
        pytest.skip("no unprivileged user 'nobody' (uid 65534) on this machine")
    directory = Path(tempfile.mkdtemp(prefix="nnsight-lint-nobody-"))  # outside pytest's 0700 tree
    directory.chmod(0o755)
    os.chown(directory, NOBODY, NOBODY)
    yield directory
    shutil.rmtree(directory)


def test_a_read_only_file_is_not_fixed_and_its_findings_are_reported(nobodys_directory):
    path = write(nobodys_directory / "ro.py")
    os.chown(path, NOBODY, NOBODY)
    path.chmod(0o444)
    result = run_as_nobody(nobodys_directory, "check", "--fix", "--no-cache", "ro.py")
    assert result.returncode == 2
    assert result.stderr.splitlines()[0] == (
        "error: ro.py: cannot fix: the file is read-only for this user (mode 0444); the file was left unchanged"
    )
    assert result.stdout.startswith(f"ro.py:{FINDING}")  # still there, still fixable
    assert path.read_text() == TWO_INVOKES and stat.S_IMODE(path.stat().st_mode) == 0o444
    assert sorted(os.listdir(nobodys_directory)) == ["ro.py"]


def test_a_group_the_fixer_cannot_keep_is_reported(nobodys_directory):
    path = write(nobodys_directory / "shared.py")
    os.chown(path, NOBODY, 0)  # group root: nobody may write the file but not give it that group
    path.chmod(0o664)
    result = run_as_nobody(nobodys_directory, "check", "--fix", "--no-cache", "shared.py")
    assert result.returncode == 0, result.stderr
    assert path.read_text() == TWO_INVOKES_FIXED
    assert result.stderr.splitlines()[0] == (
        "warning: shared.py: fixed, but its group could not be kept: it is now nobody:nogroup (was nobody:root)"
    )
    assert (path.stat().st_uid, stat.S_IMODE(path.stat().st_mode)) == (NOBODY, 0o664)


def test_root_fixing_another_users_file_keeps_its_owner_and_group(nobodys_directory):
    path = write(nobodys_directory / "theirs.py")
    os.chown(path, NOBODY, NOBODY)
    path.chmod(0o640)
    result = run_cli("check", "--fix", "--no-cache", "theirs.py", cwd=nobodys_directory, timeout=TIMEOUT)
    assert result.returncode == 0 and "warning" not in result.stderr
    assert path.read_text() == TWO_INVOKES_FIXED
    status = path.stat()
    assert (status.st_uid, status.st_gid, stat.S_IMODE(status.st_mode)) == (NOBODY, NOBODY, 0o640)


# -- configuration that is not text --------------------------------------------------------------------


def test_a_pyproject_that_is_not_utf8_is_one_error_line(tmp_path):
    (tmp_path / "pyproject.toml").write_bytes(b'[tool.nnsight-lint]\nselect = ["NNL\xff"]\n')
    write(tmp_path / "a.py")
    result = run_cli("check", "a.py", cwd=tmp_path, timeout=TIMEOUT)
    assert result.returncode == 2
    assert result.stderr == (
        f"nnsight-lint: error: {tmp_path / 'pyproject.toml'}: invalid TOML: not UTF-8 text (byte 0xff at line 2, column 15)\n"
    )


def test_a_binary_config_file_is_one_error_line(tmp_path):
    (tmp_path / "settings.bin").write_bytes(bytes(range(256)))
    write(tmp_path / "a.py")
    result = run_cli("check", "--config", "settings.bin", "a.py", cwd=tmp_path, timeout=TIMEOUT)
    assert result.returncode == 2
    assert result.stderr.startswith("nnsight-lint: error: settings.bin: invalid TOML: ")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


# -- --diff and --fix in their corners -----------------------------------------------------------------

BROKEN = "with model.trace() as tracer:\n    loss.backward(\n"


def test_diff_of_a_file_it_cannot_parse_says_so_and_exits_1(tmp_path):
    write(tmp_path / "broken.py", BROKEN)
    result = run_cli("check", "--diff", "broken.py", cwd=tmp_path, timeout=TIMEOUT)
    assert result.returncode == 1
    assert result.stdout == ""  # stdout stays a patch
    assert result.stderr.startswith("broken.py:") and " NNL000 " in result.stderr.splitlines()[0]
    assert run_cli("check", "--diff", "--exit-zero", "broken.py", cwd=tmp_path, timeout=TIMEOUT).returncode == 0


def test_a_file_deleted_while_it_is_fixed_is_not_recreated(tmp_path):
    """Deleted after --fix read it and before it wrote it back. The read is seen through the
    file's access time (relatime updates it once it is older than the modification time)."""
    path = write(tmp_path / "big.py", TWO_INVOKES * 200)  # fixing it takes a good fraction of a second
    os.utime(path, (time.time() - 7200, time.time() - 3600))  # atime before mtime
    before = path.stat().st_atime_ns
    process = subprocess.Popen(
        [sys.executable, "-m", "nnsight_lint", "check", "--fix", "--no-cache", "big.py"],
        cwd=tmp_path, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + TIMEOUT
        while path.stat().st_atime_ns == before and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        if path.stat().st_atime_ns == before:
            process.kill()
            pytest.skip("this file system does not update access times")
        path.unlink()
        stdout, stderr = process.communicate(timeout=TIMEOUT)
    finally:
        process.kill()
    assert not path.exists()
    assert sorted(os.listdir(tmp_path)) == []  # no temporary file left either
    assert "error: big.py: the file was deleted while it was being fixed; it was not re-created" in stderr
    assert process.returncode == 2
