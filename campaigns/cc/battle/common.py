"""Inputs several procedures share: whose unit, which registered counter."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.cc.battle.fields import Field
from campaigns.cc.battle.spec import Context
from rules.cc.battle.units import SIDE_LABELS
from rules.cc.common import Faction
from rules.i18n import Msg, msg

SIDE_FIELD = "side"
ACTING_SIDE = "acting_side"
"""Beside a procedure's inputs: the side a game master or organiser acts for."""


def side_choices(context: Context | None) -> tuple[tuple[str, Msg], ...]:
    """The battle's sides by name; without a battle (the API schema) by their rule words."""
    if context is None:
        return tuple((f.value, words) for f, words in SIDE_LABELS.items())
    return tuple((f.value, _words(context.state.sides[f])) for f in Faction)


def _words(name) -> Msg:
    return name if isinstance(name, Msg) else msg("%(name)s", name=name)


def acting_side(inputs: Mapping[str, Any], context: Context) -> Faction:
    """The side the inputs name, else the acting player's."""
    return Faction(inputs.get(SIDE_FIELD) or context.side)


def unit_choices(context: Context | None) -> tuple[tuple[str, Msg], ...]:
    """The registered counters still on the map, by side and name (none when tracked light)."""
    if context is None:
        return ()
    state = context.state
    return tuple(
        (u.id, msg("%(side)s: %(name)s (%(id)s)", side=state.sides[u.side], name=u.name, id=u.id))
        for u in state.units.values()
        if not (u.eliminated or u.exited)
    )


WHOSE = Field(SIDE_FIELD, msg("Whose"), "choice", choices=side_choices)
UNIT_ID = Field(
    "unit_id",
    msg("Registered unit"),
    "choice",
    required=False,
    choices=lambda context: (("", msg("— not registered —")), *unit_choices(context)),
    help=msg("When the battle is tracked with every unit; otherwise name the counter."),
)
