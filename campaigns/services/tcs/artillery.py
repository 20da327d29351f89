"""Artillery on the site [18.0–18.10, 19, 26.2]: a side's batteries and ammunition record,
missions in the Air & Artillery Phase, the barrage attack on a hex, and the operation's Smoke
and Illum markers.

The ammunition record is the side's secret [1.5] (its changes are logged private to it); the
mission's adjustment, scatter and the attack are public, as on the map. The attack leaves an
OPEN record (kind "artillery") that the target's owner applies with `tcs_fire_apply`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign, LogEntry, Side, bounds
from campaigns.models.tcs import TcsCombat, TcsSide
from campaigns.selectors.tcs_artillery import (
    ATTACK_KIND,
    MARKERS_KEY,
    MISSION_KIND,
    adjustment_table,
    ammo_record,
    markers,
)
from campaigns.selectors.tcs_charts import operation_charts
from campaigns.services._base import append_log
from campaigns.services.tcs.common import (
    dice_for,
    locked,
    log_explanation,
    log_private,
    may_manage,
    roll_needed,
    rule_error,
    side_write,
)
from campaigns.services.tcs.fire import FireOrder, _entered, _needed, summary
from campaigns.tcs.state import current_turn
from rules.dice import EnteredDice
from rules.errors import RollNeeded, RuleError
from rules.explain import DecisionRequired, Explanation
from rules.i18n import msg
from rules.serial import to_data
from rules.tcs.ammo import AMMO_WORDS, AmmoRecord, AmmoType, Battery, legacy_allocation
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


# --- the record -------------------------------------------------------------------------------


def _save(side: Side, record: AmmoRecord, turn: int) -> None:
    settings, _created = TcsSide.objects.get_or_create(side=side)
    data = {**record.to_dict(), "turn": turn}
    data.pop("side", None)
    bounds.check_values(TcsSide, {"artillery": data})
    settings.artillery = data
    settings.save(update_fields=["artillery"])


def _record_change(side: Side, actor, campaign: Campaign, text, rule: str) -> None:
    log_private(campaign, side, actor, text, rule=rule, tag={"artillery": side.pk})


def tcs_artillery_battery_save(
    *, side: Side, actor, battery: Battery, original: str | None = None
) -> AmmoRecord:
    """Add a battery, or replace the one named `original` (its turn's use is kept)."""
    with side_write(side, side.campaign_id, actor) as campaign:
        turn = current_turn(campaign).number
        record = ammo_record(side, turn)
        names = [b.name for b in record.batteries]
        if battery.name in names and battery.name != original:
            raise ValidationError({"name": _("A battery with this name is already listed.")})
        if original is not None:
            if original not in names:
                raise ValidationError({"original": _("No battery has this name.")})
            old = record.battery(original)
            battery.mission_used, battery.illum_used = old.mission_used, old.illum_used
            record.batteries[names.index(original)] = battery
        else:
            record.batteries.append(battery)
        _save(side, record, turn)
        _record_change(
            side,
            actor,
            campaign,
            msg("Battery %(name)s saved.", name=battery.name),
            "18.2.a",
        )
    return record


def tcs_artillery_stock_set(
    *, side: Side, actor, ammo_type: AmmoType, calibre: str, volleys: int, legacy: bool = False
) -> AmmoRecord:
    """The battery volleys issued of one type and calibre [18.2]; `legacy`: a TCS 2-0x
    allocation, divided by 4 (Illum unchanged). Re-entering a stock keeps what was fired."""
    ammo_type = AmmoType(ammo_type)
    try:
        issued = legacy_allocation(ammo_type, volleys) if legacy else volleys
    except RuleError as exc:
        raise rule_error(exc, "volleys") from None
    with side_write(side, side.campaign_id, actor) as campaign:
        turn = current_turn(campaign).number
        record = ammo_record(side, turn)
        found = next(
            (s for s in record.stocks if (s.type, s.calibre) == (ammo_type, calibre)), None
        )
        if found is not None:
            fired = found.initial - found.remaining
            found.initial, found.remaining = issued, max(0, issued - fired)
        else:
            try:
                record.add_stock(ammo_type, calibre, issued)
            except RuleError as exc:
                raise rule_error(exc, "volleys") from None
        _save(side, record, turn)
        _record_change(
            side,
            actor,
            campaign,
            msg(
                "%(type)s, %(calibre)s: %(n)s battery volleys issued.",
                type=AMMO_WORDS[ammo_type],
                calibre=calibre,
                n=issued,
            ),
            "18.2",
        )
    return record


# --- missions ---------------------------------------------------------------------------------


def _factors(order: MissionOrder, battery: Battery, fires_as: Shoot | None) -> MissionFactors:
    printed = battery.bad_af if fires_as is Shoot.BAD_SHOOT else battery.good_af
    return mission_factors(
        order.kind,
        printed,
        battalion=order.battalion,
        rapid=order.rapid,
        calibre_mm=battery.calibre_mm,
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
            change = fire_mission(record, order.batteries, _factors(order, first, None))
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
        factors = _factors(order, first, fires_as) if fires_as else None
        _save(side, record, turn.number)
        tables = dict(campaign.tables or {})
        tables[MARKERS_KEY] = placed.to_dict()
        campaign.tables = tables
        campaign.save(update_fields=["tables", "updated_at"])
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
                entered=_entered(fire_order),
            )
            point = None
            if order.p_steps:
                point = point_target_attack(order.p_steps, dice, kill_number=order.kill_number)
        except DecisionRequired as exc:
            if exc.decision.key == "point_fire_number":
                raise ValidationError(
                    {"kill_number": _("Read the number on the Artillery Point Fire Table.")}
                ) from None
            raise _needed(exc) from None
        except RollNeeded as exc:
            raise roll_needed(exc, "rolls") from None
        except RuleError as exc:
            raise rule_error(exc, "detail") from None
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


# --- markers ----------------------------------------------------------------------------------


def _store_markers(campaign: Campaign, placed, actor, exp: Explanation) -> None:
    tables = dict(campaign.tables or {})
    tables[MARKERS_KEY] = placed.to_dict()
    campaign.tables = tables
    campaign.save(update_fields=["tables", "updated_at"])
    log_explanation(campaign, exp, actor=actor, private_to=None, tag={"markers": True})


def tcs_markers_clean_up(*, campaign: Campaign, actor) -> Campaign:
    """Clean-up Phase [19.2, 26.2.c]: artillery Illum off, Smoke 1 off, Smoke 2 → 1."""
    with transaction.atomic():
        campaign = locked(campaign.pk)
        may_manage(campaign, actor)
        placed = markers(campaign)
        exp = placed.clean_up()
        _store_markers(campaign, placed, actor, exp)
    return campaign


def tcs_markers_action_phase(*, side: Side, actor) -> Campaign:
    """The start of the side's Action Phase: its mortar and IG markers go [19.2, 26.2.c]."""
    with side_write(side, side.campaign_id, actor) as campaign:
        placed = markers(campaign)
        exp = placed.start_action_phase(str(side.pk))
        _store_markers(campaign, placed, actor, exp)
        append_log(
            campaign,
            kind=LogEntry.Kind.RULE,
            summary=msg("%(side)s: Action Phase markers removed.", side=side.name),
            rule="19.2",
            actor=actor,
            data={"tcs": {"markers": True}},
        )
    return campaign
