"""The shapes the service answers with (its JSON, as is) and the few values this client makes itself.

Responses are TypedDicts: plain dicts at run time, so a field the service adds later is there to read, typed for a
type checker. Keys the service always sends are required; the others (a summary before the first merge, a
`similarityScore` outside ranked searches, a custom schema's `custom` section...) are optional. (Python 3.9 has no
NotRequired: optional keys sit in a `total=False` subclass of the required ones.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Literal, Optional, TypedDict

InputType = Literal["text", "conversation", "structured"]
ContextInclude = Literal["all", "facts", "passages"]
SortBy = Literal["last_updated", "created_at", "id", "name", "age", "location"]
SortOrder = Literal["asc", "desc"]
FilterBy = Literal["id", "name", "location", "age", "gender", "language", "status"]
ProfileStatus = Literal["processing", "ready"]


class ScoredValue(TypedDict):
    value: Any
    confidence: float


class CoreInfo(TypedDict, total=False):
    name: ScoredValue
    age: ScoredValue
    gender: ScoredValue
    location: ScoredValue
    occupation: ScoredValue


class MoodTrends(TypedDict, total=False):
    default: ScoredValue
    recent: ScoredValue


class Personality(TypedDict, total=False):
    traits: List[ScoredValue]
    mood_trends: MoodTrends


class _MemoryRequired(TypedDict):
    event: str


class Memory(_MemoryRequired, total=False):
    date: str
    importance: Literal["low", "medium", "high"]
    confidence: float


class Preferences(TypedDict, total=False):
    conversation_style: ScoredValue
    topics_to_avoid: List[ScoredValue]


class UpdateLogEntry(TypedDict):
    extracted_on: str
    changes: Dict[str, Any]
    submission_ids: List[str]
    input_type: str
    seq: int


class _ProfileRequired(TypedDict):
    profile_id: str
    tenant_id: str
    status: ProfileStatus
    core_info: CoreInfo
    interests: Dict[str, List[ScoredValue]]
    personality: Personality
    memories: List[Memory]
    preferences: Preferences
    field_timestamps: Dict[str, str]
    update_log: List[UpdateLogEntry]  # the newest 100 entries, newest last
    last_updated: str
    created_at: str


class Profile(_ProfileRequired, total=False):
    summary: str
    language: str  # ISO 639-1, once detected
    custom: Dict[str, Any]  # an app's custom schema's sections
    past_values: Dict[str, Any]
    similarityScore: float  # search results ranked by a query only


class _SearchPageRequired(TypedDict):
    profiles: List[Profile]
    total: int
    page: int
    pageSize: int


class SearchPage(_SearchPageRequired, total=False):
    totalIsEstimate: bool  # present (True) only when total was estimated from a sample: a large tenant's full page


class Context(TypedDict):
    profile_id: str
    status: ProfileStatus
    text: str
    tokens: int
    max_tokens: int
    encoding: str
    facts_included: int
    facts_total: int
    passages_included: int
    include: ContextInclude
    summary_included: bool
    truncated: bool
    ranked_by: Literal["confidence", "query", "query_lexical"]


class _MessageRequired(TypedDict):
    role: str
    content: str


class Message(_MessageRequired, total=False):
    """A conversation turn. Only the profiled person's turns (role `user`) are evidence about them. `timestamp`: when
    it was said (ISO 8601); the latest one is the submission's event time when no occurred_at is given."""

    timestamp: str


@dataclass(frozen=True)
class Submission:
    """The service's 202: the submission is stored and will be processed in the background."""

    id: str
    profile_id: str
    message: str
    idempotency_key: Optional[str]
    request_id: Optional[str]
