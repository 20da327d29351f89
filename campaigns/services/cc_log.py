"""The log entries a Combat Commander campaign's engine writes: its rolls and explanations.

Each entry keeps its message (`rules.i18n.msg`), so the log reads in every reader's
language: an explanation step's words, its value when the words do not already say it,
and the roll it was made with.
"""

from __future__ import annotations

import re
from typing import Any

from campaigns.models import Battle, Campaign, LogEntry
from campaigns.services._base import append_log
from rules.dice import RollRecord
from rules.i18n import Msg, msg
from rules.serial import to_data


def show(answer: Any) -> str | Msg:
    if isinstance(answer, list):
        return ", ".join(map(str, answer)) or msg("nothing")
    return str(answer)


def _roll_text(roll: RollRecord) -> str:
    faces = "+".join(map(str, roll.faces)) if len(roll.faces) > 1 else ""
    return f"{roll.value} ({faces})" if faces else str(roll.value)


def log_rolls(campaign: Campaign, battle: Battle, rolls: list[RollRecord]) -> None:
    """Rolls made before a decision, logged now, before anyone sees their effect; a roll
    entered at the table says so (who entered it is logged with the answer)."""
    for roll in rolls:
        words = {"kind": roll.kind, "purpose": msg(roll.purpose), "value": _roll_text(roll)}
        text = (
            msg("%(kind)s rolled at the table for %(purpose)s: %(value)s", **words)
            if roll.source == "entered"
            else msg("Rolled %(kind)s for %(purpose)s: %(value)s", **words)
        )
        append_log(
            campaign,
            kind=LogEntry.Kind.ROLL,
            summary=text,
            rule=roll.rule,
            battle=battle,
            data={"roll": roll.as_dict()},
        )


def log_explanation(campaign: Campaign, battle: Battle, explanation) -> None:
    """Each step of a finished procedure, a roll entry when its roll was not logged yet."""
    logged = {
        _roll_key(e.data["roll"])
        for e in battle.log.filter(kind=LogEntry.Kind.ROLL)
        if "roll" in e.data
    }
    for step in explanation:
        data: dict[str, Any] = {}
        text = step.text
        if step.value is not None:
            data["value"] = _plain(step.value)
            shown = show(data["value"])
            if _shows_value(str(text), data["value"], shown):
                text = msg("%(text)s: %(value)s", text=text, value=shown)
        kind = LogEntry.Kind.RULE
        if step.roll is not None:
            data["roll"] = step.roll.as_dict()
            text = msg(
                "%(text)s — %(kind)s %(roll)s",
                text=text,
                kind=step.roll.kind,
                roll=_roll_text(step.roll),
            )
            if _roll_key(data["roll"]) not in logged:
                kind = LogEntry.Kind.ROLL
        append_log(campaign, kind=kind, summary=text, rule=step.rule, battle=battle, data=data)


_IDENTIFIER = re.compile(r"[a-z][a-z0-9_]*")


def _shows_value(text: str, value: Any, shown: str | Msg) -> bool:
    """Whether a step's value adds to its words: not when the words already end with it or
    name it, and never an engine identifier (`defend`, `four_wins`): a step with one says it
    in words."""
    if isinstance(shown, Msg):
        return True
    if text.endswith(shown):
        return False
    if isinstance(value, str):
        return shown not in text and not _IDENTIFIER.fullmatch(value)
    return True


def _roll_key(roll: dict[str, Any]) -> tuple:
    return (roll["purpose"], roll["rule"], tuple(roll["faces"]), roll["value"])


def _plain(value: Any) -> Any:
    """Make an explanation value JSON-friendly (enums, tuples, dataclasses)."""
    return to_data(value)
