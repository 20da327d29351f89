"""TCS operations: set-up, order of battle, op sheets, the Command Phase, losses and morale.

Every function is keyword-only, runs in one transaction under the campaign row lock, drives
`rules.tcs` and logs each explanation step with its rule id. What concerns one side's op
sheets or morale is logged `private_to` that side [1.5]; revealing a sheet (or ending the
operation) makes its entries public.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import Campaign, LogEntry, Side
from campaigns.models.tcs import (
    TCS_TEMPLATE,
    CommandPhase,
    OpSheetRecord,
    TcsFormation,
    TcsSide,
    TcsUnit,
)
from campaigns.services._base import append_log, lock_campaign
from campaigns.services.campaigns import campaign_create, side_join
from rules.dice import EnteredDice, ServerDice
from rules.errors import RollNeeded, RuleError, TableDataError
from rules.explain import DecisionRequired, Explanation
from rules.serial import to_data
from rules.tcs.clock import Light, Phase, Turn, morale_recovery_due, next_turn
from rules.tcs.command_prep import AttemptMode, CommandPrepTable, attempt_implementation
from rules.tcs.morale import BattalionMorale, battalion_loss, battalion_recovery
from rules.tcs.opsheet import (
    OpSheet,
    OpSheetType,
    declare_failure,
    declare_success,
    draw_sheet,
    eliminate,
)
from rules.tcs.options import DEFAULT_OPTIONS, TcsOptions
from rules.tcs.reserves import choose_alternative, commit_reserves, forced_commitment, roll_check
from rules.tcs.units import Formation, MoraleKind, OrderOfBattle, Unit, UnitCategory
from rules.tcs.vehicle_morale import (
    Box,
    BoxShape,
    VehicleMoraleTrack,
    vehicle_recovery,
    vehicle_step_losses,
)
from rules.tcs.weighted_turns import accumulate_weighted_turns

MAX_RATING = 12
CSV_COLUMNS = (
    "type",
    "id",
    "name",
    "formation",
    "category",
    "steps",
    "morale",
    "battalion",
    "track",
)


# --- clock and helpers ----------------------------------------------------------------------


def parse_clock(text: str) -> int:
    """ "0820" or "08:20" → minutes from 0000."""
    digits = text.strip().replace(":", "")
    if len(digits) != 4 or not digits.isdigit():
        raise ValidationError({"start_clock": _("Give the time as four digits, e.g. 0800.")})
    hours, minutes = int(digits[:2]), int(digits[2:])
    if hours > 23 or minutes > 59:
        raise ValidationError({"start_clock": _("Give a time between 0000 and 2359.")})
    return hours * 60 + minutes


def current_turn(campaign: Campaign) -> Turn:
    data = campaign.state.get("turn") or {"number": 0, "minutes": 480, "light": "day"}
    return Turn.from_dict(data)


def options_for(campaign: Campaign) -> TcsOptions:
    data = campaign.options.get("tcs_options")
    return TcsOptions.from_dict(data) if data else DEFAULT_OPTIONS


def _is_tcs(campaign: Campaign) -> None:
    if campaign.system != "tcs" or campaign.template != TCS_TEMPLATE:
        raise ValidationError(_("This is not a TCS operation."))


def _locked(campaign_id: int) -> Campaign:
    campaign = lock_campaign(campaign_id)
    _is_tcs(campaign)
    if campaign.status in (Campaign.Status.FINISHED, Campaign.Status.ABANDONED):
        raise ValidationError(_("The operation is over: nothing more can be changed."))
    return campaign


def _may_act(campaign: Campaign, actor, side_id: int) -> None:
    from campaigns.permissions import can_act_for_side, viewer_context

    if not can_act_for_side(viewer_context(actor, campaign), side_id):
        raise ValidationError(_("Only this side's players or a neutral game master may do this."))


def _rule_error(exc: RuleError, field: str | None = None) -> ValidationError:
    text = f"[{exc.rule}] {exc.message}" if exc.rule else exc.message
    return ValidationError({field: text}) if field else ValidationError(text)


def _show(value: Any) -> str:
    value = to_data(value)
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "—"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items())
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


def log_explanation(
    campaign: Campaign,
    explanation: Explanation | Iterable,
    *,
    actor,
    private_to: Side | None,
    tag: Mapping[str, Any],
    turn: int | None = None,
) -> None:
    """One log entry per explanation step, with its rule id; rolls are ROLL entries."""
    for step in explanation:
        text = step.text
        data: dict[str, Any] = {"tcs": dict(tag)}
        if turn is not None:
            data["turn"] = turn
        if step.value is not None:
            data["value"] = to_data(step.value)
            shown = _show(step.value)
            if not text.endswith(shown):
                text = f"{text} → {shown}"
        kind = LogEntry.Kind.RULE
        if step.roll is not None:
            data["roll"] = step.roll.as_dict()
            kind = LogEntry.Kind.ROLL
            text = f"{text} ({step.roll.kind}, {_('server') if step.roll.source == 'server' else _('entered')})"
        append_log(
            campaign,
            kind=kind,
            summary=text,
            rule=step.rule,
            actor=actor,
            data=data,
            private_to=private_to,
        )


def _dice(rolls: list[int] | None):
    """Server dice when no values are given, else the values rolled at the table."""
    return ServerDice() if rolls is None else EnteredDice(rolls)


def _roll_needed(exc: RollNeeded, field: str) -> ValidationError:
    return ValidationError(
        {
            field: _("Enter one more %(kind)s for %(purpose)s, or let the site roll.")
            % {"kind": exc.kind, "purpose": exc.purpose}
        }
    )


# --- operation ------------------------------------------------------------------------------


def tcs_operation_create(
    *,
    creator,
    name: str,
    side_names: list[str],
    ratings: list[int],
    start_clock: str = "0800",
    light: str = Light.DAY,
    visibility: str = Campaign.Visibility.PRIVATE,
    description: str = "",
    creator_side: int | None = None,
) -> Campaign:
    """An operation with two sides and their Command Prep ratings [6.9.a].

    `creator_side` seats the creator on that side (0 or 1); None makes them a neutral game
    master who sees every side's op sheets.
    """
    errors: dict[str, str] = {}
    if len([n for n in side_names if n.strip()]) != 2:
        errors["side_names"] = _("A TCS operation has two sides.")
    if len(ratings) != 2 or any(not 0 <= r <= MAX_RATING for r in ratings):
        errors["ratings"] = _("Each Command Prep rating is a whole number from 0 to 12.")
    if light not in {x.value for x in Light}:
        errors["light"] = _("Choose the light condition.")
    if creator_side not in (None, 0, 1):
        errors["creator_side"] = _("Choose a side or the game master.")
    try:
        minutes = parse_clock(start_clock)
    except ValidationError as exc:
        errors.update({k: v[0] for k, v in exc.message_dict.items()})
        minutes = 0
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        campaign = campaign_create(
            creator=creator,
            name=name,
            system="tcs",
            side_names=side_names,
            template=TCS_TEMPLATE,
            description=description,
            visibility=visibility,
            as_game_master=creator_side is None,
        )
        campaign.state = {"turn": Turn(0, minutes, Light(light)).to_dict()}
        campaign.save(update_fields=["state", "updated_at"])
        sides = list(campaign.sides.order_by("order"))
        TcsSide.objects.bulk_create(
            TcsSide(side=s, rating=r) for s, r in zip(sides, ratings, strict=True)
        )
        append_log(
            campaign,
            kind=LogEntry.Kind.SETUP,
            summary=_(
                "TCS operation set up: %(a)s rated %(ra)s, %(b)s rated %(rb)s; play starts at %(clock)s."
            )
            % {
                "a": sides[0].name,
                "ra": ratings[0],
                "b": sides[1].name,
                "rb": ratings[1],
                "clock": Turn(1, minutes).clock,
            },
            rule="6.9.a",
            actor=creator,
        )
        if creator_side is not None:
            side_join(user=creator, side=sides[creator_side])
    return campaign


def tcs_side_update(*, side: Side, actor, rating: int, table: Any | None) -> TcsSide:
    """Set the Command Prep rating and the (optional) Command Prep Table, validated with
    `COMMAND_PREP_SCHEMA`; a bad table changes nothing and names every problem."""
    if not 0 <= rating <= MAX_RATING:
        raise ValidationError({"rating": _("A rating is a whole number from 0 to 12.")})
    if table:
        try:
            table = CommandPrepTable.from_data(table).to_data()
        except TableDataError as exc:
            raise ValidationError(
                {"prep_table": [f"{p}: {m}" if p else m for p, m in exc.problems]}
            ) from None
    else:
        table = None
    with transaction.atomic():
        campaign = _locked(side.campaign_id)
        _may_act(campaign, actor, side.pk)
        settings, _created = TcsSide.objects.get_or_create(side=side)
        settings.rating, settings.prep_table = rating, table
        settings.save()
        append_log(
            campaign,
            kind=LogEntry.Kind.SETUP,
            summary=_("%(side)s: Command Prep rating %(r)s; %(table)s.")
            % {
                "side": side.name,
                "r": rating,
                "table": _("Command Prep Table entered")
                if table
                else _("thresholds read off the printed chart"),
            },
            rule="6.9.f",
            actor=actor,
            private_to=side,
            data={"tcs": {"side": side.pk}},
        )
    return settings


# --- order of battle ------------------------------------------------------------------------


def parse_track(text: str) -> list[dict[str, Any]]:
    """ "0 1 1 2": 0 is a circle, n a square worth n [17.8.a]."""
    boxes = []
    for part in text.replace(",", " ").split():
        if not part.isdigit():
            raise ValidationError(
                {"track": _("Write the track as numbers: 0 for a circle, 1–3 for a square.")}
            )
        points = int(part)
        shape = BoxShape.CIRCLE if points == 0 else BoxShape.SQUARE
        boxes.append(Box(shape, points).to_dict())
    if not boxes:
        raise ValidationError({"track": _("A vehicle formation needs its morale track boxes.")})
    return boxes


def _formation_state(code: str, morale: str, track: str, start_value: int) -> dict:
    if morale == TcsFormation.Morale.BATTALION:
        if start_value < 0:
            raise ValidationError({"start_value": _("Battalion morale is never below 0.")})
        return BattalionMorale(code, value=start_value).to_dict()
    if morale == TcsFormation.Morale.VEHICLE:
        return {
            "boxes": parse_track(track),
            "steps_lost": 0,
            "filled": 0,
            "value": 0,
            "recorded": [],
        }
    return {}


def _check_code(value: str, field: str) -> str:
    value = value.strip()
    if not value or len(value) > 40 or any(c.isspace() for c in value):
        raise ValidationError({field: _("Give an id of up to 40 characters without spaces.")})
    return value


def _add_formation(campaign, side, *, code, name, morale, is_battalion, track, start_value, order):
    code = _check_code(code, "code")
    if morale not in TcsFormation.Morale.values:
        raise ValidationError({"morale": _("Choose battalion, vehicle or no morale.")})
    if TcsFormation.objects.filter(campaign=campaign, code=code).exists():
        raise ValidationError({"code": _("Formation %(c)s already exists.") % {"c": code}})
    return TcsFormation.objects.create(
        campaign=campaign,
        side=side,
        code=code,
        name=name.strip(),
        morale=morale,
        is_battalion=is_battalion,
        state=_formation_state(code, morale, track, start_value),
        history=[],
        order=order,
    )


def _add_unit(campaign, side, *, code, formation, category, steps, order):
    code = _check_code(code, "code")
    if category not in TcsUnit.Category.values:
        raise ValidationError(
            {"category": _("Choose infantry, heavy weapon, vehicle or transport.")}
        )
    if not 1 <= steps <= 30:
        raise ValidationError({"steps": _("A unit has 1 to 30 steps.")})
    if TcsUnit.objects.filter(campaign=campaign, code=code).exists():
        raise ValidationError({"code": _("Unit %(c)s already exists.") % {"c": code}})
    if formation is not None and formation.side_id != side.pk:
        raise ValidationError({"formation": _("Choose one of this side's formations.")})
    if (
        formation is not None
        and formation.morale == TcsFormation.Morale.VEHICLE
        and category != TcsUnit.Category.VEHICLE
    ):
        raise ValidationError(
            {"category": _("Only vehicles belong to a vehicle-morale formation [17.8].")}
        )
    return TcsUnit.objects.create(
        campaign=campaign,
        side=side,
        formation=formation,
        code=code,
        category=category,
        steps=steps,
        order=order,
    )


def tcs_formation_add(
    *,
    side: Side,
    actor,
    code: str,
    name: str = "",
    morale: str,
    is_battalion: bool = False,
    track: str = "",
    start_value: int = 0,
) -> TcsFormation:
    with transaction.atomic():
        campaign = _locked(side.campaign_id)
        _may_act(campaign, actor, side.pk)
        order = TcsFormation.objects.filter(side=side).count()
        formation = _add_formation(
            campaign,
            side,
            code=code,
            name=name,
            morale=morale,
            is_battalion=is_battalion,
            track=track,
            start_value=start_value,
            order=order,
        )
        _log_oob(campaign, side, actor, _("formation %(c)s added") % {"c": formation.code})
    return formation


def tcs_unit_add(
    *,
    side: Side,
    actor,
    code: str,
    formation: TcsFormation | None,
    category: str,
    steps: int,
) -> TcsUnit:
    with transaction.atomic():
        campaign = _locked(side.campaign_id)
        _may_act(campaign, actor, side.pk)
        order = TcsUnit.objects.filter(side=side).count()
        unit = _add_unit(
            campaign,
            side,
            code=code,
            formation=formation,
            category=category,
            steps=steps,
            order=order,
        )
        _log_oob(campaign, side, actor, _("unit %(c)s added") % {"c": unit.code})
    return unit


def _log_oob(campaign, side, actor, what: str) -> None:
    append_log(
        campaign,
        kind=LogEntry.Kind.SETUP,
        summary=_("%(side)s order of battle: %(what)s.") % {"side": side.name, "what": what},
        actor=actor,
        private_to=side,
        data={"tcs": {"side": side.pk}},
    )


def tcs_oob_import(*, side: Side, actor, text: str) -> tuple[int, int]:
    """Import formations and units from CSV (`CSV_COLUMNS`); all rows or none.

    Errors name their row: "row 3: category must be …". Returns (formations, units) added.
    """
    reader = csv.DictReader(io.StringIO(text.strip()))
    header = [h.strip().lower() for h in reader.fieldnames or []]
    missing = [c for c in ("type", "id") if c not in header]
    if missing:
        raise ValidationError(
            {
                "csv": _("The first line must name the columns: %(cols)s.")
                % {"cols": ", ".join(CSV_COLUMNS)}
            }
        )
    rows = [
        {(k or "").strip().lower(): (v or "").strip() for k, v in row.items()} for row in reader
    ]
    if not rows:
        raise ValidationError({"csv": _("The file has no rows under its header.")})
    problems: list[str] = []
    added = [0, 0]
    with transaction.atomic():
        campaign = _locked(side.campaign_id)
        _may_act(campaign, actor, side.pk)
        f_order = TcsFormation.objects.filter(side=side).count()
        u_order = TcsUnit.objects.filter(side=side).count()
        formations = {f.code: f for f in TcsFormation.objects.filter(side=side)}
        sid = transaction.savepoint()
        for number, row in enumerate(rows, start=2):
            try:
                if row.get("type") == "formation":
                    start = row.get("steps") or "0"
                    f = _add_formation(
                        campaign,
                        side,
                        code=row.get("id", ""),
                        name=row.get("name", ""),
                        morale=row.get("morale", "") or "none",
                        is_battalion=row.get("battalion", "").lower() in ("1", "yes", "true", "y"),
                        track=row.get("track", ""),
                        start_value=int(start) if start.isdigit() else -1,
                        order=f_order,
                    )
                    formations[f.code] = f
                    f_order += 1
                    added[0] += 1
                elif row.get("type") == "unit":
                    fcode = row.get("formation", "")
                    if fcode and fcode not in formations:
                        raise ValidationError(
                            {"formation": _("unknown formation %(f)s") % {"f": fcode}}
                        )
                    steps = row.get("steps", "")
                    _add_unit(
                        campaign,
                        side,
                        code=row.get("id", ""),
                        formation=formations.get(fcode),
                        category=row.get("category", ""),
                        steps=int(steps) if steps.isdigit() else 0,
                        order=u_order,
                    )
                    u_order += 1
                    added[1] += 1
                else:
                    raise ValidationError({"type": _("must be “formation” or “unit”")})
            except ValidationError as exc:
                for field, messages in exc.message_dict.items():
                    problems.extend(
                        _("row %(n)s, %(field)s: %(msg)s") % {"n": number, "field": field, "msg": m}
                        for m in messages
                    )
        if problems:
            transaction.savepoint_rollback(sid)
            raise ValidationError({"csv": problems})
        transaction.savepoint_commit(sid)
        _log_oob(
            campaign,
            side,
            actor,
            _("imported %(f)s formations and %(u)s units") % {"f": added[0], "u": added[1]},
        )
    return added[0], added[1]


# --- engine state of one side ---------------------------------------------------------------


@dataclass
class SideEngine:
    """One side's order of battle and op sheets as the engine sees them."""

    campaign: Campaign
    side: Side
    settings: TcsSide
    formations: dict[str, TcsFormation]
    units: dict[str, TcsUnit]
    records: list[OpSheetRecord]
    oob: OrderOfBattle
    sheets: dict[int, OpSheet]

    @property
    def sheet_list(self) -> list[OpSheet]:
        return list(self.sheets.values())

    @property
    def table(self) -> CommandPrepTable | None:
        return (
            CommandPrepTable.from_data(self.settings.prep_table)
            if self.settings.prep_table
            else None
        )

    def record(self, pk: int) -> OpSheetRecord:
        found = next((r for r in self.records if r.pk == pk), None)
        if found is None:
            raise ValidationError({"sheet": _("Choose one of this side's op sheets.")})
        return found

    def save_sheets(self, turn: int) -> None:
        for record in self.records:
            new = self.sheets[record.pk].to_dict()
            if new != record.state:
                record.state = new
                _snapshot(record.history, turn, status=new["status"], wt=new["weighted_turns"])
                record.save(update_fields=["state", "history", "updated_at"])


