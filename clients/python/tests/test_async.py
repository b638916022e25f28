"""The asyncio client through a real service (run with asyncio.run: no pytest plugin needed)."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any, Callable, List, Mapping

import pytest

from profiler_client import AsyncProfiler, BadRequest, NotFound, Unauthorized


def interests(profile: Mapping[str, Any]) -> List[str]:
    return sorted(str(v["value"]).lower() for values in profile.get("interests", {}).values() for v in values)


def test_async_main_path(aclient: AsyncProfiler, new_id: Callable[[str], str]) -> None:
    prefix = new_id("async")

    async def main() -> None:
        pid = f"{prefix}-main"
        sub = await aclient.submit_text(pid, "My name is Ines. I live in Madrid and I love salsa and climbing.")
        conv = await aclient.submit_conversation(pid, [{"role": "user", "content": "I love photography."}, {"role": "assistant", "content": "Cool."}])
        assert sub.id != conv.id
        profile = await aclient.wait_until_ready(pid, timeout=60)
        assert profile["status"] == "ready"
        assert profile["core_info"]["location"]["value"] == "Madrid"
        assert {"salsa", "climbing", "photography"} <= set(interests(profile))
        seq = profile["update_log"][-1]["seq"]

        await aclient.submit_text(pid, "I enjoy painting.")
        assert "painting" in interests(await aclient.wait_until_ready(pid))

        ctx = await aclient.context(pid, "What does she do for fun?", max_tokens=150)
        assert ctx["tokens"] <= 150 and "climbing" in ctx["text"]

        forgotten = await aclient.forget(pid, "interests", "salsa")
        assert "salsa" not in interests(forgotten)
        back = await aclient.rollback(pid, seq)
        assert "painting" not in interests(back) and "salsa" not in interests(back)  # what was forgotten stays forgotten

        await aclient.delete_profile(pid)
        with pytest.raises(NotFound) as e:
            await aclient.get_profile(pid)
        assert e.value.status == 404 and e.value.request_id

    asyncio.run(main())


def test_async_submits_run_concurrently_and_search_iterates_pages(aclient: AsyncProfiler, new_id: Callable[[str], str]) -> None:
    prefix = new_id("apage")
    ids = [f"{prefix}-{i}" for i in range(5)]

    async def main() -> None:
        subs = await asyncio.gather(*(aclient.submit_structured(pid, {"core_info": {"name": f"Async {i}"}}) for i, pid in enumerate(ids)))
        assert len({s.id for s in subs}) == 5
        await asyncio.gather(*(aclient.wait_until_ready(pid) for pid in ids))
        seen = [p["profile_id"] async for p in aclient.search(filter_by="id", filter_value=prefix, sort_by="id", sort_order="asc", page_size=2)]
        assert seen == ids
        page = await aclient.search_page(filter_by="id", filter_value=prefix, page_size=2, page=3)
        assert page["total"] == 5 and len(page["profiles"]) == 1

    asyncio.run(main())


def test_async_errors_are_typed(service_url: str, aclient: AsyncProfiler) -> None:
    async def main() -> None:
        with pytest.raises(Unauthorized) as e:
            await AsyncProfiler(service_url, "pk_wrong").get_profile("x")
        assert e.value.status == 401 and e.value.code == "UNAUTHENTICATED" and e.value.request_id
        with pytest.raises(BadRequest) as e2:
            await aclient.submit_text(f"x-{uuid.uuid4().hex}", "")
        assert e2.value.status == 400

    asyncio.run(main())
