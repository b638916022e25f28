"""Retries on 429 against a real service whose rate limit is small (PROFILER_LIMITED_URL / PROFILER_LIMITED_API_KEY).

The service's budget is a sliding window of one minute: once spent, its Retry-After says when there is room again
(up to the end of the minute). The test spends it, then checks that a client without retries gets a typed 429 with
Retry-After, that a Retry-After over the client's bound is not waited out, and that the default client waits what
Retry-After says and then succeeds.
"""

from __future__ import annotations

import asyncio
import time
from typing import List, Tuple

import pytest

from profiler_client import AsyncProfiler, Profiler, ProfilerError, RateLimited, RetryPolicy


def spend_budget(url: str, key: str) -> RateLimited:
    """Requests until the service refuses one (bounded), and returns that refusal."""
    c = Profiler(url, key, retry=RetryPolicy(max_retries=0))
    for _ in range(1000):
        try:
            c.search_page(page_size=1)
        except RateLimited as e:
            return e
    pytest.fail("the limited service never answered 429: was it started with a small PROFILER_RATE_LIMIT_PER_MINUTE?")


def test_429_is_retried_after_retry_after(limited: Tuple[str, str]) -> None:
    url, key = limited
    refused = spend_budget(url, key)
    assert refused.status == 429 and refused.code == "RATE_LIMITED" and refused.request_id
    assert refused.retry_after is not None and 1 <= refused.retry_after <= 60

    # A Retry-After longer than the client will wait: raised at once, saying when to come back.
    impatient: List[float] = []
    c = Profiler(url, key, retry=RetryPolicy(max_retries=3, max_retry_after=0.5), on_retry=lambda e, n, d: impatient.append(d))
    t0 = time.monotonic()
    with pytest.raises(RateLimited) as e:
        c.search_page(page_size=1)
    assert time.monotonic() - t0 < 5 and impatient == []
    assert e.value.retry_after is not None and e.value.retry_after >= 1

    # The default policy waits it out (Retry-After <= 60 s): each wait is at least what the service asked for.
    waits: List[Tuple[float, float]] = []

    def on_retry(err: ProfilerError, n: int, delay: float) -> None:
        assert isinstance(err, RateLimited) and err.retry_after is not None
        waits.append((err.retry_after, delay))

    patient = Profiler(url, key, on_retry=on_retry)
    spend_budget(url, key)  # again, right before: the minute may have turned while the checks above ran
    t0 = time.monotonic()
    page = patient.search_page(page_size=1)
    elapsed = time.monotonic() - t0
    assert page["page"] == 1
    assert len(waits) >= 1, "the budget was spent: the first try must have been refused"
    assert all(delay >= retry_after for retry_after, delay in waits)
    assert elapsed >= sum(delay for _, delay in waits) - 0.05


def test_async_429_is_retried_after_retry_after(limited: Tuple[str, str]) -> None:
    url, key = limited
    spend_budget(url, key)
    waits: List[float] = []

    async def main() -> None:
        c = AsyncProfiler(url, key, on_retry=lambda e, n, d: waits.append(d))
        t0 = time.monotonic()
        page = await c.search_page(page_size=1)
        assert page["page"] == 1
        assert len(waits) >= 1 and time.monotonic() - t0 >= sum(waits) - 0.05

    asyncio.run(main())
