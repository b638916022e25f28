"""The synchronous client."""

from __future__ import annotations

# _core is this package's own shared module.
# pyright: reportPrivateUsage=false

import os
import time
from typing import Any, Callable, Iterator, Mapping, Optional, Sequence, Union

from . import _core
from ._core import Call, ConnectionFailed, OccurredAt, RetryPolicy, SearchParams, T, Transport
from ._errors import ProfilerError, WaitTimeout
from ._types import Context, ContextInclude, FilterBy, InputType, Message, Profile, SearchPage, SortBy, SortOrder, Submission

OnRetry = Callable[[ProfilerError, int, float], None]
"""Called before each retry with the error, the retry's number (1 for the first) and the seconds it will wait."""


class Profiler:
    """A client of the Profiler service's REST API (/v1), blocking.

    Args:
        base_url: where the service is, e.g. "http://127.0.0.1:8080" (default: $PROFILER_URL, else that).
        api_key: an app's key, "pk_..." (default: $PROFILER_API_KEY).
        timeout: seconds for one HTTP request (connect and each read).
        retry: when 429/503 answers and failed connections are tried again (see RetryPolicy).
        on_retry: called before each retry (for logging or metrics).

    Each method sends one request (retries aside) on a new connection; a client may be shared between threads.
    """

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

    def _run(self, call: Call[T]) -> T:
        attempt = 0
        while True:
            try:
                outcome: Union[_core.Response, ConnectionFailed] = self._transport.send(call.request)
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
            time.sleep(verdict.delay)

    # --- submitting ---

    def submit(
        self,
        profile_id: str,
        data: str,
        *,
        input_type: InputType = "text",
        occurred_at: Optional[OccurredAt] = None,
        idempotency_key: Optional[str] = None,
    ) -> Submission:
        """POST /v1/profile/{id}: stores `data` for the profile and returns at once; it is processed in the background.

        Every submit carries an Idempotency-Key (a new UUID when none is given), so a retry after a lost answer cannot
        store it twice; the same key with the same body within 24 hours returns the first submission.
        `occurred_at`: when it was said or written (an aware datetime, a date, or ISO 8601 text).
        """
        return self._run(_core.submit(profile_id, data, input_type, occurred_at, idempotency_key))

    def submit_text(self, profile_id: str, text: str, *, occurred_at: Optional[OccurredAt] = None, idempotency_key: Optional[str] = None) -> Submission:
        """Free prose about or by the person."""
        return self.submit(profile_id, text, input_type="text", occurred_at=occurred_at, idempotency_key=idempotency_key)

    def submit_conversation(
        self,
        profile_id: str,
        messages: Union[str, Sequence[Message], Sequence[Mapping[str, Any]]],
        *,
        occurred_at: Optional[OccurredAt] = None,
        idempotency_key: Optional[str] = None,
    ) -> Submission:
        """A transcript: a list of {"role", "content"[, "timestamp"]} messages, or "Speaker: text" lines as one string.
        Only the profiled person's turns (role "user", or the first line's speaker) count as evidence about them."""
        data = _core.conversation_data(messages)
        return self.submit(profile_id, data, input_type="conversation", occurred_at=occurred_at, idempotency_key=idempotency_key)

    def submit_structured(
        self,
        profile_id: str,
        data: Union[Mapping[str, Any], str],
        *,
        occurred_at: Optional[OccurredAt] = None,
        idempotency_key: Optional[str] = None,
    ) -> Submission:
        """A partial profile as a dict (core_info, interests, ...); values taken as given, a bare value at confidence 1."""
        return self.submit(profile_id, _core.structured_data(data), input_type="structured", occurred_at=occurred_at, idempotency_key=idempotency_key)

    # --- reading ---

    def get_profile(self, profile_id: str) -> Profile:
        """GET /v1/profile/{id}. A profile with pending submissions has status "processing". NotFound when unknown."""
        return self._run(_core.get_profile(profile_id))

    def wait_until_ready(self, profile_id: str, *, timeout: float = 60.0, interval: float = 0.1, max_interval: float = 2.0) -> Profile:
        """Polls the profile until its status is "ready" (every submission accepted so far processed) and returns it.

        Polls start every `interval` seconds and slow down to `max_interval`. Raises WaitTimeout when still processing
        after `timeout` seconds.
        """
        clock = _core.Deadline(timeout, interval, max_interval)
        while True:
            profile = self.get_profile(profile_id)
            if profile.get("status") == "ready":
                return profile
            wait = clock.next_wait()
            if wait is None:
                raise WaitTimeout(f"profile {profile_id!r} still {profile.get('status')!r} after {timeout} s")
            time.sleep(wait)

    def context(self, profile_id: str, query: Optional[str] = None, *, max_tokens: Optional[int] = None, include: Optional[ContextInclude] = None) -> Context:
        """GET /v1/profile/{id}/context: the profile as text for an LLM prompt, within `max_tokens`, ranked for `query`.
        `include`: "all" (default), "facts" or "passages" (what the person said)."""
        return self._run(_core.context(profile_id, query, max_tokens, include))

    def search_page(
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
        """GET /v1/search: one page ({profiles, total, page, pageSize})."""
        params = SearchParams(query, sensitivity, filter_by, filter_value, sort_by, sort_order, page_size)
        return self._run(params.call(page))

    def search(
        self,
        query: Optional[str] = None,
        *,
        sensitivity: Optional[float] = None,
        filter_by: Optional[FilterBy] = None,
        filter_value: Optional[str] = None,
        sort_by: Optional[SortBy] = None,
        sort_order: Optional[SortOrder] = None,
        page_size: Optional[int] = None,
    ) -> Iterator[Profile]:
        """Every matching profile, page after page, fetched as the iteration reaches it.

        Pages are read one request at a time: a profile that changes between two requests can move across a page
        boundary (seen twice or not at all), as with any offset pagination.
        """
        params = SearchParams(query, sensitivity, filter_by, filter_value, sort_by, sort_order, page_size)
        page, seen = 1, 0
        while True:
            result = self._run(params.call(page))
            yield from result["profiles"]
            seen += len(result["profiles"])
            if not _core.more_pages(result, seen):
                return
            page += 1

    # --- changing ---

    def forget(self, profile_id: str, section: str, value: Union[str, int], *, category: Optional[str] = None) -> Profile:
        """DELETE /v1/profile/{id}/values: removes one value (e.g. section="interests", value="jazz"); returns the profile.
        It stays forgotten until a newer submission states it again. NotFound when the profile does not hold it."""
        return self._run(_core.forget(profile_id, section, value, category))

    def rollback(self, profile_id: str, to_seq: int) -> Profile:
        """POST /v1/profile/{id}/rollback: returns the profile to its state at update_log entry `to_seq` (as a new entry)."""
        return self._run(_core.rollback(profile_id, to_seq))

    def delete_profile(self, profile_id: str) -> None:
        """DELETE /v1/profile/{id}: the profile, its history and pending submissions. NotFound when unknown."""
        self._run(_core.delete_profile(profile_id))
