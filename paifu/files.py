"""Writing a user's files safely: all or nothing, keeping what the user owns, never through
a link leading out of the folder the user named (:func:`within`)."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

CHANGED = "the file changed since it was read (run paifu fmt again)"
DEFAULT_DB = "paifu.sqlite"  # the archive index's file when --db is left out (paifu index, search, view)


def _tempfile():
    """The ``tempfile`` module, imported when a file is written (the command line imports
    this module at every start, for :data:`DEFAULT_DB`)."""
    import tempfile

    return tempfile


def unchanged(target: Path, data: bytes, read_stat: os.stat_result) -> bool:
    """Whether the file is still the one read (same inode, size, time and bytes)."""
    try:
        now = os.stat(target)
        if (now.st_ino, now.st_size, now.st_mtime_ns) != (read_stat.st_ino, read_stat.st_size, read_stat.st_mtime_ns):
            return False
        return target.read_bytes() == data
    except OSError:
        return False


def write_keeping(target: Path, new: bytes, data: bytes, read_stat: os.stat_result) -> tuple[str | None, bool]:
    """Write ``new`` over ``target``, keeping what the user owns: (why not, in words, or
    None; whether the file was rewritten in place).

    The write is all or nothing: a temporary file in the same folder, given the file's mode
    and owner, flushed to disk (``fsync``), then renamed over the target (``os.replace``,
    the folder flushed too). A reader sees the old text or the new, never a mixture, and a
    crash leaves one of the two. A file with hard links is replaced the same way: the name
    given gets a new file; its other names keep the old text (no write can change several
    names at once and be all or nothing). Only where no such file can be made, a folder this
    user cannot write or an owner this user cannot give, is the file rewritten in place
    (flushed to disk; not all or nothing: docs/robustness.md).
    """
    if not unchanged(target, data, read_stat):
        return CHANGED, False
    mode = stat.S_IMODE(read_stat.st_mode)
    try:
        fd, tmp = _tempfile().mkstemp(prefix=".paifu-fmt-", dir=str(target.parent))
    except OSError:
        return _write_in_place(target, new, data, read_stat)  # an unwritable folder: the file itself may be writable
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(new)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            if (read_stat.st_uid, read_stat.st_gid) != (os.geteuid(), os.getegid()):
                try:
                    os.fchown(handle.fileno(), read_stat.st_uid, read_stat.st_gid)
                except OSError:  # we cannot give the file back to its owner
                    handle.close()
                    os.unlink(tmp)
                    tmp = None
                    return _write_in_place(target, new, data, read_stat)
            os.fsync(handle.fileno())
        if not unchanged(target, data, read_stat):
            return CHANGED, False
        os.replace(tmp, target)
        tmp = None
        _sync_folder(target.parent)
        return None, False
    except OSError as err:
        return f"cannot write: {err.strerror or err}", False
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _write_in_place(target: Path, new: bytes, data: bytes, read_stat: os.stat_result) -> tuple[str | None, bool]:
    """Rewrite the file itself (its inode, owner and links stay), flushed to disk."""
    try:
        with open(target, "r+b") as handle:
            if not unchanged(target, data, read_stat):
                return CHANGED, True
            handle.write(new)
            handle.truncate()
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as err:
        return f"cannot write: {err.strerror or err}", True
    return None, True


def _sync_folder(folder: Path) -> None:
    """Flush a folder's entries to disk (a rename is durable only then); where a folder
    cannot be opened so (Windows), the rename stands as the system keeps it."""
    try:
        fd = os.open(str(folder), os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_whole(target: Path, text: str) -> str | None:
    """Write ``text`` to ``target`` all or nothing (a temporary file in the same folder,
    flushed, then renamed over it); why not, in words, or None. On failure nothing is left
    behind: neither a partial file nor an empty one."""
    try:
        fd, tmp = _tempfile().mkstemp(prefix="." + target.name + ".", suffix=".tmp", dir=str(target.parent or "."))
    except OSError as err:
        return f"cannot write: {err.strerror or err}"
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fchmod(handle.fileno(), _new_file_mode(target))
            os.fsync(handle.fileno())
        os.replace(tmp, target)
        _sync_folder(target.parent if str(target.parent) else Path("."))
        return None
    except OSError as err:
        return f"cannot write: {err.strerror or err}"
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _new_file_mode(target: Path) -> int:
    """The mode a file written over ``target`` gets: the old file's, else what ``open`` would give."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


class Refused(ValueError):
    """A path the user's folder does not hold: a link leading out of it, or one that leads nowhere."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def within(root: Path, path: Path, must_exist: bool = True) -> Path:
    """The real path of ``path`` (every symbolic link followed), refused unless it lies inside
    the folder ``root``: a link leading out of the folder, a link to a missing file (a
    *dangling* link) and a loop of links raise :class:`Refused`. Every file the viewer and
    the scribe read, list or write goes through here. With ``must_exist`` False a path not
    there yet (a record about to be created) is accepted when its folder lies inside."""
    base = Path(os.path.realpath(root))
    try:
        real = path.resolve(strict=True)
    except FileNotFoundError:
        if os.path.islink(path):
            raise Refused("a symbolic link to a missing file (not read)") from None
        if must_exist:
            raise Refused("no such file") from None
        real = Path(os.path.realpath(path))
    except (RuntimeError, OSError) as err:  # RuntimeError: a loop before Python 3.13
        if isinstance(err, OSError) and err.errno != errno.ELOOP:
            raise Refused(f"cannot be read: {err.strerror or err}") from None
        raise Refused("a loop of symbolic links (not read)") from None
    if real != base and not real.is_relative_to(base):
        raise Refused("a symbolic link leading outside the folder (not read)" if os.path.islink(path)
                      else "outside the folder (not read)")
    return real
