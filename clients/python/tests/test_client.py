"""The sync client through a real service: submit, wait, read, context, search, forget, roll back, delete, errors."""

from __future__ import annotations

import json
import socket
import uuid
from datetime import date, datetime, timedelta, timezone
from typing import Any, Callable, List, Mapping

import pytest

from profiler_client import (
    APIError,
    BadRequest,
    Conflict,
    ConnectionFailed,
    NotFound,
    Profiler,
    ProfilerError,
    RetryPolicy,
    Unauthorized,
    WaitTimeout,
)


def interests(profile: Mapping[str, Any]) -> List[str]:
    return sorted(str(v["value"]).lower() for values in profile.get("interests", {}).values() for v in values)


def test_submit_text_then_wait_until_ready_then_read(client: Profiler, new_id: Callable[[str], str]) -> None:
    pid = new_id("text")
    sub = client.submit_text(pid, "My name is Ana. I live in Lisbon and I love jazz.", occurred_at=date(2024, 5, 8))
    assert sub.profile_id == pid
    assert uuid.UUID(sub.id)
    assert sub.message == "Accepted for processing"
    assert sub.idempotency_key and sub.request_id

    profile = client.wait_until_ready(pid, timeout=60)
    assert profile["status"] == "ready"
    assert profile["profile_id"] == pid
    assert profile["core_info"]["name"]["value"] == "Ana"
    assert profile["core_info"]["location"]["value"] == "Lisbon"
    assert "jazz" in interests(profile)
    assert "jazz" in profile["summary"]
    # The entry that merged it names the submission.
    assert any(sub.id in e["submission_ids"] for e in profile["update_log"])
    # And a plain read says the same.
    assert client.get_profile(pid)["core_info"]["name"]["value"] == "Ana"


def test_a_new_submission_makes_a_ready_profile_processing_until_it_is_merged(client: Profiler, new_id: Callable[[str], str]) -> None:
    pid = new_id("again")
    client.submit_text(pid, "I love hiking.")
    client.wait_until_ready(pid)
    client.submit_text(pid, "I also love chess.")
    assert client.get_profile(pid)["status"] in ("processing", "ready")
    profile = client.wait_until_ready(pid)
    assert {"hiking", "chess"} <= set(interests(profile))


def test_submit_conversation_messages_and_transcript(client: Profiler, new_id: Callable[[str], str]) -> None:
    pid = new_id("conv")
    sub = client.submit_conversation(
        pid,
        [
            {"role": "user", "content": "Hi, I'm Kai and I love surfing."},
            {"role": "assistant", "content": "Nice! I love golf myself."},
        ],
        occurred_at=datetime(2024, 3, 1, 9, 30, tzinfo=timezone.utc),
    )
    profile = client.wait_until_ready(pid)
    assert "surfing" in interests(profile)
    # Only the person's own turns are evidence about them.
    assert "golf" not in interests(profile)
    assert profile["update_log"][-1]["input_type"] == "conversation"
    assert sub.id in profile["update_log"][-1]["submission_ids"]

    # A transcript of "Speaker: text" lines: the first line's speaker is the person.
    client.submit_conversation(pid, "Kai: I love playing chess.\nCoach: Great, I love tennis.")
    later = interests(client.wait_until_ready(pid))
    assert "chess" in later and "tennis" not in later


def test_submit_structured_takes_values_as_given(client: Profiler, new_id: Callable[[str], str]) -> None:
    pid = new_id("struct")
    client.submit_structured(pid, {"core_info": {"name": "Zed", "age": 41}, "interests": {"music": ["opera"]}})
    profile = client.wait_until_ready(pid)
    assert profile["core_info"]["name"] == {"value": "Zed", "confidence": 1.0}
    assert profile["core_info"]["age"] == {"value": 41, "confidence": 1.0}
    assert "opera" in interests(profile)
    assert profile["update_log"][-1]["input_type"] == "structured"
    # JSON text is taken as well; something that is not an object is the service's 400.
    client.submit_structured(pid, json.dumps({"core_info": {"location": "Oslo"}}))
    assert client.wait_until_ready(pid)["core_info"]["location"]["value"] == "Oslo"
    with pytest.raises(BadRequest) as e:
        client.submit_structured(pid, "[1, 2]")
    assert e.value.status == 400 and "structured" in e.value.message


