"""Words the site translates for its reader: message ids with parameters.

The engine has no Django, so it cannot translate; it says *which* message it means. A
procedure writes ``msg("%(side)s rolls for the %(table)s", side=..., table=...)`` instead
of an f-string; the site keeps the message id and its parameters and renders them in the
reader's language when the page is drawn, so an entry logged in English reads in Spanish
for a Spanish reader. ``str()`` of a message is its English text (the ids are English).

``msg`` and ``nmsg`` are extraction keywords: ``manage.py makemessages`` (our override in
``campaigns/management/commands``) collects their first arguments into the catalogue.
A parameter may itself be a message (a side's name, an option's label), or a list of
them (shown joined by "; "): it is translated too. Plurals go through ``nmsg(singular, plural, n, ...)``, which picks the form by ``n``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Msg:
    """A message id, its parameters and, for plurals, the plural id and the count."""

    id: str
    params: Mapping[str, Any] = field(default_factory=dict)
    plural: str = ""
    n: int | None = None

    def __hash__(self) -> int:  # parameters are a mapping: hash what they say
        return hash((self.id, self.plural, self.n, tuple(sorted(map(repr, self.params.items())))))

    def __str__(self) -> str:
        text = self.plural if self.plural and self.n != 1 else self.id
        return fill(text, {k: words(v, str) for k, v in self.params.items()})

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id}
        if self.params:
            data["params"] = {k: _param_data(v) for k, v in self.params.items()}
        if self.plural:
            data["plural"] = self.plural
            data["n"] = self.n
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Msg:
        params = {k: _param_from(v) for k, v in (data.get("params") or {}).items()}
        return cls(str(data["id"]), params, str(data.get("plural", "")), data.get("n"))


def msg(text: str, /, **params: Any) -> Msg:
    """A translatable message: ``text`` is the English id, with ``%(name)s`` placeholders."""
    return Msg(text, params)


def nmsg(singular: str, plural: str, n: int, /, **params: Any) -> Msg:
    """A message whose form depends on the count ``n`` (available as ``%(n)s``)."""
    return Msg(singular, {"n": n, **params}, plural, n)


def fill(text: str, params: Mapping[str, Any]) -> str:
    """``text % params``, tolerant of a translation that drops or misspells a placeholder."""
    if not params:
        return text
    try:
        return text % dict(params)
    except (KeyError, ValueError, TypeError):
        return text


def words(value: Any, render) -> Any:
    """A parameter as text: a message rendered by `render`, a list of them joined."""
    if isinstance(value, Msg):
        return render(value)
    if isinstance(value, list | tuple):
        return "; ".join(str(words(v, render)) for v in value)
    return value


def _param_data(value: Any) -> Any:
    if isinstance(value, Msg):
        return {"msg": value.as_dict()}
    if isinstance(value, list | tuple):
        return [_param_data(v) for v in value]
    return value


def _param_from(value: Any) -> Any:
    if isinstance(value, Mapping) and set(value) == {"msg"}:
        return Msg.from_dict(value["msg"])
    if isinstance(value, list):
        return [_param_from(v) for v in value]
    return value