def _snapshot(history: list, turn: int, **values) -> None:
    if history and history[-1].get("turn") == turn:
        history[-1].update(values)
    else:
        history.append({"turn": turn, **values})


def load_side(campaign: Campaign, side: Side) -> SideEngine:
    formations = {f.code: f for f in TcsFormation.objects.filter(side=side)}
    units = {u.code: u for u in TcsUnit.objects.filter(side=side).select_related("formation")}
    records = list(OpSheetRecord.objects.filter(side=side).order_by("created_at", "id"))
    settings, _created = TcsSide.objects.get_or_create(side=side)
    oob = OrderOfBattle.of(
        [Formation(f.code, MoraleKind(f.morale), f.is_battalion) for f in formations.values()],
        [
            Unit(u.code, UnitCategory(u.category), u.formation.code if u.formation else None)
            for u in units.values()
        ],
    )
    oob.eliminated = [u.code for u in units.values() if u.eliminated]
    sheets = {r.pk: OpSheet.from_dict(r.state) for r in records}
    return SideEngine(campaign, side, settings, formations, units, records, oob, sheets)


def _track(engine: SideEngine, formation: TcsFormation) -> VehicleMoraleTrack | None:
    total = sum(u.steps for u in engine.units.values() if u.formation_id == formation.pk)
    if total < 1:
        return None
    return VehicleMoraleTrack.from_dict(
        {**formation.state, "formation": formation.code, "total_steps": total}
    )


