"""JSON-ready round-trips of the engine's dataclasses (`to_data` / `from_data`).

Dataclasses become dicts, enums their values, tuples and sets lists, dict keys strings, and
`RollRecord`, `Explanation` and `Decision` their own plain forms; `from_data` rebuilds them
from the dataclass field types. The site stores engine states and results this way.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from enum import Enum
from typing import Any, Self

from rules.dice import RollRecord
from rules.explain import Decision, Explanation
from rules.i18n import Msg


def to_data(value: Any) -> Any:
    if isinstance(value, Msg):
        return value.as_dict()
    if isinstance(value, RollRecord):
        return value.as_dict()
    if isinstance(value, Explanation):
        return value.as_list()
    if isinstance(value, Decision):
        return {**value.as_dict(), "options": to_data(value.options)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {str(to_data(k)): to_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [to_data(v) for v in value]
    return value


def from_data(tp: Any, data: Any) -> Any:
    """Rebuild a value of type `tp` (dataclass, enum, container or plain type) from data."""
    if data is None:
        return None
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        if Msg in inner and isinstance(data, dict) and "id" in data:  # words: str | Msg
            return Msg.from_dict(data)
        return from_data(inner[0], data) if len(inner) == 1 else data
    if origin is list:
        return [from_data(args[0], v) for v in data]
    if origin in (set, frozenset):
        return origin(from_data(args[0], v) for v in data)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_data(args[0], v) for v in data)
        return tuple(from_data(a, v) for a, v in zip(args, data, strict=True))
    if origin is dict:
        return {from_data(args[0], k): from_data(args[1], v) for k, v in data.items()}
    if tp is int and isinstance(data, str):
        return int(data)
    if tp is RollRecord:
        return RollRecord.from_dict(data)
    if tp is Explanation:
        return Explanation.from_list(data)
    if tp is Decision:
        return Decision.from_dict(data)
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp(data)
    if dataclasses.is_dataclass(tp):
        hints = _init_hints(tp)
        return tp(**{k: from_data(hints[k], v) for k, v in data.items() if k in hints})
    return data


@functools.cache
def _init_hints(tp: type) -> dict[str, Any]:
    """The types of a dataclass's init fields (resolving them is costly: once per class)."""
    hints = typing.get_type_hints(tp)
    return {f.name: hints[f.name] for f in dataclasses.fields(tp) if f.init}


class Serializable:
    """Mixin for dataclasses: `to_dict()` gives JSON-ready data, `from_dict()` rebuilds it."""

    def to_dict(self) -> dict[str, Any]:
        return to_data(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        return from_data(cls, data)
