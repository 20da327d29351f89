"""Artillery on the site [18.0–18.10, 19, 24.3.c, 24.5.a, 26.2]: a side's batteries and
ammunition record, mortar and IG smoke and illumination rounds, and the operation's Smoke and
Illum markers (clean-up, Action Phase removal, removal by hand as a correction).

The ammunition record is the side's secret [1.5] (its changes are logged private to it);
markers are public, as on the map. Missions and the barrage attack are in
`campaigns.services.tcs.artillery_missions`.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign, LogEntry, Side, bounds
from campaigns.models.tcs import TcsSide
from campaigns.selectors.tcs_artillery import MARKERS_KEY, ammo_record, markers
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
from campaigns.tcs.state import current_turn
from rules.dice import EnteredDice
from rules.errors import RollNeeded, RuleError
from rules.explain import DecisionRequired, Explanation
from rules.i18n import msg
from rules.tcs.ammo import AMMO_WORDS, AmmoRecord, AmmoType, Battery, legacy_allocation
from rules.tcs.smoke import IG_SMOKE_MIN_MM, MORTAR_SMOKE_MIN_MM, MarkerKind, Markers, Source


@dataclass(frozen=True)
class MortarRound:
    """A mortar (3"/80 mm+) or IG (100 mm+) smoke or illumination round instead of an SFA
    [24.3.c, 24.5.a]: the lowest d6 that places smoke read off the Mortar and Infantry Gun
    Smoke Table, or the result read there (`succeeded`)."""

    kind: MarkerKind
    hex: str
    mortar: bool
    calibre_mm: int
    success_from: int | None = None
    succeeded: bool | None = None
    all_water: bool = False


# --- the record -------------------------------------------------------------------------------


def save_record(side: Side, record: AmmoRecord, turn: int) -> None:
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
        save_record(side, record, turn)
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
        save_record(side, record, turn)
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


# --- markers ----------------------------------------------------------------------------------


def store_markers(campaign: Campaign, placed: Markers) -> None:
    """The operation's Smoke and Illum markers, saved in `Campaign.tables`."""
    tables = dict(campaign.tables or {})
    tables[MARKERS_KEY] = placed.to_dict()
    campaign.tables = tables
    campaign.save(update_fields=["tables", "updated_at"])


def _store_markers(campaign: Campaign, placed, actor, exp: Explanation) -> None:
    store_markers(campaign, placed)
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


def tcs_artillery_battery_delete(*, side: Side, actor, name: str) -> AmmoRecord:
    """Strike a battery off the record; refused once it fired this turn [18.1.b] (its use
    must stay counted until the turn ends)."""
    with side_write(side, side.campaign_id, actor) as campaign:
        turn = current_turn(campaign).number
        record = ammo_record(side, turn)
        found = next((b for b in record.batteries if b.name == name), None)
        if found is None:
            raise ValidationError({"name": _("No battery has this name.")})
        if found.mission_used or found.illum_used:
            raise ValidationError(
                {"name": "[18.1.b] " + _("This battery fired this turn: delete it next turn.")}
            )
        record.batteries.remove(found)
        save_record(side, record, turn)
        _record_change(side, actor, campaign, msg("Battery %(name)s deleted.", name=name), "18.2.a")
    return record


def tcs_marker_remove(*, side: Side, actor, index: int, hex_: str, reason: str) -> Campaign:
    """Take one Smoke or Illum marker off by hand, a correction with its reason (public).
    `hex_` must match the marker at `index`, so a list changed meanwhile is refused."""
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Say why the marker is removed.")})
    with side_write(side, side.campaign_id, actor) as campaign:
        placed = markers(campaign)
        if not 0 <= index < len(placed.markers) or placed.markers[index].hex != hex_:
            raise ValidationError(
                {"marker": _("This marker is no longer on the map: reload the page.")}
            )
        gone = placed.markers.pop(index)
        store_markers(campaign, placed)
        append_log(
            campaign,
            kind=LogEntry.Kind.RULE,
            summary=msg(
                "%(side)s removes the %(kind)s marker in %(hex)s by hand: %(reason)s",
                side=side.name,
                kind=msg("Smoke") if gone.kind is MarkerKind.SMOKE else msg("Illum"),
                hex=gone.hex,
                reason=reason,
            ),
            rule="19.2",
            actor=actor,
            data={"tcs": {"markers": True, "correction": True}},
        )
    return campaign


def tcs_mortar_round(
    *, side: Side, actor, order: MortarRound, rolls: list[int] | None = None
) -> bool:
    """A mortar or IG smoke or illumination round [24.3.c, 24.5.a]: smoke on a d6 against the
    number read off the Mortar and Infantry Gun Smoke Table (or the result read there) fills
    only its hex [19.3.c]; Illum lights 3 hexes around [26.2.b]. Both go at the start of the
    owner's next Action Phase [19.2, 26.2.c]. Public; True when a marker was placed."""
    kind = MarkerKind(order.kind)
    floor = MORTAR_SMOKE_MIN_MM if order.mortar else IG_SMOKE_MIN_MM
    rule = "24.3.c" if order.mortar else "24.5.a"
    if order.calibre_mm < floor:
        raise ValidationError(
            {
                "calibre_mm": f"[{rule}] "
                + _("Too small a calibre: %(mm)s mm or more.") % {"mm": floor}
            }
        )
    with side_write(side, side.campaign_id, actor) as campaign:
        if campaign.status != Campaign.Status.ACTIVE:
            raise ValidationError(_("Missions are fired once play has started."))
        turn = current_turn(campaign)
        placed = markers(campaign)
        dice = dice_for(rolls)
        exp, placed_one = Explanation(), True
        try:
            if kind is MarkerKind.ILLUM:
                exp.extend(
                    placed.place_illum(order.hex, str(side.pk), Source.MORTAR_IG, turn.light)
                )
            else:
                smoke = placed.fire_mortar_smoke(
                    order.hex,
                    str(side.pk),
                    dice,
                    mortar=order.mortar,
                    calibre_mm=order.calibre_mm,
                    all_water=order.all_water,
                    success_from=order.success_from,
                    succeeded=order.succeeded,
                )
                exp.extend(smoke.explanation)
                placed_one = smoke.placed
        except DecisionRequired:
            raise ValidationError(
                {
                    "success_from": "[24.3.c] "
                    + _(
                        "Read the lowest roll that places smoke off the Mortar and Infantry Gun "
                        "Smoke Table, or enter the result."
                    )
                }
            ) from None
        except RollNeeded as exc:
            raise roll_needed(exc, "rolls") from None
        except RuleError as exc:
            raise rule_error(exc, "hex") from None
        if isinstance(dice, EnteredDice) and dice.remaining:
            raise ValidationError({"rolls": _("Enter only the die of the smoke round.")})
        store_markers(campaign, placed)
        log_explanation(
            campaign, exp, actor=actor, private_to=None, tag={"markers": True}, turn=turn.number
        )
    return placed_one
