"""What the sync and async clients share: building each request, sending one over HTTP, reading the answer, and the
retry policy. The clients differ only in how they wait (time.sleep or asyncio.sleep) and where the blocking send runs."""

# The argument checks below look redundant to a type checker; they are for callers without one.
# pyright: reportUnnecessaryIsInstance=false

from __future__ import annotations

import email.utils
import http.client
import json
import random
import socket
import ssl
import time
import uuid
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from typing import Any, Callable, Dict, Generic, Iterable, List, Mapping, Optional, Sequence, Tuple, TypeVar, Union, cast
from urllib.parse import quote, urlencode, urlsplit

from ._errors import ConnectionFailed, ProfilerError, code_of_status, error_class
from ._types import Context, InputType, Message, Profile, SearchPage, Submission
from ._version import __version__

T = TypeVar("T")

DEFAULT_BASE_URL = "http://127.0.0.1:8080"
USER_AGENT = f"profiler-client-python/{__version__}"
RETRY_STATUSES = (429, 503)

OccurredAt = Union[str, datetime, date]


@dataclass(frozen=True)
class RetryPolicy:
    """When a request is tried again.

    A 429 or 503 answer is retried up to `max_retries` times (both mean the service did nothing with the request).
    The wait is the answer's Retry-After when it sent one, else an exponential backoff with jitter
    (`backoff_base` * 2^attempt, at most `backoff_max`). A Retry-After longer than `max_retry_after` is not waited
    out: the error is raised at once, with its `retry_after` set. A failed connection (no answer at all) is retried
    the same way, but only for a request that is safe to repeat: a GET, or a POST carrying an Idempotency-Key.
    """

    max_retries: int = 3
    max_retry_after: float = 60.0
    backoff_base: float = 0.5
    backoff_max: float = 8.0

    def backoff(self, attempt: int) -> float:
        base = min(self.backoff_max, self.backoff_base * (2**attempt))
        return base / 2 + random.uniform(0, base / 2)


NO_RETRIES = RetryPolicy(max_retries=0)


def _no_headers() -> Dict[str, str]:
    return {}


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    query: Optional[Dict[str, Any]] = None
    body: Optional[Dict[str, Any]] = None
    headers: Dict[str, str] = field(default_factory=_no_headers)

    @property
    def repeatable(self) -> bool:
        """Safe to send again after a connection failure, when no answer says what happened."""
        return self.method in ("GET", "HEAD") or "Idempotency-Key" in self.headers


@dataclass(frozen=True)
class Response:
    status: int
    headers: Mapping[str, str]
    body: bytes

    def header(self, name: str) -> Optional[str]:
        return self.headers.get(name.lower())

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8")) if self.body else None


@dataclass(frozen=True)
class Call(Generic[T]):
    """A request and how its successful answer becomes the method's return value."""

    request: Request
    parse: Callable[[Response], T]


class Transport:
    """One HTTP/1.1 request per connection, with the standard library's http.client (no proxies are used)."""

    def __init__(self, base_url: str, api_key: str, timeout: float) -> None:
        u = urlsplit(base_url)
        if u.scheme not in ("http", "https") or not u.hostname:
            raise ValueError(f"base_url must be an http(s) URL, got {base_url!r}")
        self.scheme = u.scheme
        self.host = u.hostname
        self.port = u.port
        self.prefix = u.path.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.base_url = base_url.rstrip("/")
        self._ssl = ssl.create_default_context() if u.scheme == "https" else None

    def url(self, req: Request) -> str:
        target = self.prefix + req.path
        if req.query:
            q = {k: _query_value(v) for k, v in req.query.items() if v is not None}
            if q:
                target += "?" + urlencode(q)
        return target

    def send(self, req: Request) -> Response:
        target = self.url(req)
        headers = {
            "Authorization": f"Bearer {self.api_key}",
            "Accept": "application/json",
            "User-Agent": USER_AGENT,
            **req.headers,
        }
        payload: Optional[bytes] = None
        if req.body is not None:
            payload = json.dumps(req.body, ensure_ascii=False).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if self._ssl is not None:
            conn: http.client.HTTPConnection = http.client.HTTPSConnection(self.host, self.port, timeout=self.timeout, context=self._ssl)
        else:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            try:
                conn.request(req.method, target, body=payload, headers=headers)
                r = conn.getresponse()
                body = r.read()
            except (OSError, http.client.HTTPException, socket.timeout) as e:
                raise ConnectionFailed(
                    f"{req.method} {self.base_url}{target}: {type(e).__name__}: {e}", method=req.method, url=self.base_url + target
                ) from e
            return Response(r.status, {k.lower(): v for k, v in r.getheaders()}, body)
        finally:
            conn.close()