def _save_formation(formation: TcsFormation, state: dict, turn: int, cause: str) -> None:
    formation.state = state
    _snapshot(formation.history, turn, value=state.get("value", 0), cause=cause)
    formation.save(update_fields=["state", "history"])


# --- op sheets ------------------------------------------------------------------------------


SHEET_TEXT_FIELDS = (
    "time_drawn",
    "size_note",
    "task_organization",
    "written_notes",
    "failure_instructions",
    "rally_points",
    "preliminary_text",
    "reserves_text",
    "alternatives_text",
)


def tcs_sheet_draw(
    *,
    side: Side,
    actor,
    code: str,
    missions: Mapping[str, str],
    reserves: Iterable[str] = (),
    alternatives: Mapping[str, Iterable[str]] | None = None,
    pregame: bool = False,
    texts: Mapping[str, str] | None = None,
    graphic=None,
) -> OpSheetRecord:
    """Draw an op sheet [6.8]: unimplemented in play, implemented when drawn before play
    [27.1.f]. Preliminary instructions exist when their text is written [6.14.a]."""
    code = _check_code(code, "code")
    texts = {k: (v or "").strip() for k, v in (texts or {}).items() if k in SHEET_TEXT_FIELDS}
    with transaction.atomic():
        campaign = _locked(side.campaign_id)
        _may_act(campaign, actor, side.pk)
        if pregame and campaign.status != Campaign.Status.SETUP:
            raise ValidationError(
                {"pregame": _("Sheets are drawn before play only during set-up.")}
            )
        engine = load_side(campaign, side)
        if any(r.code == code for r in engine.records):
            raise ValidationError({"code": _("This side already has a sheet %(c)s.") % {"c": code}})
        turn = current_turn(campaign)
        try:
            result = draw_sheet(
                code,
                {u: OpSheetType(m) for u, m in missions.items()},
                engine.oob,
                engine.sheet_list,
                rating=engine.settings.rating,
                reserves=list(reserves),
                alternatives=alternatives or {},
                turn=turn.number,
                pregame=pregame,
                preliminary_instructions=bool(texts.get("preliminary_text")),
                options=options_for(campaign),
            )
        except RuleError as exc:
            raise _rule_error(exc, "missions") from None
        for unit in [*missions, *reserves]:
            if engine.units[unit].eliminated:
                raise ValidationError({"missions": _("%(u)s is eliminated.") % {"u": unit}})
        if not texts.get("time_drawn"):
            texts["time_drawn"] = turn.clock
        state = result.sheet.to_dict()
        record = OpSheetRecord(
            campaign=campaign,
            side=side,
            code=code,
            state=state,
            created_by=actor,
            history=[{"turn": turn.number, "status": state["status"], "wt": 0}],
            **texts,
        )
        if graphic is not None:
            record.graphic.save(graphic.name, graphic, save=False)
        record.save()
        append_log(
            campaign,
            kind=LogEntry.Kind.EVENT,
            summary=_("%(side)s drew op sheet %(c)s (%(type)s, size %(size)s).")
            % {"side": side.name, "c": code, "type": state["type"], "size": state["size"]},
            rule="6.8",
            actor=actor,
            private_to=side,
            data={"tcs": {"sheet": record.pk}},
        )
        log_explanation(
            campaign,
            result.explanation,
            actor=actor,
            private_to=side,
            tag={"sheet": record.pk},
            turn=turn.number,
        )
    return record


