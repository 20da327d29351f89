"""Op sheets: drawing [6.8], correcting what is written [6.5], revealing, declaring success or
failure wholly or per unit [6.11, 6.13.a], adding [6.13.c–d] and striking [6.13.b] units.
What a sheet does to its units (Dug In, reinforcements) is in `sheet_effects`."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import Campaign, LogEntry, Side
from campaigns.models.tcs import (
    SHEET_TEXT_FIELDS,
    CommandPhase,
    OpSheetRecord,
    private_storage,
)
from campaigns.services._base import append_log, lock_campaign
from campaigns.services.tcs.common import (
    check_code,
    clean_texts,
    is_tcs,
    log_private,
    may_act,
    publish,
    rule_error,
    side_write,
)
from campaigns.services.tcs.engine import (
    PhaseStep,
    current_phase,
    load_side,
    mark,
    phase_step,
)
from campaigns.services.tcs.sheet_effects import REINFORCEMENT, log_on_sheet, undig
from campaigns.tcs.graphics import check_graphic
from campaigns.tcs.state import current_turn, options_for
from rules.errors import RuleError
from rules.i18n import msg
from rules.tcs import labels
from rules.tcs.additions import add_units
from rules.tcs.clock import Phase
from rules.tcs.opsheet import OpSheetType, SheetStatus, draw_sheet
from rules.tcs.transitions import declare_failure, declare_success, strike_units


def _sheet_type(value: str, field: str) -> OpSheetType:
    try:
        return OpSheetType(value)
    except ValueError:
        raise ValidationError(
            {field: _("Choose Prepared Defense, Attack, Hasty Defense or Move.")}
        ) from None


def _missions(missions: Mapping[str, str], field: str) -> dict[str, OpSheetType]:
    if not isinstance(missions, Mapping):
        raise ValidationError({field: _("Give each unit's mission.")})
    return {str(u): _sheet_type(m, field) for u, m in missions.items()}


def _alternatives(alternatives) -> dict[str, list[str]]:
    if alternatives is None:
        return {}
    if not isinstance(alternatives, Mapping) or any(
        isinstance(units, str) or not isinstance(units, Iterable) for units in alternatives.values()
    ):
        raise ValidationError({"alternatives": _("Give each alternative its list of units.")})
    return {str(name): [str(u) for u in units] for name, units in alternatives.items()}


def tcs_sheet_draw(
    *,
    side: Side,
    actor,
    code: str,
    missions: Mapping[str, str],
    reserves: Iterable[str] = (),
    alternatives: Mapping[str, Iterable[str]] | None = None,
    pregame: bool | None = None,
    texts: Mapping[str, str] | None = None,
    graphic=None,
    reinforcement: bool = False,
) -> OpSheetRecord:
    """Draw an op sheet [6.8]; `reinforcement`: written for reinforcements (before play it
    is implemented at once like every set-up sheet [6.13.e, 27.2.d]; in play it earns
    weighted turns normally [27.2.e]). During set-up every sheet is drawn before play and starts
    implemented [27.1.f]; in play it starts unimplemented, in Command Prep. `pregame` may
    only confirm that (None: decided by the operation's status), so no sheet can be left in
    set-up unimplemented, which would keep play from ever starting. Preliminary instructions
    exist when their text is written [6.14.a]."""
    code = check_code(code, "code")
    texts = clean_texts(texts, SHEET_TEXT_FIELDS)
    kinds = _missions(missions, "missions")
    alternatives = _alternatives(alternatives)
    reserves = [str(u) for u in reserves]
    try:
        check_graphic(graphic)
    except ValidationError as exc:
        raise ValidationError({"graphic": exc.messages}) from None
    with side_write(side, side.campaign_id, actor) as campaign:
        setup = campaign.status == Campaign.Status.SETUP
        if pregame and not setup:
            raise ValidationError(
                {"pregame": _("Sheets are drawn before play only during set-up.")}
            )
        if pregame is False and setup:
            raise ValidationError(
                {
                    "pregame": _(
                        "During set-up every op sheet is drawn before play and starts "
                        "implemented [27.1.f]. A sheet that must earn weighted turns is drawn "
                        "in a Command Phase once play has started."
                    )
                }
            )
        pregame = setup
        engine = load_side(campaign, side)
        if any(r.code == code for r in engine.records):
            raise ValidationError({"code": _("This side already has a sheet %(c)s.") % {"c": code}})
        turn = current_turn(campaign)
        try:
            result = draw_sheet(
                code,
                kinds,
                engine.oob,
                engine.sheet_list,
                rating=engine.settings.rating,
                reserves=reserves,
                alternatives=alternatives,
                turn=turn.number,
                pregame=pregame,
                preliminary_instructions=bool(texts.get("preliminary_text")),
                options=options_for(campaign),
            )
        except RuleError as exc:
            raise rule_error(exc, "missions") from None
        for unit in [*kinds, *reserves]:
            if engine.units[unit].eliminated:
                raise ValidationError({"missions": _("%(u)s is eliminated.") % {"u": unit}})
        if not texts.get("time_drawn"):
            texts["time_drawn"] = turn.clock
        state = result.sheet.to_dict()
        if reinforcement:
            state[REINFORCEMENT] = True
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
            summary=msg(
                "%(side)s drew op sheet %(c)s (%(type)s, size %(size)s).",
                side=side.name,
                c=code,
                type=labels.sheet_type(state["type"]),
                size=state["size"],
            ),
            rule="6.8",
            actor=actor,
            private_to=side,
            data={"tcs": {"sheet": record.pk}},
        )
        log_on_sheet(campaign, side, actor, result.explanation, record, turn.number)
        if reinforcement:
            log_private(
                campaign,
                side,
                actor,
                _("Op sheet %(c)s is written for reinforcements; it was drawn %(when)s.")
                % {
                    "c": code,
                    "when": _("before play: implemented at once")
                    if pregame
                    else _("in play: it earns weighted turns normally"),
                },
                rule="27.2.d" if pregame else "27.2.e",
                kind=LogEntry.Kind.EVENT,
                tag={"sheet": record.pk},
                turn=turn.number,
            )
    return record


def own_sheet(sheet: OpSheetRecord) -> OpSheetRecord:
    found = OpSheetRecord.objects.select_related("side").filter(pk=sheet.pk).first()
    if found is None:
        raise ValidationError({"sheet": _("This op sheet no longer exists.")})
    return found


def tcs_sheet_edit(
    *, sheet: OpSheetRecord, actor, texts: Mapping[str, str], graphic=None
) -> OpSheetRecord:
    """Correct what is written on a sheet during set-up (before play nothing has happened
    under it) or while it is in Command Prep; once implemented in play it may not be
    altered [6.5] (reserves, alternatives and added units go through the Command Phase).
    Each correction is logged with the fields changed."""
    texts = clean_texts(texts, SHEET_TEXT_FIELDS)
    try:
        check_graphic(graphic)
    except ValidationError as exc:
        raise ValidationError({"graphic": exc.messages}) from None
    with side_write(sheet.side_id, sheet.campaign_id, actor) as campaign:
        sheet = own_sheet(sheet)
        setup = campaign.status == Campaign.Status.SETUP
        if not setup and sheet.status not in ("unimplemented", "prelims_active"):
            raise ValidationError(_("An implemented op sheet may not be altered [6.5]."))
        changed = []
        for field in SHEET_TEXT_FIELDS:
            if field in texts and texts[field] != getattr(sheet, field):
                if field == "preliminary_text" and bool(texts[field]) != bool(
                    sheet.preliminary_text
                ):
                    raise ValidationError(
                        {
                            field: _(
                                "Preliminary instructions are written when the sheet is drawn [6.14.a]."
                            )
                        }
                    )
                setattr(sheet, field, texts[field])
                changed.append(str(OpSheetRecord._meta.get_field(field).verbose_name))
        if graphic is not None:
            old = sheet.graphic.name if sheet.graphic else ""
            sheet.graphic.save(graphic.name, graphic, save=False)
            if old:
                transaction.on_commit(lambda: private_storage().delete(old))
            changed.append(_("graphic"))
        if not changed:
            return sheet
        sheet.save()
        append_log(
            campaign,
            kind=LogEntry.Kind.CORRECTION,
            summary=msg(
                "Op sheet %(c)s corrected: %(fields)s.", c=sheet.code, fields=", ".join(changed)
            ),
            rule="6.5",
            actor=actor,
            private_to=None if sheet.revealed_at else sheet.side,
            data={"tcs": {"sheet": sheet.pk}, "fields": changed},
        )
    return sheet


def tcs_sheet_reveal(*, sheet: OpSheetRecord, actor) -> OpSheetRecord:
    """The owner shows a sheet: it and every log entry about it become public."""
    with transaction.atomic():
        campaign = lock_campaign(sheet.campaign_id)
        is_tcs(campaign)
        may_act(campaign, actor, sheet.side_id)
        sheet = OpSheetRecord.objects.select_related("side").get(pk=sheet.pk)
        if sheet.revealed_at is not None:
            return sheet
        sheet.revealed_at = timezone.now()
        sheet.save(update_fields=["revealed_at"])
        publish(campaign, sheet=sheet.pk)
        append_log(
            campaign,
            kind=LogEntry.Kind.EVENT,
            summary=msg("%(side)s revealed op sheet %(c)s.", side=sheet.side.name, c=sheet.code),
            actor=actor,
            data={"tcs": {"sheet": sheet.pk}},
        )
    return sheet


# --- success and failure --------------------------------------------------------------------


def tcs_sheet_declare_success(
    *, phase: CommandPhase, sheet: OpSheetRecord, actor, units: list[str] | None = None
) -> OpSheetRecord:
    """Step 1: declare an implemented sheet (or some of its units) succeeded [6.11.a, 6.13.a]."""
    with phase_step(phase, actor, sheet) as step:
        try:
            result = declare_success(step.sheet, Phase.COMMAND, units or None)
        except RuleError as exc:
            raise rule_error(exc, "units" if units else None) from None
        step.save(result.explanation)
        undig(step.engine, actor, step.turn.number)
        mark(step.phase, "successes", [step.record.pk])
    return step.record


def tcs_sheet_declare_failure(
    *, sheet: OpSheetRecord, actor, confirm: bool, units: list[str] | None = None
) -> OpSheetRecord:
    """Declare a sheet (or some of its units [6.11.d]) failed in the side's own Action
    Phase: after its Command Phase of this turn is completed [6.11.b, ambiguity 19]."""
    if not confirm:
        raise ValidationError(
            {"confirm": _("Tick the box to confirm: the units execute their failure instructions.")}
        )
    with side_write(sheet.side_id, sheet.campaign_id, actor) as campaign:
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
            raise rule_error(exc, "units" if units else None) from None
        engine.save_sheets(turn.number)
        log_on_sheet(campaign, side, actor, result.explanation, record, turn.number)
        undig(engine, actor, turn.number)
    return record


# --- adding and striking units [6.13] -------------------------------------------------------


@contextmanager
def _step_on_sheet(sheet: OpSheetRecord, actor) -> Iterator[PhaseStep]:
    """This turn's open Command Phase of the sheet's side, with the sheet [6.13]."""
    with side_write(sheet.side_id, sheet.campaign_id, actor) as campaign:
        phase = current_phase(campaign, sheet.side_id)
        with phase_step(phase, actor, sheet) as step:
            yield step


def _new_addition_id(step: PhaseStep) -> str:
    taken = {a.id for a in step.sheet.additions}
    n = len(taken) + 1
    while f"add{n}" in taken:
        n += 1
    return f"add{n}"


def tcs_sheet_add_units(
    *,
    sheet: OpSheetRecord,
    actor,
    missions: Mapping[str, str],
    row: str | None = None,
    preliminary_instructions: bool = False,
) -> dict[str, Any]:
    """Command Phase step 5: add units, each with its mission [6.13].

    To an unimplemented sheet the size is recomputed and the weighted turns cut in
    proportion, WT × old elements ÷ new elements rounded once [6.13.d]. To an implemented
    sheet the units form an addition with its own size and weighted turns from 0 that
    must pass its own Command Prep roll on the host's hardest row, or `row` [6.13.c].
    """
    if not missions:
        raise ValidationError({"missions": _("Give at least one unit a mission [6.13].")})
    kinds = {u: _sheet_type(m, "missions") for u, m in missions.items()}
    chosen_row = _sheet_type(row, "row") if row else None
    with _step_on_sheet(sheet, actor) as step:
        for unit in kinds:
            found = step.engine.units.get(unit)
            if found is None:
                raise ValidationError({"missions": _("Choose units of this side.")})
            if found.eliminated:
                raise ValidationError({"missions": _("%(u)s is eliminated.") % {"u": unit}})
        state = step.sheet
        implemented = state.status is SheetStatus.IMPLEMENTED
        before = state.weighted_turns
        addition_id = _new_addition_id(step) if implemented else ""
        try:
            result = add_units(
                state,
                kinds,
                step.engine.oob,
                step.engine.sheet_list,
                addition_id=addition_id,
                row=chosen_row,
                preliminary_instructions=preliminary_instructions,
                options=options_for(step.campaign),
            )
        except RuleError as exc:
            raise rule_error(exc, "missions") from None
        log_private(
            step.campaign,
            step.phase.side,
            actor,
            _("Units added to op sheet %(s)s: %(u)s.")
            % {"s": step.record.code, "u": ", ".join(kinds)},
            rule="6.13.c" if implemented else "6.13.d",
            kind=LogEntry.Kind.EVENT,
            tag={"sheet": step.record.pk},
            turn=step.turn.number,
        )
        step.save(result.explanation)
        mark(step.phase, "added", [{"sheet": step.record.pk, "units": list(kinds)}])
    return {
        "addition": addition_id or None,
        "weighted_turns": (before, state.weighted_turns),
        "size": state.size,
    }


def tcs_sheet_strike_units(*, sheet: OpSheetRecord, actor, units: list[str]) -> OpSheetRecord:
    """Strike units from a sheet still in Command Prep, in any Command Phase; its size and
    weighted turns stay as they are [6.13.b]."""
    if not units:
        raise ValidationError({"units": _("Choose the units to strike.")})
    with _step_on_sheet(sheet, actor) as step:
        try:
            result = strike_units(step.sheet, units)
        except RuleError as exc:
            raise rule_error(exc, "units") from None
        step.save(result.explanation)
        undig(step.engine, actor, step.turn.number)
        mark(step.phase, "struck", [{"sheet": step.record.pk, "units": list(units)}])
    return step.record