def _query_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def parse_retry_after(value: Optional[str]) -> Optional[float]:
    """Retry-After as seconds: a number, or an HTTP date (seconds from now, at least 0)."""
    if value is None:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())


def error_from(resp: Response, method: str, url: str) -> ProfilerError:
    body: Optional[Dict[str, Any]] = None
    try:
        parsed = resp.json()
        if isinstance(parsed, dict):
            body = cast(Dict[str, Any], parsed)
    except ValueError:
        pass
    code = body.get("code") if body else None
    message = body.get("message") if body and isinstance(body.get("message"), str) else None
    if message is None:
        text = resp.body.decode("utf-8", "replace").strip()
        message = text[:500] or http.client.responses.get(resp.status, "HTTP error")
    return error_class(resp.status)(
        message,
        status=resp.status,
        code=code if isinstance(code, str) else code_of_status(resp.status),
        request_id=resp.header("x-request-id"),
        retry_after=parse_retry_after(resp.header("retry-after")),
        body=body,
        method=method,
        url=url,
    )


def finish(call: "Call[T]", resp: Response, transport: Transport) -> T:
    """The method's value from a successful answer; an answer that cannot be read (cut short, not the JSON expected)
    is a ProfilerError that says so, with the answer's status and request id."""
    try:
        return call.parse(resp)
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        url = transport.base_url + transport.url(call.request)
        raise ProfilerError(
            f"Unreadable answer to {call.request.method} {url} ({resp.status}): {type(e).__name__}: {e}",
            status=resp.status,
            request_id=resp.header("x-request-id"),
            method=call.request.method,
            url=url,
        ) from e


@dataclass
class Attempt:
    """What one try gave: the answer to return, or the error to raise or retry after `delay` seconds."""

    response: Optional[Response] = None
    error: Optional[ProfilerError] = None
    delay: Optional[float] = None


def judge(transport: Transport, policy: RetryPolicy, req: Request, attempt: int, outcome: Union[Response, ConnectionFailed]) -> Attempt:
    """Decides what an answer (or a failed connection) means: done, retry after a delay, or raise."""
    if isinstance(outcome, ConnectionFailed):
        if req.repeatable and attempt < policy.max_retries:
            return Attempt(error=outcome, delay=policy.backoff(attempt))
        return Attempt(error=outcome)
    if 200 <= outcome.status < 300:
        return Attempt(response=outcome)
    err = error_from(outcome, req.method, transport.base_url + transport.url(req))
    if outcome.status in RETRY_STATUSES and attempt < policy.max_retries:
        if err.retry_after is None:
            return Attempt(error=err, delay=policy.backoff(attempt))
        if err.retry_after <= policy.max_retry_after:
            # Honoured as given (at least that long), with a little jitter so many clients do not return at once.
            return Attempt(error=err, delay=err.retry_after + random.uniform(0, min(0.25, 0.1 * max(err.retry_after, 0.1))))
    return Attempt(error=err)


# --- the calls ------------------------------------------------------------------------------------------------------


def _profile_path(profile_id: str, rest: str = "") -> str:
    if not isinstance(profile_id, str) or not profile_id:
        raise ValueError("profile_id must be a non-empty string")
    return f"/v1/profile/{quote(profile_id, safe='')}{rest}"


def _occurred_at(v: Optional[OccurredAt]) -> Optional[str]:
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, datetime):
        if v.tzinfo is None or v.utcoffset() is None:
            raise ValueError("occurred_at: a datetime needs a timezone (datetime.now(timezone.utc), or an aware datetime)")
        return v.isoformat()
    if isinstance(v, date):
        return v.isoformat()
    raise TypeError(f"occurred_at must be a str, datetime or date, not {type(v).__name__}")


def _profile_of(resp: Response) -> Profile:
    return resp.json()["profile"]  # type: ignore[no-any-return]