def tcs_sheet_edit(
    *, sheet: OpSheetRecord, actor, texts: Mapping[str, str], graphic=None
) -> OpSheetRecord:
    """Correct what is written on a sheet still in Command Prep; once it is implemented it may
    not be altered [6.5] (reserves, alternatives and added units go through the Command
    Phase). Each correction is logged with the fields changed."""
    with transaction.atomic():
        campaign = _locked(sheet.campaign_id)
        _may_act(campaign, actor, sheet.side_id)
        sheet = OpSheetRecord.objects.select_related("side").get(pk=sheet.pk)
        if sheet.status not in ("unimplemented", "prelims_active"):
            raise ValidationError(_("An implemented op sheet may not be altered [6.5]."))
        changed = []
        for field in SHEET_TEXT_FIELDS:
            if field in texts and (texts[field] or "").strip() != getattr(sheet, field):
                if field == "preliminary_text" and bool((texts[field] or "").strip()) != bool(
                    sheet.preliminary_text
                ):
                    raise ValidationError(
                        {
                            field: _(
                                "Preliminary instructions are written when the sheet is drawn [6.14.a]."
                            )
                        }
                    )
                setattr(sheet, field, (texts[field] or "").strip())
                changed.append(str(OpSheetRecord._meta.get_field(field).verbose_name))
        if graphic is not None:
            if sheet.graphic:
                sheet.graphic.delete(save=False)
            sheet.graphic.save(graphic.name, graphic, save=False)
            changed.append(_("graphic"))
        if not changed:
            return sheet
        sheet.save()
        append_log(
            campaign,
            kind=LogEntry.Kind.CORRECTION,
            summary=_("Op sheet %(c)s corrected: %(fields)s.")
            % {"c": sheet.code, "fields": ", ".join(changed)},
            rule="6.5",
            actor=actor,
            private_to=sheet.side,
            data={"tcs": {"sheet": sheet.pk}, "fields": changed},
        )
    return sheet


def tcs_sheet_reveal(*, sheet: OpSheetRecord, actor) -> OpSheetRecord:
    """The owner shows a sheet: it and every log entry about it become public."""
    with transaction.atomic():
        campaign = lock_campaign(sheet.campaign_id)
        _is_tcs(campaign)
        _may_act(campaign, actor, sheet.side_id)
        sheet = OpSheetRecord.objects.select_related("side").get(pk=sheet.pk)
        if sheet.revealed_at is not None:
            return sheet
        sheet.revealed_at = timezone.now()
        sheet.save(update_fields=["revealed_at"])
        _publish(campaign, sheet=sheet.pk)
        append_log(
            campaign,
            kind=LogEntry.Kind.EVENT,
            summary=_("%(side)s revealed op sheet %(c)s.")
            % {"side": sheet.side.name, "c": sheet.code},
            actor=actor,
            data={"tcs": {"sheet": sheet.pk}},
        )
    return sheet


def _publish(campaign: Campaign, **tag) -> int:
    entries = LogEntry.objects.filter(campaign=campaign, private_to__isnull=False)
    for key, value in tag.items():
        entries = entries.filter(**{f"data__tcs__{key}": value})
    return entries.update(private_to=None)


# --- turns ----------------------------------------------------------------------------------


def tcs_operation_start(*, campaign: Campaign, actor) -> Campaign:
    """Start play at turn 1; no sheet may start unimplemented [27.1.f]."""
    with transaction.atomic():
        campaign = _locked(campaign.pk)
        _may_manage(campaign, actor)
        if campaign.status != Campaign.Status.SETUP:
            raise ValidationError(_("The operation has already started."))
        waiting = OpSheetRecord.objects.filter(campaign=campaign).exclude(
            state__status="implemented"
        )
        if waiting.exists():
            raise ValidationError(
                _("Players may not start with unimplemented op sheets [27.1.f]: %(s)s.")
                % {"s": ", ".join(waiting.values_list("code", flat=True))}
            )
        turn = current_turn(campaign)
        first = Turn(1, turn.minutes, turn.light)
        campaign.state = {**campaign.state, "turn": first.to_dict()}
        campaign.status = Campaign.Status.ACTIVE
        campaign.save(update_fields=["state", "status", "updated_at"])
        append_log(
            campaign,
            kind=LogEntry.Kind.EVENT,
            summary=_("Play starts: turn 1, %(clock)s (%(light)s).")
            % {"clock": first.clock, "light": first.light.value},
            rule="2.0",
            actor=actor,
            data={"tcs": {"turn": 1}},
        )
    return campaign


