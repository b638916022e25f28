"""These tests run against a real Profiler service, never a mock.

PROFILER_URL, PROFILER_API_KEY: the service and an app key (the tests are skipped without them).
PROFILER_LIMITED_URL, PROFILER_LIMITED_API_KEY: a second service started with a small PROFILER_RATE_LIMIT_PER_MINUTE,
for the retry tests (skipped without them). Nothing else may use that key's budget.
"""

from __future__ import annotations

import os
import uuid
from typing import Callable

import pytest

from profiler_client import AsyncProfiler, Profiler


def _env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        pytest.skip(f"{name} is not set: these tests need a running Profiler service")
    return value


@pytest.fixture(scope="session")
def service_url() -> str:
    return _env("PROFILER_URL")


@pytest.fixture(scope="session")
def api_key() -> str:
    return _env("PROFILER_API_KEY")


@pytest.fixture(scope="session")
def client(service_url: str, api_key: str) -> Profiler:
    return Profiler(service_url, api_key)


@pytest.fixture(scope="session")
def aclient(service_url: str, api_key: str) -> AsyncProfiler:
    return AsyncProfiler(service_url, api_key)


@pytest.fixture(scope="session")
def limited() -> tuple:
    return _env("PROFILER_LIMITED_URL"), _env("PROFILER_LIMITED_API_KEY")


@pytest.fixture
def new_id() -> Callable[[str], str]:
    """A profile id no other test (or earlier run against the same service) uses."""
    return lambda prefix: f"{prefix}-{uuid.uuid4().hex[:12]}"
