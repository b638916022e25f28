"""The Python examples of the client's README.md and of the repository's clients page, run as written against the
service (each in its own interpreter)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def python_blocks() -> List[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


def test_readme_has_the_examples() -> None:
    blocks = python_blocks()
    assert len(blocks) >= 2
    assert "Profiler(" in blocks[0] and "AsyncProfiler(" in blocks[1]


@pytest.mark.parametrize("index", range(len(python_blocks())))
def test_readme_example_runs(index: int, service_url: str, api_key: str) -> None:
    code = python_blocks()[index]
    env = {**os.environ, "PROFILER_URL": service_url, "PROFILER_API_KEY": api_key}
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, f"README example {index + 1} failed:\n{code}\n--- stdout\n{r.stdout}\n--- stderr\n{r.stderr}"


CLIENTS_PAGE = Path(__file__).resolve().parents[3] / "docs" / "getting-started" / "clients.md"


def test_repository_clients_page_example_runs(service_url: str, api_key: str) -> None:
    """The repository's clients page's Python example (docs/getting-started/clients.md), as written."""
    if not CLIENTS_PAGE.exists():
        pytest.skip("not run from the repository (no docs/getting-started/clients.md three levels up)")
    m = re.search(r"<!-- example: python -->\n```python\n(.*?)```", CLIENTS_PAGE.read_text(encoding="utf-8"), flags=re.S)
    assert m, "docs/getting-started/clients.md has no Python example"
    env = {**os.environ, "PROFILER_URL": service_url, "PROFILER_API_KEY": api_key}
    r = subprocess.run([sys.executable, "-c", m.group(1)], env=env, capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, f"the clients page's example failed:\n{m.group(1)}\n--- stdout\n{r.stdout}\n--- stderr\n{r.stderr}"
    assert "baker" in r.stdout and "404 NOT_FOUND" in r.stdout
