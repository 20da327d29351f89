"""Minefields in play [21]: the markers of the operation (public once on the map, kept in
`Campaign.tables["tcs_minefields"]`), placed at set-up or from a Prepared Defense sheet's
granted count [21.1]; the attack on a side's own units entering one [21.0.b–c, 21.2]; and a
breach attempt [21.3] (`campaigns.services.tcs.minefield_breach`). The attack is resolved and applied at once by the side whose units
enter: step losses (`apply_losses`), then the morale check any area result but No Effect
forces (`check_and_apply`), whose total stays the side's own [1.5].
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.models import Campaign, LogEntry, Side
from campaigns.models.tcs import OpSheetRecord, TcsCombat, TcsUnit
from campaigns.selectors.tcs_charts import operation_charts
from campaigns.selectors.tcs_minefields import KEY, granted, markers
from campaigns.services._base import append_log
from campaigns.services.tcs.combat import Check, check_and_apply, take_losses
from campaigns.services.tcs.common import dice_for, log_explanation, rule_error, side_write
from campaigns.services.tcs.engine import SideEngine, load_side
from campaigns.tcs.state import current_turn
from rules.dice import EnteredDice
from rules.errors import DiceError, RollNeeded, RuleError
from rules.explain import DecisionRequired, Explanation
from rules.i18n import msg
from rules.serial import to_data
from rules.tcs import minefields as mf
from rules.tcs.fire import result_words
from rules.tcs.morale_check import CHECKERS
from rules.tcs.prepared_defense import PreparedDefenseResult
from rules.tcs.units import UnitCategory


@dataclass(frozen=True)
class Entry:
    """What the side typed for an attack: its units entering and how, the Fire Table values
    read off the printed chart when the operation has none, the losses it shares out."""

    units: Mapping[str, str]  # unit code → "foot" | "vehicle"
    retreat: bool = False
    assault: bool = False
    stacking_shift: int | None = None
    result: Any = None  # NO_EFFECT, MORALE_CHECK or steps, read off the printed chart
    losses: Mapping[str, int] = field(default_factory=dict)  # foot steps per unit (10.0.f)
    first_step_choice: str | None = None


MINE_CHECK = Check(cause="minefield")
NO_ENTRY = Entry(units={})


def _save(campaign: Campaign, rows: list[dict[str, Any]]) -> None:
    campaign.tables = {**(campaign.tables or {}), KEY: rows}
    campaign.save(update_fields=["tables"])


def find_marker(
    campaign: Campaign, minefield_id: int
) -> tuple[list[dict], dict, mf.MinefieldMarker]:
    rows = markers(campaign)
    row = next((r for r in rows if r.get("id") == minefield_id), None)
    if row is None:
        raise ValidationError({"minefield": _("Choose a minefield of this operation.")})
    return rows, row, mf.MinefieldMarker.from_dict(row)


def log_public(campaign, actor, text, rule, tag, turn) -> None:
    append_log(
        campaign,
        kind=LogEntry.Kind.RULE,
        summary=text,
        rule=rule,
        actor=actor,
        data={"tcs": dict(tag), "turn": turn},
    )


def tcs_minefield_place(
    *,
    side: Side,
    actor,
    hex_: str,
    sheet: OpSheetRecord | None = None,
    near_platoons: bool = False,
    far_from_enemy: bool = False,
    enemy_may_deploy: bool = False,
    placing_first: bool = True,
) -> dict[str, Any]:
    """A minefield marker on the map: at set-up (not where the enemy may still deploy), or
    from a Prepared Defense sheet, only as many as it granted, each within 4 hexes of its two
    platoons and at least 5 from the nearest enemy (the player confirms both) [21.1]."""
    hex_ = (hex_ or "").strip()
    if not hex_ or len(hex_) > 20:
        raise ValidationError({"hex": _("Name the hex, e.g. 1510.")})
    with side_write(side, side.campaign_id, actor) as campaign:
        rows = markers(campaign)
        if any(r["hex"] == hex_ for r in rows):
            raise ValidationError({"hex": "[21.1] " + _("This hex already holds a minefield.")})
        try:
            if sheet is None:
                if campaign.status != Campaign.Status.SETUP:
                    raise ValidationError(
                        {"source": "[21.1] " + _("Set-up minefields are placed before play.")}
                    )
                marker = mf.place_pregame(
                    hex_, enemy_may_deploy=enemy_may_deploy, placing_first=placing_first
                )
                exp = Explanation()
                exp.add("21.1", msg("set-up minefield placed"), hex_)
            else:
                record = OpSheetRecord.objects.get(pk=sheet.pk)
                if record.side_id != side.pk:
                    raise ValidationError({"source": _("Choose one of this side's sheets.")})
                source = f"sheet:{record.pk}"
                given = granted(record)
                left = given - sum(1 for r in rows if r["source"] == source)
                if left < 1:
                    raise ValidationError(
                        {
                            "source": "[21.1] "
                            + _("Sheet %(s)s granted %(n)s minefield(s): all are placed.")
                            % {"s": record.code, "n": given}
                        }
                    )
                placement = mf.Placement(
                    hex_,
                    (mf.PLACE_NEAR,) * 2 if near_platoons else (mf.PLACE_NEAR + 1,) * 2,
                    mf.PLACE_FAR if far_from_enemy else mf.PLACE_FAR - 1,
                )
                laid, exp = mf.place_sheet_minefields(
                    PreparedDefenseResult((), (), left), source, [placement]
                )
                marker = laid[0]
        except RuleError as exc:
            raise rule_error(exc, "hex" if exc.rule == "21.1" else None) from None
        row = {**marker.to_dict(), "id": max((r["id"] for r in rows), default=0) + 1}
        row["side"] = side.pk
        _save(campaign, [*rows, row])
        turn = current_turn(campaign).number
        log_explanation(
            campaign, exp, actor=actor, private_to=None, tag={"minefield": row["id"]}, turn=turn
        )
    return row


def _units(engine: SideEngine, codes, field_name: str) -> list[TcsUnit]:
    out = []
    for code in codes:
        unit = engine.units.get(code)
        if unit is None:
            raise ValidationError({field_name: _("Choose units of this side.")})
        if unit.eliminated:
            raise ValidationError({field_name: _("%(u)s is already eliminated.") % {"u": code}})
        out.append(unit)
    if not out:
        raise ValidationError({field_name: "[21.0.b] " + _("Name the units entering.")})
    return out


def run_mine_rules(procedure, **kwargs):
    try:
        return procedure(**kwargs)
    except DecisionRequired as exc:
        key = exc.decision.key
        name = {"minefield_result": "result", "first_step": "first_step_choice"}.get(key)
        name = name or ("stacking_shift" if "stacking" in key else "detail")
        options = (
            ", ".join(str(o) for o in exc.decision.options) if name != "stacking_shift" else ""
        )
        text = f"[{exc.decision.rule}] {say(exc.decision.prompt)}"
        raise ValidationError({name: f"{text} {options}".strip()}) from None
    except RollNeeded:
        raise ValidationError(
            {"rolls": _("Enter the dice rolled at the table, or let the site roll.")}
        ) from None
    except RuleError as exc:
        raise rule_error(exc, "rolls" if isinstance(exc, DiceError) else "units") from None


def preview(
    campaign: Campaign, marker: mf.MinefieldMarker, entry: Entry, steps: Mapping[str, int]
) -> mf.MinefieldAttack:
    """The odds before any die (without a Fire Table, the vehicles' only)."""
    charts = operation_charts(campaign).fire
    targets = [
        mf.MineTarget(c, steps[c], mf.Movement(m))
        for c, m in entry.units.items()
        if charts is not None or m == mf.Movement.VEHICLE
    ]
    if not targets:
        return mf.MinefieldAttack(True)
    return run_mine_rules(
        mf.minefield_attack,
        marker=marker,
        targets=targets,
        charts=charts,
        dice=None,
        retreat=entry.retreat,
        assault=entry.assault,
        entered=_shift(entry),
        first_step_choice=entry.first_step_choice,
    )


def _shift(entry: Entry) -> dict[str, int]:
    return {} if entry.stacking_shift is None else {"stacking": entry.stacking_shift}


def foot_losses(fire, foot: list[TcsUnit], given: Mapping[str, int]) -> dict[str, int]:
    """The steps each foot unit loses: the first step from the largest [10.0.f], the rest
    shared out by the owner (one unit: all on it) up to the steps there are [10.0.e]."""
    total = int(fire.steps or 0) if fire is not None else 0
    if not total:
        return {}
    if len(foot) == 1:
        return {foot[0].code: min(total, foot[0].steps_left)}
    shared = {c: int(n) for c, n in given.items() if int(n)}
    first = fire.split.first_step if fire.split else None
    if (
        sum(shared.values()) != total
        or set(shared) - {u.code for u in foot}
        or (first and not shared.get(first))
        or any(n > next(u.steps_left for u in foot if u.code == c) for c, n in shared.items())
    ):
        raise ValidationError(
            {
                "losses": "[10.0.f] "
                + _(
                    "Share exactly %(n)s step loss(es) among the units on foot, the first on %(f)s."
                )
                % {"n": total, "f": first or "—"}
            }
        )
    return shared


def apply_mine_results(
    campaign,
    side,
    engine,
    actor,
    losses,
    check_codes,
    check: Check | None,
    dice,
    combat_pk,
    vehicle_losses: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """A minefield attack's losses on foot, then on vehicles, then (if forced) the morale
    check of the units on foot [21.0]: what `combat.applied` records."""
    done, gone = take_losses(campaign, side, engine, actor, losses, dice)
    more, _lost = take_losses(campaign, side, engine, actor, dict(vehicle_losses or {}), dice)
    refuse_leftover_dice(dice)
    applied: dict[str, Any] = {"losses": done + more}
    if check is not None:
        applied["check"] = mine_check(
            campaign, side, engine, actor, check_codes, gone, check, combat_pk, dice
        )
    return applied


def mine_check(campaign, side, engine, actor, codes, gone, check: Check, combat_pk, dice):
    checkers = [c for c in codes if UnitCategory(engine.units[c].category) in CHECKERS]
    if not checkers:
        return None
    if isinstance(dice, EnteredDice) and check.roll is None and check.result is None:
        raise ValidationError(
            {"roll": "[17.0.b] " + _("The units check morale: enter the d66 rolled.")}
        )
    return check_and_apply(
        campaign,
        side,
        engine,
        checkers,
        check,
        actor=actor,
        tag={"combat": combat_pk},
        gone=gone,
    )


def attack_summary(attack: mf.MinefieldAttack) -> dict[str, Any]:
    fire = attack.foot
    out: dict[str, Any] = {
        "attacked": attack.attacked,
        "check": attack.morale_check,
        "vehicle_rolls": {k: list(v) for k, v in attack.vehicle_rolls.items()},
        "vehicle_losses": dict(attack.vehicle_losses),
    }
    if fire is not None:
        out |= {
            "cell": to_data(fire.result),
            "words": to_data(result_words(fire.result)),
            "column": fire.column,
            "roll": fire.roll.value if fire.roll else None,
            "steps": int(fire.steps or 0),
        }
    return out


def _start(campaign: Campaign) -> int:
    if campaign.status != Campaign.Status.ACTIVE:
        raise ValidationError(_("Minefields attack once play has started."))
    return current_turn(campaign).number


def refuse_leftover_dice(dice) -> None:
    if isinstance(dice, EnteredDice) and dice.remaining:
        raise ValidationError(
            {
                "rolls": _(
                    "More dice were entered than the procedure rolls: enter exactly the dice "
                    "rolled at the table."
                )
            }
        )


def tcs_minefield_attack(
    *,
    side: Side,
    actor,
    minefield_id: int,
    entry: Entry,
    check: Check = MINE_CHECK,
    rolls: list[int] | None = None,
) -> TcsCombat:
    """The side's own units enter a minefield hex: +2 MP [21.2]; unless through a breach
    [21.3.d] the foot units take AF 18 with only the stacking shift and each vehicle step
    rolls 2d6, 8+ destroyed [21.0.b]; the losses and the check it forces are applied now.
    `rolls`: the table's dice in order (the d66, then one 2d6 total per vehicle step, then
    any vehicle morale d6); the check's d66 is `check.roll`."""
    with side_write(side, side.campaign_id, actor) as campaign:
        turn = _start(campaign)
        _rows, row, marker = find_marker(campaign, minefield_id)
        engine = load_side(campaign, side)
        units = _units(engine, entry.units, "units")
        moves = {}
        for u in units:
            try:
                moves[u.code] = mf.Movement(entry.units[u.code])
            except ValueError:
                raise ValidationError({"units": _("Foot or vehicle movement.")}) from None
        dice = dice_for(rolls)
        charts = operation_charts(campaign).fire
        attack = run_mine_rules(
            mf.minefield_attack,
            marker=marker,
            targets=[mf.MineTarget(u.code, u.steps_left, moves[u.code]) for u in units],
            charts=charts,
            dice=dice,
            retreat=entry.retreat,
            assault=entry.assault,
            entered=_shift(entry),
            result=entry.result,
            first_step_choice=entry.first_step_choice,
        )
        exp = Explanation()
        exp.add("21.2", msg("extra MP to enter the minefield hex"), mf.ENTRY_MP)
        exp.extend(attack.explanation)
        foot = [u for u in units if moves[u.code] is mf.Movement.FOOT]
        losses = foot_losses(attack.foot, foot, entry.losses) if attack.attacked else {}
        combat = TcsCombat.objects.create(
            campaign=campaign,
            side=side,
            turn=turn,
            kind="minefield",
            rule="21.0.b",
            status=TcsCombat.Status.APPLIED,
            inputs={"minefield": row["id"], "hex": marker.hex, "units": dict(entry.units)},
            result={**attack_summary(attack), "explanation": exp.as_list()},
            created_by=actor,
            applied_by=actor,
            applied_at=timezone.now(),
        )
        log_explanation(
            campaign, exp, actor=actor, private_to=None, tag={"combat": combat.pk}, turn=turn
        )
        applied = apply_mine_results(
            campaign, side, engine, actor, losses, [u.code for u in foot],
            check if attack.morale_check else None, dice, combat.pk,
            vehicle_losses=attack.vehicle_losses,
        )  # fmt: skip
        combat.applied = applied
        combat.save(update_fields=["applied"])
    return combat
