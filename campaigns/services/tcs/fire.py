"""Direct fire resolved on the operation's charts: area fire [11], point fire [12] and AT
rolls [16], with the site's dice or the d66 rolled at the table.

The firer types what he sees on the map (his firing units, the target hex's counters); the
result is public, as it is at the table. What it does to the target is applied by the
target's owner (`campaigns.services.tcs.combat.tcs_fire_apply`): step losses on his own units
and the morale check it forces, whose total only he may see [1.5].
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.models import Campaign, Side
from campaigns.models.tcs import TcsCombat
from campaigns.selectors.tcs_charts import operation_charts
from campaigns.services.tcs.common import log_explanation, rule_error, side_write
from campaigns.tcs.state import current_turn
from rules.dice import DiceSource, EnteredDice, ServerDice
from rules.errors import DiceError, RollNeeded, RuleError
from rules.explain import DecisionRequired, Explanation
from rules.serial import to_data
from rules.tcs.fire import (
    Firer,
    FireResult,
    TargetUnit,
    area_fire,
    point_fire,
    result_words,
)
from rules.tcs.fire_actions import (
    EventKind,
    FirerState,
    at_rolls,
    check_overwatch,
    check_pfa,
    check_sfa,
)
from rules.tcs.fire_tables import Terrain

KINDS = ("area", "point", "at")
RULES = {"area": "11.0", "point": "12.0", "at": "16.0"}
# a chart value the rules ask for (DecisionRequired key "shift:<name>") → the form field
READ_FIELDS = {
    "terrain_posture": "terrain_shift",
    "range": "range_shift",
    "stacking": "stacking_shift",
    "differential": "differential_shift",
    "at_roll": "at_value",
}


@dataclass(frozen=True)
class FireOrder:
    """What the firer typed: the procedure, firers and targets as read off the map."""

    kind: str
    firers: Sequence[Firer]
    targets: Sequence[TargetUnit]
    terrain: Terrain
    spotted: bool = True
    road_movement: bool = False
    other: Sequence[tuple[str, int]] = ()
    read: Mapping[str, int | None] | None = None  # READ_FIELDS values typed off the chart
    distance: int = 1  # AT rolls: 0 in-hex, 1 one hex
    attacking_steps: int = 0  # AT rolls
    first_step_choice: str | None = None
    action: str = ""  # "sfa", "pfa", "overwatch"; "" checks nothing (assault, other fire)
    states: Sequence[FirerState] = ()  # what the action rules ask of each firer
    event: str = EventKind.MOVEMENT.value  # the overwatch event answered [15.2.a]


def chart_reads(order: FireOrder) -> dict[str, int]:
    """The chart values typed now, under every key the rules may ask them by."""
    read = {k: v for k, v in (order.read or {}).items() if v is not None}
    entered: dict[str, int] = {}
    if "terrain_shift" in read:
        for posture in {t.posture for t in order.targets}:
            entered[f"terrain_posture:{posture}"] = read["terrain_shift"]
    if "range_shift" in read:
        for f in order.firers:
            for row in ("infantry", "low_trajectory", "high_trajectory"):
                entered[f"range:{row}:{f.range}"] = read["range_shift"]
            for band in ("close", "nominal", "long"):
                entered[f"range:{band}"] = read["range_shift"]
    for name in ("stacking", "differential", "at_roll"):
        if READ_FIELDS[name] in read:
            entered[name] = read[READ_FIELDS[name]]
    return entered


def chart_value_needed(exc: DecisionRequired) -> ValidationError:
    """A chart value missing from the operation's charts, asked on the field that takes it."""
    key = exc.decision.key.removeprefix("shift:").split(":")[0]
    field = READ_FIELDS.get(key, "detail")
    return ValidationError(
        {
            field: _("%(prompt)s and enter the shift you read [%(rule)s].")
            % {"prompt": say(exc.decision.prompt), "rule": exc.decision.rule}
        }
    )


def action_check(order: FireOrder) -> Explanation:
    """The fire action's conditions [13.1, 14.1, 15.3]: a refusal names every firer that may
    not fire and why; afterwards the Fired markers and the overwatch it allows."""
    states = list(order.states)
    if order.action == "sfa":
        return check_sfa(states, at_rolls_only=order.kind == "at").explanation
    if order.action == "pfa":
        return check_pfa(states).explanation
    if order.action == "overwatch":
        distance = min((f.range for f in order.firers), default=order.distance)
        return check_overwatch(states, EventKind(order.event), distance=distance).explanation
    return Explanation()


def resolve(order: FireOrder, campaign: Campaign, dice: DiceSource | None) -> FireResult | Any:
    """Run the procedure (dice None: the column and odds only, for a preview)."""
    charts = operation_charts(campaign).fire
    if charts is None:
        raise ValidationError(
            {
                "detail": _(
                    "This operation has no Fire Table yet: enter it on the charts page, or "
                    "resolve the fire off the printed chart and record the losses."
                )
            }
        )
    entered = chart_reads(order)
    try:
        checked = action_check(order)
    except RuleError as exc:
        raise rule_error(exc, "firers") from None
    try:
        result = _fire(order, charts, dice, entered)
    except DecisionRequired as exc:
        raise chart_value_needed(exc) from None
    except RollNeeded:
        raise ValidationError(
            {"rolls": _("Enter the dice rolled at the table, or let the site roll.")}
        ) from None
    except RuleError as exc:
        raise rule_error(exc, "rolls" if isinstance(exc, DiceError) else "detail") from None
    if len(checked):
        checked.extend(result.explanation)
        result.explanation = checked
    return result


