"""Topic profiles: the TOML file a user writes to describe what to crawl."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from focused.frontier.urls import BadURL, canonical_url


class ProfileError(ValueError):
    """A profile that cannot be used; the message names file, key and problem."""

    def __init__(self, path: Path | str, key: str, problem: str):
        super().__init__(f"{path}: {key}: {problem}")


@dataclass(frozen=True)
class Profile:
    name: str
    description: str
    keywords: tuple[str, ...]
    seeds: tuple[str, ...]
    positive: tuple[str, ...] = ()
    negative: tuple[str, ...] = ()
    max_pages: int = 2000
    allowed_domains: tuple[str, ...] = ()
    render_hosts: tuple[str, ...] = ()  # hosts whose pages are rendered in a browser (focused/fetching/rendering.py)
    relevance_threshold: float = 0.5
    path: Path = field(default=Path("<memory>"), compare=False)


# key -> (expected type, required); a nested dict is a table.
SCHEMA: dict[str, Any] = {
    "name": (str, True),
    "description": (str, True),
    "keywords": (list, True),
    "seeds": (list, True),
    "examples": ({"positive": (list, False), "negative": (list, False)}, False),
    "crawl": (
        {
            "max_pages": (int, False),
            "allowed_domains": (list, False),
            "render_hosts": (list, False),
            "relevance_threshold": (float, False),
        },
        False,
    ),
}


def load_profile(path: str | Path) -> Profile:
    """Read and validate a profile; any problem raises ProfileError before crawling starts."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise ProfileError(path, "(file)", "no such file") from None
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(path, "(syntax)", f"not valid TOML: {exc}") from None
    _check_table(path, data, SCHEMA, prefix="")
    examples = data.get("examples", {})
    crawl = data.get("crawl", {})
    profile = Profile(
        name=_name(path, data["name"]),
        description=_nonempty(path, "description", data["description"].strip()),
        keywords=_strings(path, "keywords", data["keywords"], nonempty=True),
        seeds=tuple(
            _url(path, f"seeds[{i}]", u) for i, u in enumerate(_strings(path, "seeds", data["seeds"], nonempty=True))
        ),
        positive=_strings(path, "examples.positive", examples.get("positive", [])),
        negative=_strings(path, "examples.negative", examples.get("negative", [])),
        max_pages=crawl.get("max_pages", 2000),
        allowed_domains=_strings(path, "crawl.allowed_domains", crawl.get("allowed_domains", [])),
        render_hosts=tuple(h.lower() for h in _strings(path, "crawl.render_hosts", crawl.get("render_hosts", []))),
        relevance_threshold=float(crawl.get("relevance_threshold", 0.5)),
        path=path,
    )
    if profile.max_pages <= 0:
        raise ProfileError(path, "crawl.max_pages", f"must be positive, got {profile.max_pages}")
    if not 0.0 <= profile.relevance_threshold <= 1.0:
        raise ProfileError(path, "crawl.relevance_threshold", f"must be within 0..1, got {profile.relevance_threshold}")
    return profile


def _check_table(path: Path, data: dict, schema: dict, prefix: str) -> None:
    for key in data:
        if key not in schema:
            raise ProfileError(path, prefix + key, f"unknown key (expected one of: {', '.join(schema)})")
    for key, (kind, required) in schema.items():
        if key not in data:
            if required:
                raise ProfileError(path, prefix + key, "missing required key")
            continue
        value = data[key]
        if isinstance(kind, dict):
            if not isinstance(value, dict):
                raise ProfileError(path, prefix + key, f"must be a table, got {_type(value)}")
            _check_table(path, value, kind, prefix=f"{prefix}{key}.")
        elif not _is(value, kind):
            raise ProfileError(path, prefix + key, f"must be {kind.__name__}, got {_type(value)}")


def _is(value: Any, kind: type) -> bool:
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, kind) and not isinstance(value, bool)


def _type(value: Any) -> str:
    return type(value).__name__


def _strings(path: Path, key: str, values: list, nonempty: bool = False) -> tuple[str, ...]:
    if nonempty and not values:
        raise ProfileError(path, key, "must not be empty")
    for i, value in enumerate(values):
        if not isinstance(value, str) or not value.strip():
            raise ProfileError(path, f"{key}[{i}]", f"must be a non-empty string, got {value!r}")
    return tuple(v.strip() for v in values)


def _nonempty(path: Path, key: str, value: str) -> str:
    if not value:
        raise ProfileError(path, key, "must not be empty")
    return value


def _name(path: Path, value: str) -> str:
    if not value or not all(c.isalnum() or c in "-_" for c in value):
        raise ProfileError(
            path, "name", f"must be a non-empty identifier of letters, digits, '-' or '_', got {value!r}"
        )
    return value


def _url(path: Path, key: str, value: str) -> str:
    try:
        return canonical_url(value)
    except BadURL as exc:
        raise ProfileError(path, key, f"not a fetchable http(s) URL ({exc.reason}): {value!r}") from None