def _may_manage(campaign: Campaign, actor) -> None:
    from campaigns.permissions import viewer_context

    viewer = viewer_context(actor, campaign)
    if not (viewer.can_manage or viewer.side_ids):
        raise ValidationError(_("Only the operation's players or game master may do this."))


def tcs_turn_advance(
    *, campaign: Campaign, actor, light: str, expected_turn: int | None = None
) -> Turn:
    """The next turn, once both sides completed this turn's Command Phase.

    `expected_turn` makes the request idempotent: a second click for the same turn changes
    nothing.
    """
    if light not in {x.value for x in Light}:
        raise ValidationError({"light": _("Choose the light condition.")})
    with transaction.atomic():
        campaign = _locked(campaign.pk)
        _may_manage(campaign, actor)
        if campaign.status != Campaign.Status.ACTIVE:
            raise ValidationError(_("Start the operation first."))
        turn = current_turn(campaign)
        if expected_turn is not None and expected_turn != turn.number:
            return turn
        done = set(
            CommandPhase.objects.filter(
                campaign=campaign, turn=turn.number, status=CommandPhase.Status.COMPLETED
            ).values_list("side_id", flat=True)
        )
        missing = [s.name for s in campaign.sides.all() if s.pk not in done]
        if missing:
            raise ValidationError(
                _("Complete the Command Phase first: %(sides)s.") % {"sides": ", ".join(missing)}
            )
        new = next_turn(turn, Light(light), options_for(campaign))
        campaign.state = {**campaign.state, "turn": new.to_dict()}
        campaign.save(update_fields=["state", "updated_at"])
        append_log(
            campaign,
            kind=LogEntry.Kind.EVENT,
            summary=_("Turn %(n)s begins at %(clock)s (%(light)s).")
            % {"n": new.number, "clock": new.clock, "light": new.light.value},
            rule="1.3",
            actor=actor,
            data={"tcs": {"turn": new.number}},
        )
    return new


def tcs_operation_end(*, campaign: Campaign, actor, confirm: bool) -> Campaign:
    """End the operation: every op sheet and private entry about them is revealed."""
    if not confirm:
        raise ValidationError({"confirm": _("Tick the box to confirm: this cannot be undone.")})
    with transaction.atomic():
        campaign = _locked(campaign.pk)
        _may_manage(campaign, actor)
        now = timezone.now()
        OpSheetRecord.objects.filter(campaign=campaign, revealed_at__isnull=True).update(
            revealed_at=now
        )
        LogEntry.objects.filter(
            campaign=campaign, private_to__isnull=False, data__has_key="tcs"
        ).update(private_to=None)
        campaign.status = Campaign.Status.FINISHED
        campaign.save(update_fields=["status", "updated_at"])
        append_log(
            campaign,
            kind=LogEntry.Kind.RESULT,
            summary=_("The operation is over; every op sheet is revealed."),
            actor=actor,
            data={"tcs": {"end": True}},
        )
    return campaign


# --- the Command Phase ----------------------------------------------------------------------


def tcs_phase_open(*, side: Side, actor) -> CommandPhase:
    """This turn's Command Phase for the side (made once; a second call returns it)."""
    with transaction.atomic():
        campaign = _locked(side.campaign_id)
        _may_act(campaign, actor, side.pk)
        if campaign.status != Campaign.Status.ACTIVE:
            raise ValidationError(_("Start the operation first."))
        turn = current_turn(campaign)
        phase, created = CommandPhase.objects.get_or_create(
            campaign=campaign,
            side=side,
            turn=turn.number,
            defaults={"clock": turn.clock, "light": turn.light.value, "steps": {}},
        )
        if created:
            append_log(
                campaign,
                kind=LogEntry.Kind.EVENT,
                summary=_("%(side)s: Command Phase of turn %(n)s (%(clock)s).")
                % {"side": side.name, "n": turn.number, "clock": turn.clock},
                rule="2.0",
                actor=actor,
                data={"tcs": {"phase": phase.pk}, "turn": turn.number},
            )
    return phase


def _phase(phase: CommandPhase, actor) -> tuple[Campaign, CommandPhase, SideEngine, Turn]:
    campaign = _locked(phase.campaign_id)
    phase = CommandPhase.objects.select_related("side").get(pk=phase.pk)
    _may_act(campaign, actor, phase.side_id)
    turn = current_turn(campaign)
    if phase.status == CommandPhase.Status.COMPLETED:
        raise ValidationError(_("This Command Phase is completed."))
    if phase.turn != turn.number:
        raise ValidationError(_("This Command Phase belongs to an earlier turn."))
    return campaign, phase, load_side(campaign, phase.side), turn


def _mark(phase: CommandPhase, key: str, value: Any) -> None:
    steps = dict(phase.steps)
    if isinstance(value, list):
        steps[key] = [*steps.get(key, []), *value]
    else:
        steps[key] = value
    phase.steps = steps
    phase.save(update_fields=["steps"])


def tcs_sheet_declare_success(
    *, phase: CommandPhase, sheet: OpSheetRecord, actor, units: list[str] | None = None
) -> OpSheetRecord:
    """Step 1: declare an implemented sheet (or some of its units) succeeded [6.11.a, 6.13.a]."""
    with transaction.atomic():
        campaign, phase, engine, turn = _phase(phase, actor)
        record = engine.record(sheet.pk)
        exp = Explanation()
        try:
            result = declare_success(engine.sheets[record.pk], Phase.COMMAND, units or None)
        except RuleError as exc:
            raise _rule_error(exc) from None
        exp.extend(result.explanation)
        engine.save_sheets(turn.number)
        _mark(phase, "successes", [record.pk])
        log_explanation(
            campaign,
            exp,
            actor=actor,
            private_to=phase.side,
            tag={"sheet": record.pk},
            turn=turn.number,
        )
    return record


def tcs_sheet_declare_failure(
    *, sheet: OpSheetRecord, actor, confirm: bool, units: list[str] | None = None
) -> OpSheetRecord:
    """Declare a sheet failed in the side's own Action Phase: after its Command Phase of
    this turn is completed [6.11.b, ambiguity 19]."""
    if not confirm:
        raise ValidationError(
            {"confirm": _("Tick the box to confirm: the units execute their failure instructions.")}
        )
    with transaction.atomic():
        campaign = _locked(sheet.campaign_id)
        _may_act(campaign, actor, sheet.side_id)
        turn = current_turn(campaign)
        side = Side.objects.get(pk=sheet.side_id)
        if not CommandPhase.objects.filter(
            campaign=campaign, side=side, turn=turn.number, status=CommandPhase.Status.COMPLETED
        ).exists():
            raise ValidationError(
                _(
                    "Failure is declared in your own Action Phase: complete this turn's Command Phase first [6.11.b]."
                )
            )
        engine = load_side(campaign, side)
        record = engine.record(sheet.pk)
        try:
            result = declare_failure(engine.sheets[record.pk], Phase.OWN_ACTION, units or None)
        except RuleError as exc:
            raise _rule_error(exc) from None
        engine.save_sheets(turn.number)
        log_explanation(
            campaign,
            result.explanation,
            actor=actor,
            private_to=side,
            tag={"sheet": record.pk},
            turn=turn.number,
        )
    return record