def submit(
    profile_id: str,
    data: str,
    input_type: InputType = "text",
    occurred_at: Optional[OccurredAt] = None,
    idempotency_key: Optional[str] = None,
) -> Call[Submission]:
    if not isinstance(data, str):
        raise TypeError("data must be a str (structured data: use submit_structured with a dict)")
    key = idempotency_key if idempotency_key is not None else str(uuid.uuid4())
    body: Dict[str, Any] = {"data": data, "input_type": input_type}
    when = _occurred_at(occurred_at)
    if when is not None:
        body["occurred_at"] = when

    def parse(resp: Response) -> Submission:
        j = resp.json()
        return Submission(id=j["id"], profile_id=profile_id, message=j.get("message", ""), idempotency_key=key, request_id=resp.header("x-request-id"))

    return Call(Request("POST", _profile_path(profile_id), body=body, headers={"Idempotency-Key": key}), parse)


def conversation_data(messages: Union[str, Sequence[Message], Iterable[Mapping[str, Any]]]) -> str:
    """A transcript as the service takes it: `Speaker: text` lines as given, or messages as a JSON array."""
    if isinstance(messages, str):
        return messages
    items: List[Dict[str, Any]] = []
    for m in messages:
        if not isinstance(m, Mapping) or "role" not in m or "content" not in m:
            raise ValueError("each message needs a role and a content")
        items.append(dict(m))
    return json.dumps(items, ensure_ascii=False)


def structured_data(data: Union[str, Mapping[str, Any]]) -> str:
    if isinstance(data, str):
        return data
    if not isinstance(data, Mapping):
        raise TypeError("structured data must be a dict (a partial profile: core_info, interests, ...) or its JSON text")
    return json.dumps(dict(data), ensure_ascii=False)


def get_profile(profile_id: str) -> Call[Profile]:
    return Call(Request("GET", _profile_path(profile_id)), _profile_of)


def delete_profile(profile_id: str) -> Call[None]:
    return Call(Request("DELETE", _profile_path(profile_id)), lambda _r: None)


def context(profile_id: str, query: Optional[str], max_tokens: Optional[int], include: Optional[str]) -> Call[Context]:
    q = {"query": query, "max_tokens": max_tokens, "include": include}
    return Call(Request("GET", _profile_path(profile_id, "/context"), query=q), lambda r: r.json())


def forget(profile_id: str, section: str, value: Union[str, int], category: Optional[str]) -> Call[Profile]:
    body: Dict[str, Any] = {"section": section, "value": value}
    if category is not None:
        body["category"] = category
    return Call(Request("DELETE", _profile_path(profile_id, "/values"), body=body), _profile_of)


def rollback(profile_id: str, to_seq: int) -> Call[Profile]:
    return Call(Request("POST", _profile_path(profile_id, "/rollback"), body={"to_seq": to_seq}), _profile_of)


@dataclass(frozen=True)
class SearchParams:
    query: Optional[str] = None
    sensitivity: Optional[float] = None
    filter_by: Optional[str] = None
    filter_value: Optional[str] = None
    sort_by: Optional[str] = None
    sort_order: Optional[str] = None
    page_size: Optional[int] = None

    def call(self, page: int) -> Call[SearchPage]:
        q = {
            "query": self.query,
            "sensitivity": self.sensitivity,
            "filterBy": self.filter_by,
            "filterValue": self.filter_value,
            "sortBy": self.sort_by,
            "sortOrder": self.sort_order,
            "page": page,
            "pageSize": self.page_size,
        }
        return Call(Request("GET", "/v1/search", query=q), lambda r: r.json())


def more_pages(page: SearchPage, seen: int) -> bool:
    """Whether a page after this one can hold more: it was full and the total counts past what was seen."""
    n = len(page["profiles"])
    return n > 0 and n >= page["pageSize"] and seen < page["total"]


class Deadline:
    """wait_until_ready's clock: polls start fast and slow down (x1.5 each time) to `max_interval`."""

    def __init__(self, timeout: float, interval: float, max_interval: float) -> None:
        self.end = time.monotonic() + timeout
        self.interval = interval
        self.max_interval = max_interval

    def next_wait(self) -> Optional[float]:
        left = self.end - time.monotonic()
        if left <= 0:
            return None
        wait = min(self.interval, left)
        self.interval = min(self.max_interval, self.interval * 1.5)
        return wait


def resolve_settings(base_url: Optional[str], api_key: Optional[str], env: Mapping[str, str]) -> Tuple[str, str]:
    url = base_url or env.get("PROFILER_URL") or DEFAULT_BASE_URL
    key = api_key or env.get("PROFILER_API_KEY")
    if not key:
        raise ValueError("No API key: pass api_key=... or set PROFILER_API_KEY")
    return url, key