def test_idempotency_key_returns_the_same_submission_and_refuses_another_body(client: Profiler, new_id: Callable[[str], str]) -> None:
    pid = new_id("idem")
    key = f"key-{uuid.uuid4()}"
    first = client.submit_text(pid, "I enjoy painting.", idempotency_key=key)
    again = client.submit_text(pid, "I enjoy painting.", idempotency_key=key)
    assert again.id == first.id
    assert again.idempotency_key == key
    with pytest.raises(Conflict) as e:
        client.submit_text(pid, "I enjoy sculpting.", idempotency_key=key)
    assert e.value.status == 409 and e.value.code == "CONFLICT" and e.value.request_id
    profile = client.wait_until_ready(pid)
    merged = [s for entry in profile["update_log"] for s in entry["submission_ids"]]
    assert merged.count(first.id) == 1
    assert "sculpting" not in interests(profile)
    # Without a key of its own each submit gets a fresh one: two submits are two submissions.
    a = client.submit_text(pid, "I enjoy painting.")
    b = client.submit_text(pid, "I enjoy painting.")
    assert a.id != b.id and a.idempotency_key != b.idempotency_key


def test_occurred_at_forms(client: Profiler, new_id: Callable[[str], str]) -> None:
    pid = new_id("when")
    client.submit_text(pid, "I moved to Porto.", occurred_at="2023-05-08T14:30:00+01:00")
    client.submit_text(pid, "I like tea.", occurred_at=datetime.now(timezone(timedelta(hours=2))) - timedelta(days=1))
    with pytest.raises(ValueError):
        client.submit_text(pid, "naive", occurred_at=datetime(2024, 1, 1))  # no timezone: refused before sending
    with pytest.raises(BadRequest) as e:
        client.submit_text(pid, "bad time", occurred_at="yesterday")
    assert "occurred_at" in e.value.message
    client.wait_until_ready(pid)


def test_context_with_a_query(client: Profiler, new_id: Callable[[str], str]) -> None:
    pid = new_id("ctx")
    client.submit_text(pid, "My name is Lena. I love jazz and I play the piano. I work as a nurse in Berlin.")
    client.wait_until_ready(pid)
    ctx = client.context(pid, "What music does she like?", max_tokens=200)
    assert ctx["profile_id"] == pid
    assert "jazz" in ctx["text"]
    assert 0 < ctx["tokens"] <= 200 and ctx["max_tokens"] == 200
    assert ctx["ranked_by"] == "query"
    facts = client.context(pid, include="facts")
    assert facts["include"] == "facts" and "Lena" in facts["text"]
    with pytest.raises(BadRequest) as e:
        client.context(pid, max_tokens=0)
    assert "max_tokens" in e.value.message


def test_search_iterates_over_every_page(client: Profiler, new_id: Callable[[str], str]) -> None:
    prefix = new_id("page")
    ids = [f"{prefix}-{i}" for i in range(5)]
    for i, pid in enumerate(ids):
        client.submit_structured(pid, {"core_info": {"name": f"Pager {i}"}})
    for pid in ids:
        client.wait_until_ready(pid)

    first = client.search_page(filter_by="id", filter_value=prefix, sort_by="id", sort_order="asc", page_size=2)
    assert first["total"] == 5 and first["page"] == 1 and first["pageSize"] == 2
    assert [p["profile_id"] for p in first["profiles"]] == ids[:2]
    last = client.search_page(filter_by="id", filter_value=prefix, sort_by="id", sort_order="asc", page_size=2, page=3)
    assert [p["profile_id"] for p in last["profiles"]] == ids[4:]

    # Each request answers at most 2: all 5 come from 3 pages, in order.
    seen = [p["profile_id"] for p in client.search(filter_by="id", filter_value=prefix, sort_by="id", sort_order="asc", page_size=2)]
    assert seen == ids
    # Descending, and a page size that divides the total: the iterator stops without an empty extra page's profiles.
    assert [p["profile_id"] for p in client.search(filter_by="id", filter_value=prefix, sort_by="id", sort_order="desc", page_size=5)] == ids[::-1]
    assert list(client.search(filter_by="id", filter_value=f"{prefix}-none", page_size=2)) == []

    # A query ranks by similarity; every result carries its score and passes the sensitivity.
    hits = list(client.search("Pager", sensitivity=0, filter_by="id", filter_value=prefix, page_size=2))
    assert sorted(p["profile_id"] for p in hits) == ids
    assert all(p["similarityScore"] >= 0 for p in hits)


def test_forget_a_value(client: Profiler, new_id: Callable[[str], str]) -> None:
    pid = new_id("forget")
    client.submit_text(pid, "I love jazz and hiking.")
    assert {"jazz", "hiking"} <= set(interests(client.wait_until_ready(pid)))
    after = client.forget(pid, "interests", "Jazz")
    assert "jazz" not in interests(after) and "hiking" in interests(after)
    assert after["update_log"][-1]["input_type"] == "forget"
    assert "jazz" not in interests(client.get_profile(pid))
    with pytest.raises(NotFound) as e:
        client.forget(pid, "interests", "jazz")
    assert e.value.status == 404 and "jazz" in e.value.message and e.value.request_id
    with pytest.raises(BadRequest):
        client.forget(pid, "no-such-section", "x")


