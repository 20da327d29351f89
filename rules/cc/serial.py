"""JSON-ready round-trips of campaign state dataclasses (`to_data` / `from_data`).

Dataclasses become dicts, enums their values, tuples lists and `RollRecord`s their own dicts;
`from_data` rebuilds them from the dataclass field types. Dict keys must be strings or
string enums (JSON object keys).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from typing import Any

from rules.dice import RollRecord


def to_data(value: Any) -> Any:
    if isinstance(value, RollRecord):
        return value.as_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {to_data(k): to_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_data(v) for v in value]
    return value


def from_data(tp: Any, data: Any) -> Any:
    """Rebuild a value of type `tp` (a dataclass, enum, container or plain type) from data."""
    if data is None:
        return None
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(tp) if a is not type(None)]
        return from_data(inner[0], data) if len(inner) == 1 else data
    if origin is list:
        (item,) = typing.get_args(tp)
        return [from_data(item, v) for v in data]
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_data(args[0], v) for v in data)
        return tuple(from_data(a, v) for a, v in zip(args, data, strict=True))
    if origin is dict:
        key, val = typing.get_args(tp)
        return {from_data(key, k): from_data(val, v) for k, v in data.items()}
    if tp is RollRecord:
        return RollRecord.from_dict(data)
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp(data)
    if dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp)
        fields = {f.name for f in dataclasses.fields(tp) if f.init}
        return tp(**{k: from_data(hints[k], v) for k, v in data.items() if k in fields})
    return data
