"""When the suite is run against an installed copy (test/clients/python.test.ts sets PROFILER_CLIENT_INSTALLED_IN to
the venv), the package imported is that copy, not the source tree."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import profiler_client


def test_imported_from_the_installed_copy() -> None:
    where = os.environ.get("PROFILER_CLIENT_INSTALLED_IN")
    if not where:
        pytest.skip("PROFILER_CLIENT_INSTALLED_IN is not set (running from the source tree)")
    assert Path(profiler_client.__file__).resolve().is_relative_to(Path(where).resolve())  # type: ignore[attr-defined]
    assert (Path(profiler_client.__file__).parent / "py.typed").is_file()