def test_rollback_to_an_earlier_entry(client: Profiler, new_id: Callable[[str], str]) -> None:
    pid = new_id("roll")
    client.submit_text(pid, "I love cycling.")
    first = client.wait_until_ready(pid)
    seq = first["update_log"][-1]["seq"]
    client.submit_text(pid, "I also love rowing.")
    assert "rowing" in interests(client.wait_until_ready(pid))
    back = client.rollback(pid, seq)
    assert "rowing" not in interests(back) and "cycling" in interests(back)
    assert back["update_log"][-1]["input_type"] == "rollback"
    assert interests(client.get_profile(pid)) == interests(back)
    with pytest.raises(NotFound):
        client.rollback(pid, 9999)
    with pytest.raises(BadRequest):
        client.rollback(pid, 0)


def test_delete_profile(client: Profiler, new_id: Callable[[str], str]) -> None:
    pid = new_id("del")
    client.submit_text(pid, "I like kites.")
    client.wait_until_ready(pid)
    assert client.delete_profile(pid) is None
    with pytest.raises(NotFound):
        client.get_profile(pid)
    with pytest.raises(NotFound) as e:
        client.delete_profile(pid)
    assert e.value.status == 404 and e.value.code == "NOT_FOUND"


def test_profile_ids_with_reserved_characters_travel_intact(client: Profiler) -> None:
    pid = f"user:{uuid.uuid4().hex[:8]}@app+x.y_z-1"  # every character class a profile id allows
    client.submit_structured(pid, {"core_info": {"name": "Ida"}})
    profile = client.wait_until_ready(pid)
    assert profile["profile_id"] == pid
    assert [p["profile_id"] for p in client.search(filter_by="id", filter_value=pid)] == [pid]
    assert client.context(pid)["profile_id"] == pid
    client.delete_profile(pid)
    with pytest.raises(NotFound):
        client.get_profile(pid)


def test_bad_key_is_unauthorized_with_status_code_and_request_id(service_url: str) -> None:
    bad = Profiler(service_url, "pk_not_a_real_key")
    with pytest.raises(Unauthorized) as e:
        bad.get_profile("anyone")
    err = e.value
    assert isinstance(err, APIError) and isinstance(err, ProfilerError)
    assert err.status == 401 and err.code == "UNAUTHENTICATED"
    assert err.message == "Invalid API key"
    assert err.request_id and len(err.request_id) >= 8
    assert err.request_id in str(err)


def test_validation_errors_are_bad_request(client: Profiler) -> None:
    with pytest.raises(BadRequest) as e:
        client.submit_text("someone", "   ")
    assert e.value.status == 400 and e.value.code == "VALIDATION_FAILED" and "data" in e.value.message and e.value.request_id
    with pytest.raises(BadRequest) as e:
        client.search_page(page_size=1000)
    assert "pageSize" in e.value.message
    with pytest.raises(BadRequest) as e:
        client.get_profile("not a valid id!")
    assert e.value.status == 400


def test_unknown_profile_is_not_found(client: Profiler) -> None:
    with pytest.raises(NotFound) as e:
        client.get_profile(f"nobody-{uuid.uuid4().hex}")
    assert e.value.status == 404 and e.value.code == "NOT_FOUND" and e.value.request_id
    assert e.value.body == {"error": 404, "message": e.value.message}


def test_wait_until_ready_times_out_on_an_unknown_profile_as_not_found(client: Profiler) -> None:
    with pytest.raises(NotFound):
        client.wait_until_ready(f"never-{uuid.uuid4().hex}", timeout=1)
    assert issubclass(WaitTimeout, TimeoutError)


def _closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return int(port)


def test_no_service_is_connection_failed_retried_only_when_safe() -> None:
    retries: List[int] = []
    c = Profiler(f"http://127.0.0.1:{_closed_port()}", "pk_x", retry=RetryPolicy(max_retries=2, backoff_base=0.01), on_retry=lambda e, n, d: retries.append(n))
    with pytest.raises(ConnectionFailed) as e:
        c.get_profile("x")
    assert e.value.status is None and isinstance(e.value.__cause__, OSError)
    assert retries == [1, 2]  # a GET is safe to repeat
    retries.clear()
    with pytest.raises(ConnectionFailed):
        c.submit_text("x", "hello")  # carries an idempotency key: safe too
    assert retries == [1, 2]
    retries.clear()
    with pytest.raises(ConnectionFailed):
        c.rollback("x", 1)  # not safe to repeat when no answer says whether it happened
    assert retries == []


def test_arguments_checked_before_sending(client: Profiler) -> None:
    with pytest.raises(ValueError):
        client.get_profile("")
    with pytest.raises(TypeError):
        client.submit("x", {"not": "text"})  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        client.submit_conversation("x", [{"text": "no role"}])
    with pytest.raises(ValueError):
        Profiler("ftp://example", "pk_x")
