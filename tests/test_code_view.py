"""What a Python worker may read: the code it runs, never the working directory or arbitrary path
entries, with the judge's data carved out."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from wapii_core.sandbox.code_view import allow_list, code_view, hides


def test_allow_list_carves_out_hidden_branches(tmp_path: Path) -> None:
    for name in ("pkg/mod.py", "pkg/data/demo/dataset.json", "pkg/data/other.txt", "pkg/sub/x.py", "lib/y.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    hidden = [tmp_path / "pkg" / "data" / "demo"]
    allowed = allow_list([tmp_path / "pkg", tmp_path / "lib"], hidden)
    assert set(allowed) == {tmp_path / "pkg" / "mod.py", tmp_path / "pkg" / "sub", tmp_path / "pkg" / "data" / "other.txt",
                            tmp_path / "lib"}
    assert not any(hides(path, hidden) for path in allowed)
    assert allow_list([tmp_path / "pkg" / "data" / "demo"], hidden) == []


def test_a_link_in_a_carved_root_is_left_out_whatever_it_points_to(tmp_path: Path) -> None:
    """A root holding a hidden branch is allowed entry by entry; a link among its entries would make
    Landlock allow its target (a checkout's ``wapii_core/specs`` points to ``../specs``, the demo's
    dataset): it is no entry of the allow list."""
    outside = tmp_path / "specs"
    (outside / "demo").mkdir(parents=True)
    (outside / "demo" / "dataset.json").write_text("[]")
    root = tmp_path / "pkg"
    (root / "datasets" / "hidden").mkdir(parents=True)
    (root / "code.py").write_text("")
    (root / "specs").symlink_to(outside)
    allowed = allow_list([root], [root / "datasets" / "hidden"])
    assert root / "code.py" in allowed and not any(p == root / "specs" or p == outside for p in allowed)


def test_the_working_directory_and_path_entries_are_no_read_roots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret_dir = tmp_path / "project"
    secret_dir.mkdir()
    monkeypatch.chdir(secret_dir)
    monkeypatch.setattr(sys, "path", [str(secret_dir), "", *sys.path, str(tmp_path)])
    view = code_view(["wapii_core", "json"])
    for root in view.roots:
        assert not (root == secret_dir or root in secret_dir.parents or secret_dir in root.parents), root
        assert root != tmp_path
    assert Path(os.path.dirname(os.__file__)).resolve() in view.roots  # the standard library


def test_a_dataset_inside_a_read_root_is_hidden() -> None:
    from wapii_core.base.paths import bundled_specs_dir

    view = code_view(["wapii_core"])
    specs = bundled_specs_dir()
    inside = [root for root in view.roots if root in specs.parents]
    if specs.is_symlink() or not inside:  # an editable install: the specs live outside the package
        assert not any(hides(specs.resolve(), [r]) for r in view.roots if r != specs.resolve())
    else:  # a wheel: the specs are a directory of the package
        assert specs.resolve() in view.hidden
