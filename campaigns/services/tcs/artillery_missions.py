"""Artillery missions on the site [18.3–18.9]: a mission in the Air & Artillery Phase
(observer, volleys crossed off, adjustment, scatter, No Shoot refund, smoke and Illum
markers) and the barrage attack on a hex, which leaves an OPEN record (kind "artillery")
that the target's owner applies with `tcs_fire_apply`.

Two of the operation's readings play here: `battalion_fire_per_battery` (18.2.c/18.5.b:
three volleys or one per battery firing) and `artillery_point_dice_summed` (18.9.b: 2d6 sum
or d66). Batteries, stocks and markers are in `campaigns.services.tcs.artillery`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.models import Campaign, Side
from campaigns.models.tcs import TcsCombat
from campaigns.selectors.tcs_artillery import (
    ATTACK_KIND,
    MISSION_KIND,
    adjustment_table,
    ammo_record,
    markers,
)
from campaigns.selectors.tcs_charts import operation_charts
from campaigns.services.tcs.artillery import save_record, store_markers
from campaigns.services.tcs.common import (
    dice_for,
    log_explanation,
    roll_needed,
    rule_error,
    side_write,
)
from campaigns.services.tcs.fire import FireOrder, chart_reads, chart_value_needed, summary
from campaigns.tcs.state import current_turn, options_for
from rules.dice import EnteredDice
from rules.errors import DiceError, RollNeeded, RuleError
from rules.explain import DecisionRequired, Explanation
from rules.serial import to_data
from rules.tcs.ammo import BATTALION_VOLLEYS, AmmoType, Battery
from rules.tcs.artillery import (
    BarrageHit,
    MissionFactors,
    MissionKind,
    Shoot,
    adjust,
    barrage_attack,
    check_observer,
    fire_mission,
    mission_factors,
    point_target_attack,
)
from rules.tcs.fire import TargetUnit
from rules.tcs.fire_tables import Terrain
from rules.tcs.smoke import Source

ATTACKING = (MissionKind.HE, MissionKind.CONTINUOUS, MissionKind.ROCKET)


@dataclass(frozen=True)
class MissionOrder:
    """A mission as announced [18.4]: batteries, kind, target hex, the observer's answers,
    column modifiers (“name; value”), the result read off the chart if no table is used."""

    batteries: Sequence[str]
    kind: MissionKind
    hex: str
    battalion: bool = False
    rapid: bool = False
    fire_mode: bool = True
    suppressed: bool = False
    los: bool = True
    within_visibility: bool = True
    modifiers: Sequence[tuple[str, int]] = ()
    shoot: str | None = None
    all_water: bool = False


@dataclass(frozen=True)
class AttackOrder:
    """A barrage attack on one hex [18.3 (3)]: the missions hitting it (id, in the zone?),
    the hex as the firer reads it, chart values typed, P-target steps and kill number."""

    missions: Sequence[tuple[int, bool]]
    targets: Sequence[TargetUnit]
    terrain: Terrain
    other: Sequence[tuple[str, int]] = ()
    read: dict[str, int | None] | None = None
    p_steps: int = 0
    kill_number: int | None = None


# --- missions ---------------------------------------------------------------------------------


def _factors(
    order: MissionOrder, battery: Battery, fires_as: Shoot | None, per_battery: bool
) -> MissionFactors:
    """`per_battery`: the reading `battalion_fire_per_battery` [18.2.c, 18.5.b, A27]."""
    printed = battery.bad_af if fires_as is Shoot.BAD_SHOOT else battery.good_af
    return mission_factors(
        order.kind,
        printed,
        battalion=order.battalion,
        rapid=order.rapid,
        calibre_mm=battery.calibre_mm,
        batteries=len(order.batteries) if per_battery else BATTALION_VOLLEYS,
    )


def _landed(order: MissionOrder, where) -> str:
    if where is None:
        return order.hex
    if where.opponent_places:
        return _("%(hex)s → placed by the opponent within 3 hexes") % {"hex": order.hex}
    return _("%(hex)s → %(n)s hex(es) towards direction %(d)s") % {
        "hex": order.hex,
        "n": where.distance,
        "d": where.direction,
    }


def tcs_artillery_mission(
    *, side: Side, actor, order: MissionOrder, rolls: list[int] | None = None
) -> TcsCombat:
    """One mission [18.4–18.7]: the observer checked, the volleys crossed off [18.2.a], the
    adjustment (the operation's table, or the result read off the chart), the scatter; a No
    Shoot gives the volleys back [18.7.b]; smoke and Illum place their markers."""
    kind = MissionKind(order.kind)
    with side_write(side, side.campaign_id, actor) as campaign:
        if campaign.status != Campaign.Status.ACTIVE:
            raise ValidationError(_("Missions are fired once play has started."))
        turn = current_turn(campaign)
        per_battery = options_for(campaign).battalion_fire_per_battery
        record = ammo_record(side, turn.number)
        try:
            if kind is not MissionKind.ILLUM:
                check_observer(
                    fire_mode=order.fire_mode,
                    suppressed=order.suppressed,
                    paralyzed=False,
                    los=True,
                    within_visibility=True,
                )
            first = record.battery(order.batteries[0]) if order.batteries else None
            if first is None:
                raise ValidationError({"batteries": _("Choose the firing battery or batteries.")})
            change = fire_mission(
                record, order.batteries, _factors(order, first, None, per_battery)
            )
        except RuleError as exc:
            raise rule_error(exc, "batteries") from None
        dice = dice_for(rolls)
        public = Explanation()
        placed = markers(campaign)
        shoot = fires_as = where = None
        refund = False
        try:
            if kind is MissionKind.ILLUM:
                public.extend(
                    placed.place_illum(order.hex, str(side.pk), Source.ARTILLERY, turn.light)
                )
            else:
                table = adjustment_table(campaign) if not order.shoot else None
                result = adjust(
                    kind,
                    dice,
                    table=table,
                    value=first.adjustment if table else None,
                    modifiers=order.modifiers,
                    entered=order.shoot,
                    observer_los=order.los and order.within_visibility,
                    all_water=order.all_water,
                )
                public.extend(result.explanation)
                shoot, fires_as = result.shoot, result.fires_as
                where, refund = result.scatter, result.refund
        except DecisionRequired:
            raise ValidationError(
                {
                    "shoot": _(
                        "No Artillery Adjustment Table is entered (or the battery has no "
                        "adjustment value): roll at the table and enter the result [18.7.a]."
                    )
                }
            ) from None
        except RollNeeded as exc:
            raise roll_needed(exc, "rolls") from None
        except RuleError as exc:
            raise rule_error(exc, "rolls" if rolls is not None else "detail") from None
        if isinstance(dice, EnteredDice) and dice.remaining:
            raise ValidationError(
                {"rolls": _("More dice were entered than the mission rolls: enter exactly those.")}
            )
        landed = _landed(order, where)
        private = Explanation()
        private.extend(change.explanation)
        if refund:
            private.extend(record.refund(change.spent))
        if kind is MissionKind.SMOKE and not refund:
            public.extend(
                placed.place_artillery_smoke(landed, str(side.pk), all_water=order.all_water)
            )
        factors = _factors(order, first, fires_as, per_battery) if fires_as else None
        save_record(side, record, turn.number)
        store_markers(campaign, placed)
        combat = TcsCombat.objects.create(
            campaign=campaign,
            side=side,
            target_side=None,
            turn=turn.number,
            kind=MISSION_KIND,
            rule="18.4",
            status=TcsCombat.Status.DONE,
            inputs={
                "batteries": list(order.batteries),
                "kind": kind.value,
                "hex": order.hex,
                "battalion": order.battalion,
                "rapid": order.rapid,
            },
            result={
                "shoot": shoot.value if shoot else None,
                "fires_as": fires_as.value if fires_as else None,
                "hex": landed,
                "refund": refund,
                "opponent_places": bool(where and where.opponent_places),
                "factors": _factor_data(factors),
                "spent": change.spent.to_dict() if change.spent else None,
                "explanation": public.as_list(),
            },
            created_by=actor,
        )
        log_explanation(
            campaign,
            public,
            actor=actor,
            private_to=None,
            tag={"combat": combat.pk},
            turn=turn.number,
        )
        log_explanation(
            campaign,
            private,
            actor=actor,
            private_to=side,
            tag={"combat": combat.pk},
            turn=turn.number,
        )
    return combat


def _factor_data(factors: MissionFactors | None) -> dict[str, Any] | None:
    if factors is None:
        return None
    return {
        "kind": factors.kind.value,
        "zone_af": factors.zone_af,
        "adjacent_af": factors.adjacent_af,
        "zone_hexes": factors.zone_hexes,
        "volleys": factors.volleys,
        "ammo": factors.ammo.value,
        "blocks_los": factors.blocks_los,
    }


def _hit(combat: TcsCombat, in_zone: bool) -> BarrageHit:
    f = combat.result["factors"]
    factors = MissionFactors(
        MissionKind(f["kind"]),
        f["zone_af"],
        f["adjacent_af"],
        f["zone_hexes"],
        f["volleys"],
        AmmoType(f["ammo"]),
        f["blocks_los"],
    )
    return BarrageHit(factors, in_zone)


def tcs_artillery_attack(
    *, side: Side, actor, order: AttackOrder, rolls: list[int] | None = None
) -> TcsCombat:
    """Every barrage of this turn on one hex attacks it together on the Fire Table [18.3 (3)]
    (the hex as the firer reads it), then two dice per P-target step [18.9.b]. Public; an
    OPEN record for the target's owner when it leaves losses or a check."""
    if not order.missions:
        raise ValidationError({"missions": _("Choose the missions that hit this hex.")})
    with side_write(side, side.campaign_id, actor) as campaign:
        if campaign.status != Campaign.Status.ACTIVE:
            raise ValidationError(_("Missions are fired once play has started."))
        turn = current_turn(campaign).number
        ids = [pk for pk, _zone in order.missions]
        found = {
            c.pk: c
            for c in TcsCombat.objects.filter(
                side=side, campaign=campaign, kind=MISSION_KIND, turn=turn, pk__in=ids
            )
        }
        if len(found) != len(set(ids)) or any(
            not found[pk].result.get("factors")
            or MissionKind(found[pk].result["factors"]["kind"]) not in ATTACKING
            for pk in ids
        ):
            raise ValidationError(
                {"missions": _("Choose this turn's HE, continuous or rocket missions that fired.")}
            )
        hits = [_hit(found[pk], zone) for pk, zone in order.missions]
        charts = operation_charts(campaign).fire
        if charts is None:
            raise ValidationError(
                {
                    "detail": _(
                        "This operation has no Fire Table yet: enter it on the charts page, or "
                        "resolve the barrage off the printed chart and record the losses."
                    )
                }
            )
        fire_order = FireOrder(
            kind="area",
            firers=(),
            targets=order.targets,
            terrain=order.terrain,
            other=order.other,
            read=order.read,
        )
        dice = dice_for(rolls)
        try:
            result = barrage_attack(
                hits,
                order.targets,
                order.terrain,
                charts,
                dice,
                other=order.other,
                entered=chart_reads(fire_order),
            )
            point = None
            if order.p_steps:
                point = point_target_attack(
                    order.p_steps,
                    dice,
                    kill_number=order.kill_number,
                    summed=options_for(campaign).artillery_point_dice_summed,
                )
        except DecisionRequired as exc:
            if exc.decision.key == "point_fire_number":
                raise ValidationError(
                    {"kill_number": _("Read the number on the Artillery Point Fire Table.")}
                ) from None
            raise chart_value_needed(exc) from None
        except RollNeeded as exc:
            raise roll_needed(exc, "rolls") from None
        except RuleError as exc:
            raise rule_error(exc, "rolls" if isinstance(exc, DiceError) else "detail") from None
        if isinstance(dice, EnteredDice) and dice.remaining:
            raise ValidationError(
                {"rolls": _("More dice were entered than the attack rolls: enter exactly those.")}
            )
        outcome = summary(fire_order, result)
        explanation = Explanation()
        explanation.extend(result.explanation)
        if point is not None:
            outcome["point_kills"] = point.destroyed
            outcome["steps"] = outcome["steps"] + point.destroyed
            explanation.extend(point.explanation)
        target = campaign.sides.exclude(pk=side.pk).order_by("order").first()
        pending = bool(outcome["steps"] or outcome["check"])
        combat = TcsCombat.objects.create(
            campaign=campaign,
            side=side,
            target_side=target,
            turn=turn,
            kind=ATTACK_KIND,
            rule="18.3",
            status=TcsCombat.Status.OPEN if pending and target else TcsCombat.Status.DONE,
            inputs={
                "missions": [[pk, zone] for pk, zone in order.missions],
                "targets": [to_data(t) for t in order.targets],
                "terrain": order.terrain.value,
                "p_steps": order.p_steps,
                "kill_number": order.kill_number,
            },
            result={**outcome, "explanation": explanation.as_list()},
            created_by=actor,
        )
        log_explanation(
            campaign,
            explanation,
            actor=actor,
            private_to=None,
            tag={"combat": combat.pk},
            turn=turn,
        )
    return combat
