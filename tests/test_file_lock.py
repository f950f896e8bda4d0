"""wapii's one lock mechanism (wapii_core.base.file_lock): flock on an open file."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from wapii_core.base.file_lock import flock, locked


def _open(path: Path) -> int:
    return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)


def test_exclusive_excludes_every_other_descriptor_until_closed(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    first, second, third = _open(path), _open(path), _open(path)
    try:
        assert flock(first, wait=False)
        assert not flock(second, wait=False)  # another open file, even in this process
        assert not flock(third, shared=True, wait=False)
        os.close(first)
        first = -1
        assert flock(second, wait=False)  # closing released it
    finally:
        for fd in (first, second, third):
            if fd >= 0:
                os.close(fd)


def test_shared_holders_share_and_exclude_a_writer(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    readers = [_open(path), _open(path)]
    writer = _open(path)
    try:
        assert all(flock(fd, shared=True, wait=False) for fd in readers)
        assert not flock(writer, wait=False)
    finally:
        for fd in (*readers, writer):
            os.close(fd)


def test_locked_waits_for_the_holder(tmp_path: Path) -> None:
    path = tmp_path / "build.lock"
    order: list[str] = []
    inside = threading.Event()
    release = threading.Event()

    def holder() -> None:
        with locked(path):
            order.append("holder in")
            inside.set()
            release.wait()
            order.append("holder out")

    thread = threading.Thread(target=holder)
    thread.start()
    inside.wait()
    waiter_started = threading.Event()

    def waiter() -> None:
        waiter_started.set()
        with locked(path):
            order.append("waiter in")

    other = threading.Thread(target=waiter)
    other.start()
    waiter_started.wait()
    fd = _open(path)
    try:
        assert not flock(fd, wait=False)  # still held: the waiter cannot be in
    finally:
        os.close(fd)
    release.set()
    thread.join()
    other.join()
    assert order == ["holder in", "holder out", "waiter in"]
    assert path.is_file()  # left in place for the next builder