def _fire(order: FireOrder, charts, dice: DiceSource | None, entered: dict[str, int]):
    if order.kind == "area":
        return area_fire(
            order.firers,
            order.targets,
            order.terrain,
            charts,
            dice,
            spotted=order.spotted,
            road_movement=order.road_movement,
            other=order.other,
            entered=entered,
            first_step_choice=order.first_step_choice,
        )
    if order.kind == "point":
        return point_fire(
            order.firers,
            order.targets,
            order.terrain,
            charts,
            dice,
            other=order.other,
            entered=entered,
        )
    return at_rolls(
        order.attacking_steps,
        sum(t.steps for t in order.targets),
        order.terrain,
        order.distance,
        charts,
        dice if dice is not None else EnteredDice([]),
        modifiers=order.other,
        entered=entered,
    )


def _dice(order: FireOrder, rolls: list[int] | None) -> DiceSource:
    """The site's dice, or the table's: one d66 for fire, one 2d6 per AT roll [16.0]."""
    if rolls is None:
        return ServerDice()
    if order.kind != "at" and len(rolls) != 1:
        raise ValidationError({"rolls": _("Enter the one d66 rolled at the table, e.g. 46.")})
    return EnteredDice(rolls)


def summary(order: FireOrder, result: Any) -> dict[str, Any]:
    """What the result leaves to apply, as stored on the combat record."""
    if order.kind == "at":
        return {
            "kills": result.kills,
            "attacker_losses": result.attacker_losses,
            "needed": result.needed,
            "rolls": [r.value for r in result.rolls],
            "check": False,
            "steps": result.kills,
        }
    table_column = result.column
    out: dict[str, Any] = {
        "cell": to_data(result.result),
        "words": to_data(result_words(result.result)),
        "column": table_column,
        "roll": result.roll.value if result.roll else None,
        "check": bool(result.morale_check),
        "steps": int(result.steps or 0),
    }
    if result.split is not None:
        out["split"] = {
            "first_step": result.split.first_step,
            "defender": result.split.defender_steps,
            "attacker": result.split.attacker_steps,
        }
    return out


def tcs_fire_resolve(
    *,
    side: Side,
    actor,
    order: FireOrder,
    rolls: list[int] | None = None,
) -> TcsCombat:
    """One fire attack by `side`, logged in public with every shift and roll; when it
    leaves losses or a morale check, the target's owner is asked to apply them."""
    if order.kind not in KINDS:
        raise ValidationError({"kind": _("Choose area fire, point fire or AT rolls.")})
    with side_write(side, side.campaign_id, actor) as campaign:
        if campaign.status != Campaign.Status.ACTIVE:
            raise ValidationError(_("Fire is resolved once play has started."))
        dice = _dice(order, rolls)
        result = resolve(order, campaign, dice)
        if isinstance(dice, EnteredDice) and dice.remaining:
            raise ValidationError(
                {
                    "rolls": _(
                        "More dice were entered than the procedure rolls: enter exactly "
                        "the dice rolled at the table."
                    )
                }
            )
        outcome = summary(order, result)
        target = campaign.sides.exclude(pk=side.pk).order_by("order").first()
        pending = bool(outcome["steps"] or outcome["check"])
        turn = current_turn(campaign).number
        combat = TcsCombat.objects.create(
            campaign=campaign,
            side=side,
            target_side=target,
            turn=turn,
            kind=f"{order.kind}_fire" if order.kind != "at" else "at_rolls",
            rule=RULES[order.kind],
            status=TcsCombat.Status.OPEN if pending and target else TcsCombat.Status.DONE,
            inputs=order_data(order),
            result={**outcome, "explanation": result.explanation.as_list()},
            created_by=actor,
        )
        log_explanation(
            campaign,
            result.explanation,
            actor=actor,
            private_to=None,
            tag={"combat": combat.pk},
            turn=turn,
        )
    return combat


def order_data(order: FireOrder) -> dict[str, Any]:
    return {
        "kind": order.kind,
        "firers": [to_data(f) for f in order.firers],
        "targets": [to_data(t) for t in order.targets],
        "terrain": order.terrain.value,
        "spotted": order.spotted,
        "road_movement": order.road_movement,
        "other": [list(o) for o in order.other],
        "distance": order.distance,
        "attacking_steps": order.attacking_steps,
    }


def preview(order: FireOrder, campaign: Campaign) -> FireResult:
    """Area or point fire before any die is rolled: the column, its shifts and the exact
    odds of each result (AT rolls show their chance per roll once rolled)."""
    return resolve(order, campaign, None)
