"""A hub model that cannot be loaded here is refused before anything is generated or written."""

from __future__ import annotations

import socket

import pytest

from support import run_cli


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nothing listens there once the probe is closed


@pytest.mark.slow
@pytest.mark.parametrize("setting", ["offline", "unreachable"])
def test_a_hub_id_without_cache_or_network_is_one_line_and_no_run_directory(tmp_path, setting) -> None:
    env = {"HF_HOME": str(tmp_path / "hf"), "HF_HUB_OFFLINE": "1" if setting == "offline" else "",
           "HF_ENDPOINT": f"http://127.0.0.1:{closed_port()}"}
    out = tmp_path / "run"
    done = run_cli("run", "--backend", "hf", "--model", "wapii-test/no-such-model", "--out", str(out), env=env,
                   timeout=120)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --model wapii-test/no-such-model: not in the local Hugging "
                                                   "Face cache"), done.stderr
    assert ("HF_HUB_OFFLINE is set" if setting == "offline" else "cannot be reached") in lines[0]
    assert "--model" in lines[0].split(";", 1)[1] and not out.exists()
