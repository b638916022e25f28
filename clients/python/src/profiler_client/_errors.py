"""Errors: one class per kind of failure, each carrying what the service said about it."""

from __future__ import annotations

from typing import Any, Dict, Optional, Type


class ProfilerError(Exception):
    """Base of every error this client raises.

    Attributes:
        status: the HTTP status (None when no response came: a connection failure, a wait that timed out).
        code: what kind of error, as a name: the body's `code` when it has one, else the status's name
            (`VALIDATION_FAILED`, `UNAUTHENTICATED`, `NOT_FOUND`, `CONFLICT`, `RATE_LIMITED`, ...: the same names
            as the TypeScript client's); None when no response came.
        message: the service's message (human-readable, names the offending field), or this client's own.
        request_id: the response's X-Request-Id, to quote to whoever runs the service.
        retry_after: seconds the service asked to wait (Retry-After), when it sent one.
        body: the parsed error body, when it was JSON.
    """

    def __init__(
        self,
        message: str,
        *,
        status: Optional[int] = None,
        code: Optional[str] = None,
        request_id: Optional[str] = None,
        retry_after: Optional[float] = None,
        body: Optional[Dict[str, Any]] = None,
        method: Optional[str] = None,
        url: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.request_id = request_id
        self.retry_after = retry_after
        self.body = body
        self.method = method
        self.url = url

    def __str__(self) -> str:
        parts = [self.message]
        if self.status is not None:
            parts.insert(0, f"{self.status}")
        if self.request_id:
            parts.append(f"(request {self.request_id})")
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(status={self.status!r}, code={self.code!r}, message={self.message!r}, request_id={self.request_id!r})"


_CODES: Dict[int, str] = {
    400: "VALIDATION_FAILED",
    401: "UNAUTHENTICATED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    409: "CONFLICT",
    413: "PAYLOAD_TOO_LARGE",
    415: "UNSUPPORTED_MEDIA_TYPE",
    429: "RATE_LIMITED",
    500: "INTERNAL",
    503: "SERVICE_UNAVAILABLE",
}


def code_of_status(status: int) -> str:
    """The name of an HTTP error status, as both clients name it (`HTTP_<status>` for others)."""
    return _CODES.get(status, f"HTTP_{status}")


class APIError(ProfilerError):
    """The service answered with an error status (a subclass names the common ones)."""


class BadRequest(APIError):
    """400: the request is invalid (a missing or empty `data`, a bad query parameter, a bad profile id...)."""


class Unauthorized(APIError):
    """401: the API key is missing, unknown, malformed or revoked."""


class Forbidden(APIError):
    """403."""


class NotFound(APIError):
    """404: no such profile (or value, or history entry)."""


class Conflict(APIError):
    """409: an Idempotency-Key reused with a different body, or an edit that cannot apply."""


class PayloadTooLarge(APIError):
    """413: the body is over the service's size limit."""


class UnsupportedMediaType(APIError):
    """415."""


class RateLimited(APIError):
    """429: the app's request budget is spent; `retry_after` says for how long (raised once retries are used up)."""


class InternalError(APIError):
    """500: the service failed; quote `request_id` to whoever runs it."""


class ServiceUnavailable(APIError):
    """503: the service's database or AI provider cannot be reached right now; it recovers by itself."""


class ConnectionFailed(ProfilerError):
    """No response: the connection was refused, reset or timed out (the cause is chained)."""


class WaitTimeout(ProfilerError, TimeoutError):
    """wait_until_ready: the profile was still processing when the timeout ran out."""


_BY_STATUS: Dict[int, Type[APIError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    413: PayloadTooLarge,
    415: UnsupportedMediaType,
    429: RateLimited,
    500: InternalError,
    503: ServiceUnavailable,
}


def error_class(status: int) -> Type[APIError]:
    return _BY_STATUS.get(status, APIError)
