"""The asyncio client.

Each HTTP request is the sync client's blocking request run in a worker thread (`asyncio.to_thread`, the loop's default
executor), so the event loop is never blocked and no HTTP dependency is needed; waits between retries and polls are
`asyncio.sleep`. Cancelling a call cancels its waits at once; a request already on the wire finishes in its thread
(bounded by `timeout`) and its answer is dropped. Concurrency is bounded by the default executor's size.
"""

from __future__ import annotations

# _core is this package's own shared module.
# pyright: reportPrivateUsage=false

import asyncio
import os
from typing import Any, AsyncIterator, Mapping, Optional, Sequence, Union

from . import _core
from ._client import OnRetry
from ._core import Call, ConnectionFailed, OccurredAt, RetryPolicy, SearchParams, T, Transport
from ._errors import WaitTimeout
from ._types import Context, ContextInclude, FilterBy, InputType, Message, Profile, SearchPage, SortBy, SortOrder, Submission


class AsyncProfiler:
    """The same calls as Profiler, as coroutines; `search` is an async iterator. Arguments as for Profiler."""

    def __init__(
        self,
        base_url: Optional[str] = None,
        api_key: Optional[str] = None,
        *,
        timeout: float = 30.0,
        retry: RetryPolicy = RetryPolicy(),
        on_retry: Optional[OnRetry] = None,
    ) -> None:
        url, key = _core.resolve_settings(base_url, api_key, os.environ)
        self._transport = Transport(url, key, timeout)
        self.retry = retry
        self.on_retry = on_retry

    @property
    def base_url(self) -> str:
        return self._transport.base_url

    async def _run(self, call: Call[T]) -> T:
        attempt = 0
        while True:
            try:
                outcome: Union[_core.Response, ConnectionFailed] = await asyncio.to_thread(self._transport.send, call.request)
            except ConnectionFailed as e:
                outcome = e
            verdict = _core.judge(self._transport, self.retry, call.request, attempt, outcome)
            if verdict.response is not None:
                return _core.finish(call, verdict.response, self._transport)
            assert verdict.error is not None
            if verdict.delay is None:
                raise verdict.error
            attempt += 1
            if self.on_retry is not None:
                self.on_retry(verdict.error, attempt, verdict.delay)
            await asyncio.sleep(verdict.delay)

    async def submit(
        self,
        profile_id: str,
        data: str,
        *,
        input_type: InputType = "text",
        occurred_at: Optional[OccurredAt] = None,
        idempotency_key: Optional[str] = None,
    ) -> Submission:
        return await self._run(_core.submit(profile_id, data, input_type, occurred_at, idempotency_key))

    async def submit_text(self, profile_id: str, text: str, *, occurred_at: Optional[OccurredAt] = None, idempotency_key: Optional[str] = None) -> Submission:
        return await self.submit(profile_id, text, input_type="text", occurred_at=occurred_at, idempotency_key=idempotency_key)

    async def submit_conversation(
        self,
        profile_id: str,
        messages: Union[str, Sequence[Message], Sequence[Mapping[str, Any]]],
        *,
        occurred_at: Optional[OccurredAt] = None,
        idempotency_key: Optional[str] = None,
    ) -> Submission:
        data = _core.conversation_data(messages)
        return await self.submit(profile_id, data, input_type="conversation", occurred_at=occurred_at, idempotency_key=idempotency_key)

    async def submit_structured(
        self,
        profile_id: str,
        data: Union[Mapping[str, Any], str],
        *,
        occurred_at: Optional[OccurredAt] = None,
        idempotency_key: Optional[str] = None,
    ) -> Submission:
        return await self.submit(profile_id, _core.structured_data(data), input_type="structured", occurred_at=occurred_at, idempotency_key=idempotency_key)

    async def get_profile(self, profile_id: str) -> Profile:
        return await self._run(_core.get_profile(profile_id))

    async def wait_until_ready(self, profile_id: str, *, timeout: float = 60.0, interval: float = 0.1, max_interval: float = 2.0) -> Profile:
        clock = _core.Deadline(timeout, interval, max_interval)
        while True:
            profile = await self.get_profile(profile_id)
            if profile.get("status") == "ready":
                return profile
            wait = clock.next_wait()
            if wait is None:
                raise WaitTimeout(f"profile {profile_id!r} still {profile.get('status')!r} after {timeout} s")
            await asyncio.sleep(wait)

    async def context(self, profile_id: str, query: Optional[str] = None, *, max_tokens: Optional[int] = None, include: Optional[ContextInclude] = None) -> Context:
        return await self._run(_core.context(profile_id, query, max_tokens, include))

    async def search_page(
        self,
        query: Optional[str] = None,
        *,
        sensitivity: Optional[float] = None,
        filter_by: Optional[FilterBy] = None,
        filter_value: Optional[str] = None,
        sort_by: Optional[SortBy] = None,
        sort_order: Optional[SortOrder] = None,
        page: int = 1,
        page_size: Optional[int] = None,
    ) -> SearchPage:
        params = SearchParams(query, sensitivity, filter_by, filter_value, sort_by, sort_order, page_size)
        return await self._run(params.call(page))

    async def search(
        self,
        query: Optional[str] = None,
        *,
        sensitivity: Optional[float] = None,
        filter_by: Optional[FilterBy] = None,
        filter_value: Optional[str] = None,
        sort_by: Optional[SortBy] = None,
        sort_order: Optional[SortOrder] = None,
        page_size: Optional[int] = None,
    ) -> AsyncIterator[Profile]:
        """`async for profile in client.search(...)`: every match, a page fetched when the iteration reaches it."""
        params = SearchParams(query, sensitivity, filter_by, filter_value, sort_by, sort_order, page_size)
        page, seen = 1, 0
        while True:
            result = await self._run(params.call(page))
            for p in result["profiles"]:
                yield p
            seen += len(result["profiles"])
            if not _core.more_pages(result, seen):
                return
            page += 1

    async def forget(self, profile_id: str, section: str, value: Union[str, int], *, category: Optional[str] = None) -> Profile:
        return await self._run(_core.forget(profile_id, section, value, category))

    async def rollback(self, profile_id: str, to_seq: int) -> Profile:
        return await self._run(_core.rollback(profile_id, to_seq))

    async def delete_profile(self, profile_id: str) -> None:
        await self._run(_core.delete_profile(profile_id))
