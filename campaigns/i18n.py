"""Render the engine's and the log's message ids in the reader's language.

`rules.i18n.Msg` names a message; this module is where the site translates it, at the
moment a page or an API answer is drawn (so an entry reads in the reader's language,
whatever language its writer used). Stored forms are the dicts of `Msg.as_dict`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, ngettext

from rules.i18n import Msg, fill, words


def say(value: Any) -> str:
    """The reader's-language text of a message, a stored message dict or a plain value."""
    if isinstance(value, Mapping) and "id" in value:
        value = Msg.from_dict(value)
    if not isinstance(value, Msg):
        return "" if value is None else str(value)
    params = {k: words(v, say) for k, v in value.params.items()}
    if value.plural:
        text = ngettext(value.id, value.plural, value.n if value.n is not None else 0)
    else:
        text = gettext(value.id) if value.id else ""
    return fill(text, params)


def say_step(step: Mapping[str, Any]) -> str:
    """A stored explanation step's text (`Step.as_dict`): its message if it has one."""
    return say(step["msg"]) if step.get("msg") else str(step.get("text", ""))


def say_entry(entry) -> str:
    """A log entry's summary in the reader's language (entries logged before message ids
    existed keep the words they were written with)."""
    stored = (entry.data or {}).get("msg") if isinstance(entry.data, Mapping) else None
    return say(stored) if stored else entry.summary


def say_problems(problems) -> list[str]:
    """A table's problems (`TableDataError.problems`: where, what to do) as lines to show."""
    return [f"{say(where)}: {say(what)}" if where else say(what) for where, what in problems]


def rule_text(exc) -> str:
    """An engine refusal (`rules.errors.RuleError`) in the reader's language, with its rule:
    "[6.2.1] …"."""
    text = say(exc.message)
    return f"[{exc.rule}] {text}" if exc.rule else text
