"""The long-lived javac: batch after batch in one compiler JVM, a unit that does not compile never
costing another its classes, and a compiler that died replaced on the next batch (a real JDK)."""

from __future__ import annotations

import pytest

from support import skip_without_jdk

GOOD = "package {p};\npublic class Main {{ public static void main(String[] a) {{ System.out.println(\"{p}\"); }} }}\n"
BAD = "package {p};\npublic class Main {{ int x = ; }}\n"


@pytest.fixture(scope="module")
def javac():
    skip_without_jdk()
    from wapii_core.jvm.compile import Javac
    from wapii_core.jvm.support import JavaLibrary, support_jar
    from wapii_core.jvm.toolchain import find_jdk, find_runtime

    jdk = find_jdk()
    compiler = Javac(jdk, support_jar(jdk, find_runtime(), JavaLibrary("compile-test")))
    yield compiler
    compiler.close()


def _batch(javac, tmp_path, sources: dict[str, str]) -> dict[str, str]:
    from wapii_core.jvm.compile import compile_units

    return compile_units(javac, sources, tmp_path / "src", tmp_path / "classes", release=11)


@pytest.mark.slow  # a compiler JVM's start and first batch
def test_batches_share_one_compiler_and_each_unit_gets_its_own_verdict(javac, tmp_path) -> None:
    failed = _batch(javac, tmp_path / "one", {"p0": GOOD.format(p="p0"), "p1": BAD.format(p="p1"), "p2": GOOD.format(p="p2")})
    assert list(failed) == ["p1"] and failed["p1"].startswith("compile_error: line 2: ")
    assert (tmp_path / "one" / "classes" / "p0" / "Main.class").is_file()
    assert (tmp_path / "one" / "classes" / "p2" / "Main.class").is_file()
    assert not (tmp_path / "one" / "classes" / "p1").exists()
    first = javac._process.pid
    assert _batch(javac, tmp_path / "two", {"p0": GOOD.format(p="p0")}) == {}
    assert javac._process.pid == first  # the same compiler JVM
    class_file = (tmp_path / "two" / "classes" / "p0" / "Main.class").read_bytes()
    assert class_file[6:8] == (55).to_bytes(2, "big")  # --release 11: class file version 55


@pytest.mark.slow
def test_a_compiler_that_died_is_replaced(javac, tmp_path) -> None:
    _batch(javac, tmp_path / "warm", {"p0": GOOD.format(p="p0")})
    dead = javac._process
    dead.kill()
    dead.wait()
    assert _batch(javac, tmp_path / "after", {"p0": GOOD.format(p="p0")}) == {}
    assert javac._process is not dead and javac._process.poll() is None
    assert javac.cpu_seconds() > 0