def tcs_phase_weighted_turns(
    *, phase: CommandPhase, actor, fired_sheets: Iterable[int] = ()
) -> dict[str, int]:
    """Step 2: every sheet (and addition) in Command Prep adds its ticks [6.9.d, 6.9.e,
    26.1.a]; `fired_sheets` are the sheets a listed unit of which fired or was fired on last
    turn. Done once per phase."""
    with transaction.atomic():
        campaign, phase, engine, turn = _phase(phase, actor)
        if phase.steps.get("ticked"):
            raise ValidationError(_("Weighted turns were already added in this Command Phase."))
        fired_ids = set(fired_sheets)
        fired: set[str] = set()
        for record in engine.records:
            if record.pk in fired_ids:
                sheet = engine.sheets[record.pk]
                fired.update(sheet.active_units)
                for addition in sheet.pending_additions:
                    fired.update(addition.units)
        options = options_for(campaign)
        added: dict[str, int] = {}
        logs = []
        for record in engine.records:
            sheet = engine.sheets[record.pk]
            if not (sheet.status.in_prep or sheet.pending_additions):
                continue
            result = accumulate_weighted_turns(
                sheet, engine.oob, engine.sheet_list, turn, fired, options
            )
            for c in result.counters:
                added[c.counter] = c.ticks
            logs.append((record.pk, result.explanation))
        engine.save_sheets(turn.number)
        _mark(phase, "ticked", {k: v for k, v in added.items()} or True)
        _mark(phase, "fired", sorted(fired_ids))
        for pk, exp in logs:
            log_explanation(
                campaign,
                exp,
                actor=actor,
                private_to=phase.side,
                tag={"sheet": pk},
                turn=turn.number,
            )
        if not logs:
            append_log(
                campaign,
                kind=LogEntry.Kind.RULE,
                summary=_("%(side)s: no op sheet in Command Prep.") % {"side": phase.side.name},
                rule="6.9.d",
                actor=actor,
                private_to=phase.side,
                data={"tcs": {"phase": phase.pk}},
            )
    return added


def _threshold_entries(thresholds: Mapping[str, int | None]) -> dict[OpSheetType, int | None]:
    return {OpSheetType(k): v for k, v in thresholds.items()}


def tcs_phase_attempt(
    *,
    phase: CommandPhase,
    sheet: OpSheetRecord,
    actor,
    mode: str = AttemptMode.FULL,
    roll: int | None = None,
    thresholds: Mapping[str, int | None] | None = None,
    addition_id: str | None = None,
) -> dict[str, Any]:
    """Step 3: one Command Prep roll for a sheet (or an addition) [6.9.f, 6.14.a].

    `thresholds` maps a row type to the value read off the printed chart (None: the cell
    shows no number); without them the side's table is read. A missing threshold is a form
    error naming the row, column and key to read, raised before any die is rolled.
    """
    with transaction.atomic():
        campaign, phase, engine, turn = _phase(phase, actor)
        record = engine.record(sheet.pk)
        key = f"{record.pk}/{addition_id or ''}"
        if key in phase.steps.get("attempted", []):
            raise ValidationError(_("This sheet already had its Command Prep roll this phase."))
        if not phase.steps.get("ticked"):
            raise ValidationError(_("Add this turn's weighted turns first (step 2)."))
        if mode not in {x.value for x in AttemptMode}:
            raise ValidationError(
                {"mode": _("Choose a full attempt or preliminary instructions only.")}
            )
        dice = _dice(None if roll is None else [roll])
        try:
            result = attempt_implementation(
                engine.sheets[record.pk],
                engine.sheet_list,
                rating=engine.settings.rating,
                dice=dice,
                mode=AttemptMode(mode),
                table=engine.table,
                entered=_threshold_entries(thresholds or {}),
                addition_id=addition_id or None,
                options=options_for(campaign),
            )
        except DecisionRequired as need:
            row = need.decision.key.split(":", 1)[1]
            field = "move_threshold" if row == "move" and row != record.sheet_type else "threshold"
            raise ValidationError({field: need.decision.prompt}) from None
        except RuleError as exc:
            raise _rule_error(
                exc, "roll" if exc.__class__.__name__ == "DiceError" else None
            ) from None
        engine.save_sheets(turn.number)
        _mark(phase, "attempted", [key])
        _mark(phase, "outcomes", [{"sheet": record.pk, "outcome": result.outcome.value}])
        log_explanation(
            campaign,
            result.explanation,
            actor=actor,
            private_to=phase.side,
            tag={"sheet": record.pk},
            turn=turn.number,
        )
        for other, units in result.released.items():
            other_record = next((r for r in engine.records if r.code == other), None)
            if other_record is not None:
                append_log(
                    campaign,
                    kind=LogEntry.Kind.RULE,
                    summary=_("Struck from %(s)s: %(u)s.") % {"s": other, "u": ", ".join(units)},
                    rule="6.10.a",
                    actor=actor,
                    private_to=phase.side,
                    data={"tcs": {"sheet": other_record.pk}},
                )
    return {"outcome": result.outcome.value, "roll": result.roll.value if result.roll else None}


def tcs_phase_commit_reserves(
    *, phase: CommandPhase, sheet: OpSheetRecord, actor, units: list[str], order: str
) -> str:
    """Step 4 (set-up): commit reserves as a group with one order [6.14.b]."""
    with transaction.atomic():
        campaign, phase, engine, turn = _phase(phase, actor)
        record = engine.record(sheet.pk)
        state = engine.sheets[record.pk]
        group_id = f"r{len(state.check_groups) + 1}"
        try:
            result = commit_reserves(
                state, group_id, units, OpSheetType(order), rating=engine.settings.rating
            )
        except (RuleError, ValueError) as exc:
            if isinstance(exc, RuleError):
                raise _rule_error(exc, "units") from None
            raise ValidationError({"order": _("Choose Attack, Hasty Defense or Move.")}) from None
        engine.save_sheets(turn.number)
        log_explanation(
            campaign,
            result.explanation,
            actor=actor,
            private_to=phase.side,
            tag={"sheet": record.pk},
            turn=turn.number,
        )
    return group_id


def tcs_phase_choose_alternative(
    *, phase: CommandPhase, sheet: OpSheetRecord, actor, alternative: str
) -> str:
    """Step 4 (set-up): start choosing an alternative; irreversible [6.14.c]."""
    with transaction.atomic():
        campaign, phase, engine, turn = _phase(phase, actor)
        record = engine.record(sheet.pk)
        try:
            result = choose_alternative(
                engine.sheets[record.pk], alternative, rating=engine.settings.rating
            )
        except RuleError as exc:
            raise _rule_error(exc, "alternative") from None
        engine.save_sheets(turn.number)
        log_explanation(
            campaign,
            result.explanation,
            actor=actor,
            private_to=phase.side,
            tag={"sheet": record.pk},
            turn=turn.number,
        )
    return f"alt:{alternative}"


