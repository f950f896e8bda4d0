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


def _deep(p: str) -> str:
    return f"package {p};\npublic class Main {{ int x = {'(' * 20000}1{')' * 20000}; }}\n"


def _huge_constant(p: str) -> str:
    doublings = "".join(f"  static final String A{i} = A{i - 1} + A{i - 1};\n" for i in range(1, 28))
    return f"package {p};\npublic class Main {{\n  static final String A0 = \"ab\";\n{doublings}}}\n"


def _exponential(p: str) -> str:
    expression = "1"
    for _ in range(18):
        expression = f"String.valueOf(undefined ? {expression} : 2)"
    return f"package {p};\npublic class Main {{ String s = {expression}; }}\n"


@pytest.mark.slow  # a compiler JVM started again after each failure of the search
def test_a_unit_that_exhausts_javac_loses_only_its_own_verdict(tmp_path) -> None:
    """javac out of heap, out of stack or out of time names no file: the batch is searched by halves
    until each unit at fault is alone, under a small budget (on main: every unit of the batch failed)."""
    skip_without_jdk()
    from wapii_core.jvm.compile import Javac
    from wapii_core.jvm.support import JavaLibrary, support_jar
    from wapii_core.jvm.toolchain import find_jdk, find_runtime
    from wapii_core.sandbox.compile_budget import CompileBudget

    jdk = find_jdk()
    budget = CompileBudget(memory=384 << 20, base_s=6, per_program_s=0.1)
    compiler = Javac(jdk, support_jar(jdk, find_runtime(), JavaLibrary("compile-test")), budget)
    sources = {f"p{i}": GOOD.format(p=f"p{i}") for i in range(8)}
    sources.update(p1=_deep("p1"), p4=_huge_constant("p4"), p6=_exponential("p6"), p7=BAD.format(p="p7"))
    try:
        failed = _batch(compiler, tmp_path, sources)
    finally:
        compiler.close()
    assert sorted(failed) == ["p1", "p4", "p6", "p7"]
    assert failed["p1"] == "compile_limit: java.lang.StackOverflowError"
    assert failed["p4"] == "compile_limit: java.lang.OutOfMemoryError: Java heap space"
    assert failed["p6"].startswith("compile_limit: the compiler ran longer than its ")
    assert failed["p7"].startswith("compile_error: line 2: ")
    assert sorted(p.name for p in (tmp_path / "classes").iterdir()) == ["p0", "p2", "p3", "p5"]


@pytest.mark.slow  # a compiler JVM's start
@pytest.mark.parametrize("layers", ["bubblewrap", "no-bubblewrap"])
def test_a_confined_compiler_writes_only_beneath_its_batches(layers, tmp_path, monkeypatch) -> None:
    """With a file view (what the runner gives it), javac compiles into its batches and nowhere else."""
    skip_without_jdk()
    from wapii_core.jvm.compile import Javac
    from wapii_core.jvm.support import JavaLibrary, support_jar
    from wapii_core.jvm.toolchain import find_jdk, find_runtime
    from wapii_core.sandbox import bwrap
    from wapii_core.sandbox.compile_budget import confinement

    if layers == "no-bubblewrap":
        monkeypatch.setenv(bwrap.BWRAP_ENV, "")
    if confinement() == "none":
        pytest.skip("neither bubblewrap nor Landlock works here")
    jdk = find_jdk()
    jobs = tmp_path / "jobs"
    jobs.mkdir()
    compiler = Javac(jdk, support_jar(jdk, find_runtime(), JavaLibrary("compile-test")), write=[jobs])
    try:
        assert _batch(compiler, jobs / "b0", {"p0": GOOD.format(p="p0")}) == {}
        assert (jobs / "b0" / "classes" / "p0" / "Main.class").is_file()
        outside = tmp_path / "outside"
        failed = _batch(compiler, outside, {"p0": GOOD.format(p="p0")})  # its argument file javac cannot even read
        assert list(failed) == ["p0"] and not (outside / "classes" / "p0").exists()
    finally:
        compiler.close()