def tcs_phase_check_roll(
    *, phase: CommandPhase, sheet: OpSheetRecord, actor, group_id: str, roll: int | None = None
) -> bool:
    """Step 4: a pending reserve or alternative group's check roll, 1d6 ≥ rating [6.14.d];
    one per group per phase."""
    with transaction.atomic():
        campaign, phase, engine, turn = _phase(phase, actor)
        record = engine.record(sheet.pk)
        key = f"{record.pk}/{group_id}"
        if key in phase.steps.get("checked", []):
            raise ValidationError(_("This group already rolled its check this phase."))
        try:
            result = roll_check(
                engine.sheets[record.pk],
                group_id,
                rating=engine.settings.rating,
                dice=_dice(None if roll is None else [roll]),
            )
        except RuleError as exc:
            raise _rule_error(exc, "roll") from None
        engine.save_sheets(turn.number)
        _mark(phase, "checked", [key])
        log_explanation(
            campaign,
            result.explanation,
            actor=actor,
            private_to=phase.side,
            tag={"sheet": record.pk},
            turn=turn.number,
        )
    return result.success


def recovery_due(campaign: Campaign) -> bool:
    turn = current_turn(campaign)
    return morale_recovery_due(turn, Explanation(), even_hours_at_night=True)


def tcs_phase_recovery(
    *, phase: CommandPhase, actor, rolls: Mapping[int, int | None] | None = None
) -> dict[str, tuple[int, int]]:
    """Step 7: on whole hours (at night even hours) each battalion and vehicle formation
    rolls 1d6; ≤ its value lowers it by 1, never while attacking [17.1.d–e, 17.8.d, 26.1.d].

    `rolls` maps a formation pk to the die rolled at the table; None everywhere → server.
    """
    with transaction.atomic():
        campaign, phase, engine, turn = _phase(phase, actor)
        if phase.steps.get("recovery"):
            raise ValidationError(_("Morale recovery was already rolled in this Command Phase."))
        server = rolls is None or all(v is None for v in rolls.values())
        options = options_for(campaign)
        changes: dict[str, tuple[int, int]] = {}
        exp_all: list[tuple[TcsFormation, Explanation]] = []
        for formation in engine.formations.values():
            if formation.morale == TcsFormation.Morale.NONE:
                continue
            value = None if server else (rolls or {}).get(formation.pk)
            dice = ServerDice() if server else EnteredDice([] if value is None else [value])
            try:
                if formation.morale == TcsFormation.Morale.BATTALION:
                    morale = BattalionMorale.from_dict(formation.state)
                    result = battalion_recovery(
                        morale, turn, dice, oob=engine.oob, sheets=engine.sheet_list
                    )
                    new_state = morale.to_dict()
                else:
                    track = _track(engine, formation)
                    if track is None:
                        continue
                    result = vehicle_recovery(
                        track,
                        turn,
                        dice,
                        formation_units=engine.oob.surviving(formation.code),
                        sheets=engine.sheet_list,
                        options=options,
                    )
                    new_state = {
                        k: v
                        for k, v in track.to_dict().items()
                        if k not in ("formation", "total_steps")
                    }
            except RollNeeded as exc:
                raise _roll_needed(exc, f"roll_{formation.pk}") from None
            except RuleError as exc:
                raise _rule_error(exc, f"roll_{formation.pk}") from None
            if result.after != result.before:
                changes[formation.code] = (result.before, result.after)
            _save_formation(formation, new_state, turn.number, "recovery")
            exp_all.append((formation, result.explanation))
        _mark(phase, "recovery", {k: list(v) for k, v in changes.items()} or True)
        for formation, exp in exp_all:
            log_explanation(
                campaign,
                [s for s in exp],
                actor=actor,
                private_to=phase.side,
                tag={"formation": formation.pk},
                turn=turn.number,
            )
    return changes


def phase_blockers(phase: CommandPhase, engine: SideEngine, campaign: Campaign) -> list[str]:
    """What must still be done before the phase may be completed."""
    blockers = []
    in_prep = any(s.status.in_prep or s.pending_additions for s in engine.sheet_list)
    if in_prep and not phase.steps.get("ticked"):
        blockers.append(_("add the weighted turns (step 2)"))
    if (
        recovery_due(campaign)
        and not phase.steps.get("recovery")
        and any(
            f.morale != TcsFormation.Morale.NONE and f.state.get("value", 0) > 0
            for f in engine.formations.values()
        )
    ):
        blockers.append(_("roll morale recovery (step 7)"))
    for state in engine.sheet_list:
        forced = forced_commitment(state)
        if forced is not None:
            blockers.append(forced.prompt + " [6.14.b]")
    return blockers


def tcs_phase_complete(*, phase: CommandPhase, actor) -> CommandPhase:
    """Close the phase; completing it twice changes nothing (idempotent)."""
    with transaction.atomic():
        campaign = _locked(phase.campaign_id)
        phase = CommandPhase.objects.select_related("side").get(pk=phase.pk)
        _may_act(campaign, actor, phase.side_id)
        if phase.status == CommandPhase.Status.COMPLETED:
            return phase
        engine = load_side(campaign, phase.side)
        blockers = phase_blockers(phase, engine, campaign)
        if blockers:
            raise ValidationError(_("Before completing: %(what)s.") % {"what": "; ".join(blockers)})
        for record in engine.records:  # one timeline point per sheet and turn
            _snapshot(record.history, phase.turn, status=record.status, wt=record.weighted_turns)
            OpSheetRecord.objects.filter(pk=record.pk).update(history=record.history)
        phase.status = CommandPhase.Status.COMPLETED
        phase.completed_at = timezone.now()
        phase.completed_by = actor
        phase.save(update_fields=["status", "completed_at", "completed_by"])
        append_log(
            campaign,
            kind=LogEntry.Kind.EVENT,
            summary=_("%(side)s completed the Command Phase of turn %(n)s.")
            % {"side": phase.side.name, "n": phase.turn},
            rule="2.0",
            actor=actor,
            data={"tcs": {"phase": phase.pk}, "turn": phase.turn},
        )
    return phase


# --- losses and morale ----------------------------------------------------------------------


def tcs_losses_record(
    *,
    unit: TcsUnit,
    actor,
    steps: int,
    combat: bool = True,
    nearest: str | None = None,
    rolls: list[int] | None = None,
) -> dict[str, Any]:
    """Step losses on one unit [10.0]. A destroyed non-vehicle unit enters its battalion's
    box [17.1.a–c]; vehicle steps fill the formation's morale track with a d6 check per point
    gained, and a failure ends its implemented sheets [17.8.a–c]. `rolls` are d6 rolled at
    the table (None: the server rolls)."""
    with transaction.atomic():
        campaign = _locked(unit.campaign_id)
        _may_act(campaign, actor, unit.side_id)
        if campaign.status != Campaign.Status.ACTIVE:
            raise ValidationError(_("Losses are recorded once play has started."))
        side = Side.objects.get(pk=unit.side_id)
        engine = load_side(campaign, side)
        unit = engine.units[unit.code]
        if unit.eliminated:
            raise ValidationError({"unit": _("%(u)s is already eliminated.") % {"u": unit.code}})
        if not 1 <= steps <= unit.steps_left:
            raise ValidationError(
                {"steps": _("%(u)s has %(n)s steps left.") % {"u": unit.code, "n": unit.steps_left}}
            )
        turn = current_turn(campaign)
        options = options_for(campaign)
        outcome: dict[str, Any] = {"eliminated": False, "failed": False}
        logs: list[tuple[dict, Explanation]] = []
        intro = Explanation()
        unit.steps_lost += steps
        intro.add("10.0", f"{unit.code} loses {steps} step(s)", unit.steps_left)
        logs.append(({"unit": unit.pk}, intro))
        formation = unit.formation
        if (
            unit.category == TcsUnit.Category.VEHICLE
            and formation
            and formation.morale == TcsFormation.Morale.VEHICLE
        ):
            track = _track(engine, formation)
            before_status = {pk: s.status for pk, s in engine.sheets.items()}
            try:
                result = vehicle_step_losses(
                    track,
                    steps,
                    _dice(rolls),
                    formation_units=engine.oob.surviving(formation.code),
                    sheets=engine.sheet_list,
                    options=options,
                )
            except RollNeeded as exc:
                raise _roll_needed(exc, "rolls") from None
            except RuleError as exc:
                raise _rule_error(exc, "steps") from None
            state = {
                k: v for k, v in track.to_dict().items() if k not in ("formation", "total_steps")
            }
            _save_formation(formation, state, turn.number, "loss")
            outcome["failed"] = result.failed
            logs.append(({"formation": formation.pk}, result.explanation))
            ended = [
                r.pk for r in engine.records if engine.sheets[r.pk].status != before_status[r.pk]
            ]
            outcome["sheets_failed"] = ended
        elif rolls:
            raise ValidationError(
                {"rolls": _("Only vehicle losses in a vehicle-morale formation need dice.")}
            )
        if unit.steps_left == 0:
            unit.eliminated_turn = turn.number
            outcome["eliminated"] = True
            eliminate(unit.code, engine.sheet_list)
            engine.oob.eliminate(unit.code)
            if unit.category != TcsUnit.Category.VEHICLE:
                boxes = {
                    f.code: BattalionMorale.from_dict(f.state)
                    for f in engine.formations.values()
                    if f.morale == TcsFormation.Morale.BATTALION
                }
                if nearest and nearest not in boxes:
                    raise ValidationError({"nearest": _("Choose one of your battalions.")})
                try:
                    change = battalion_loss(
                        unit.code,
                        engine.oob,
                        boxes,
                        nearest=[nearest] if nearest else (),
                        combat=combat,
                    )
                except RuleError as exc:
                    raise ValidationError(
                        {
                            "nearest": _(
                                "%(u)s has no battalion: choose the battalion of the nearest unit [17.1.c]."
                            )
                            % {"u": unit.code}
                        }
                    ) from exc
                battalion = engine.formations[change.battalion]
                _save_formation(battalion, boxes[change.battalion].to_dict(), turn.number, "loss")
                logs.append(({"formation": battalion.pk}, change.explanation))
                outcome["battalion"] = (change.battalion, change.before, change.after)
        unit.save(update_fields=["steps_lost", "eliminated_turn"])
        engine.save_sheets(turn.number)
        for tag, exp in logs:
            log_explanation(campaign, exp, actor=actor, private_to=side, tag=tag, turn=turn.number)
        for pk in outcome.get("sheets_failed", []):
            append_log(
                campaign,
                kind=LogEntry.Kind.RULE,
                summary=_("Op sheet %(s)s: %(status)s after the vehicle morale failure.")
                % {"s": engine.record(pk).code, "status": engine.sheets[pk].status.value},
                rule="17.8.c",
                actor=actor,
                private_to=side,
                data={"tcs": {"sheet": pk}},
            )
    return outcome


def tcs_morale_correct(*, formation: TcsFormation, actor, value: int, reason: str) -> TcsFormation:
    """Correct a morale value (a mistake at the table); the correction is logged with its
    reason and the old value."""
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": _("Say why the value is corrected.")})
    if value < 0:
        raise ValidationError({"value": _("Morale is never below 0.")})
    with transaction.atomic():
        campaign = _locked(formation.campaign_id)
        _may_act(campaign, actor, formation.side_id)
        formation = TcsFormation.objects.select_related("side").get(pk=formation.pk)
        if formation.morale == TcsFormation.Morale.NONE:
            raise ValidationError({"value": _("This formation keeps no morale.")})
        before = formation.state.get("value", 0)
        turn = current_turn(campaign)
        _save_formation(formation, {**formation.state, "value": value}, turn.number, "correction")
        append_log(
            campaign,
            kind=LogEntry.Kind.CORRECTION,
            summary=_("%(f)s morale corrected from %(a)s to %(b)s: %(why)s")
            % {"f": formation.code, "a": before, "b": value, "why": reason},
            rule="17.1" if formation.morale == TcsFormation.Morale.BATTALION else "17.8",
            actor=actor,
            private_to=formation.side,
            data={"tcs": {"formation": formation.pk}, "before": before, "after": value},
        )
    return formation


def tcs_unit_restore(*, unit: TcsUnit, actor, steps: int, reason: str) -> TcsUnit:
    """Give back steps entered by mistake; the unit returns to play if it was eliminated.
    Morale and sheets are not recomputed: correct them separately (both are logged)."""
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": _("Say why the steps are given back.")})
    with transaction.atomic():
        campaign = _locked(unit.campaign_id)
        _may_act(campaign, actor, unit.side_id)
        unit = TcsUnit.objects.select_related("side").get(pk=unit.pk)
        if not 1 <= steps <= unit.steps_lost:
            raise ValidationError(
                {"steps": _("%(u)s has lost %(n)s steps.") % {"u": unit.code, "n": unit.steps_lost}}
            )
        unit.steps_lost -= steps
        unit.eliminated_turn = None
        unit.save(update_fields=["steps_lost", "eliminated_turn"])
        append_log(
            campaign,
            kind=LogEntry.Kind.CORRECTION,
            summary=_("%(u)s: %(n)s step(s) given back (%(why)s).")
            % {"u": unit.code, "n": steps, "why": reason},
            rule="10.0",
            actor=actor,
            private_to=unit.side,
            data={"tcs": {"unit": unit.pk}},
        )
    return unit
