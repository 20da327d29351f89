"""TCS operation pages: set-up, sides and order of battle, op sheets, the Command Phase
assistant, losses and morale, the timeline, and a privacy-aware JSON export.

A side's pages answer 404 to anyone who may not see its secrets; writes go through
`campaigns.services.tcs` and show its errors on the form that caused them.
"""

from __future__ import annotations

import json
import mimetypes

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.models import Campaign, Side
from campaigns.models.tcs import (
    TCS_TEMPLATE,
    CommandPhase,
    OpSheetRecord,
    TcsDecision,
    TcsFormation,
    TcsUnit,
)
from campaigns.permissions import (
    Viewer,
    can_act_for_side,
    can_see_tcs_secret,
    can_view_campaign,
    viewer_context,
)
from campaigns.selectors import campaign_log, campaign_with_sides
from campaigns.selectors.tcs import (
    decisions_awaited,
    decisions_to_make,
    is_finished,
    sheet_for,
    tcs_operation,
    tcs_timeline,
)
from campaigns.services import tcs as svc
from campaigns.tcs import forms as tf
from campaigns.tcs import readings as tf_readings
from campaigns.tcs.timeline_svg import status_at, timeline_svg, turns_of
from campaigns.views.common import partial_request
from rules.tcs.opsheet import OpSheet
from rules.tcs.reserves import forced_commitment

# --- loading and permissions ----------------------------------------------------------------


def _load(request, pk: int) -> tuple[Campaign, Viewer]:
    try:
        campaign = campaign_with_sides(pk)
    except Campaign.DoesNotExist:
        raise Http404 from None
    if campaign.system != "tcs" or campaign.template != TCS_TEMPLATE:
        raise Http404
    viewer = viewer_context(request.user, campaign)
    if not can_view_campaign(request.user, campaign, viewer):
        raise Http404
    return campaign, viewer


def _side(campaign: Campaign, viewer: Viewer, side_pk: int, *, act: bool = False) -> Side:
    side = next((s for s in campaign.sides.all() if s.pk == side_pk), None)
    if side is None or not can_see_tcs_secret(viewer, side, finished=is_finished(campaign)):
        raise Http404
    if act and not can_act_for_side(viewer, side):
        raise Http404
    return side


def _post(request):
    return request.POST if request.method == "POST" else None


def _files(request):
    return request.FILES if request.method == "POST" else None


def _apply(form, exc: ValidationError) -> None:
    """Put a service's errors on the form: on the field they name, else on the form."""
    if hasattr(exc, "error_dict"):
        for field, errors in exc.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)


def _flash(request, exc: ValidationError) -> None:
    for message in exc.messages:
        messages.error(request, message)


# --- operation ------------------------------------------------------------------------------


@login_required
def tcs_new(request):
    form = tf.OperationForm(_post(request))
    if request.method == "POST" and form.is_valid():
        try:
            campaign = svc.tcs_operation_create(creator=request.user, **form.service_kwargs())
        except ValidationError as exc:
            _apply(form, exc)
        else:
            messages.success(
                request,
                _("Operation created. Enter each side's order of battle and draw the op sheets."),
            )
            return redirect("tcs-operation", pk=campaign.pk)
    return render(request, "tcs/new.html", {"form": form})


def tcs_operation_view(request, pk: int):
    campaign, viewer = _load(request, pk)
    op = tcs_operation(campaign, viewer)
    log = campaign_log(campaign, viewer).reverse()[:20]
    return render(
        request,
        "tcs/operation.html",
        {
            "campaign": campaign,
            "viewer": viewer,
            "op": op,
            "log": log,
            "advance_form": tf.AdvanceForm(
                initial={"expected_turn": op.turn.number, "light": op.turn.light.value}
            ),
            "recovery_due": svc.recovery_due(campaign),
            "decisions": decisions_to_make(campaign, viewer),
        },
    )


def _manage_post(request, pk: int, action):
    campaign, viewer = _load(request, pk)
    if not (viewer.can_manage or viewer.side_ids):
        raise Http404
    try:
        action(campaign)
    except ValidationError as exc:
        _flash(request, exc)
    return redirect("tcs-operation", pk=campaign.pk)


@login_required
@require_POST
def tcs_start(request, pk: int):
    return _manage_post(
        request, pk, lambda c: svc.tcs_operation_start(campaign=c, actor=request.user)
    )


@login_required
@require_POST
def tcs_advance(request, pk: int):
    form = tf.AdvanceForm(request.POST)

    def advance(campaign):
        if not form.is_valid():
            raise ValidationError(_("Choose the light condition of the next turn."))
        svc.tcs_turn_advance(
            campaign=campaign,
            actor=request.user,
            light=form.cleaned_data["light"],
            expected_turn=form.cleaned_data["expected_turn"],
        )

    return _manage_post(request, pk, advance)


@login_required
def tcs_end(request, pk: int):
    campaign, viewer = _load(request, pk)
    if not (viewer.can_manage or viewer.side_ids) or is_finished(campaign):
        raise Http404
    form = tf.ConfirmForm(_post(request))
    if request.method == "POST" and form.is_valid():
        try:
            svc.tcs_operation_end(
                campaign=campaign, actor=request.user, confirm=form.cleaned_data["confirm"]
            )
        except ValidationError as exc:
            _apply(form, exc)
        else:
            messages.success(request, _("The operation is over; every op sheet is revealed."))
            return redirect("tcs-operation", pk=campaign.pk)
    return render(request, "tcs/end.html", {"campaign": campaign, "form": form})


# --- a side: settings, order of battle, losses ----------------------------------------------


def _side_forms(side_view, data=None, files=None, bound: str = ""):
    formations = [f.formation for f in side_view.formations]
    units = [u for f in side_view.formations for u in f.units] + side_view.loose_units
    battalions = [f for f in formations if f.morale == TcsFormation.Morale.BATTALION]
    moraled = [f for f in formations if f.morale != TcsFormation.Morale.NONE]
    settings = side_view.settings

    def b(name):
        return (data, files) if bound == name else (None, None)

    initial = {
        "rating": settings.rating if settings else 3,
        "prep_table": json.dumps(settings.prep_table, indent=1)
        if settings and settings.prep_table
        else "",
    }
    return {
        "settings": tf.SideSettingsForm(b("settings")[0], initial=initial, prefix="settings"),
        "formation": tf.FormationForm(b("formation")[0], prefix="formation"),
        "unit": tf.UnitForm(formations, b("unit")[0], prefix="unit"),
        "import": tf.CsvImportForm(*b("import"), prefix="import"),
        "loss": tf.LossForm(units, battalions, b("loss")[0], prefix="loss"),
        "correct": tf.CorrectionForm(moraled, b("correct")[0], prefix="correct"),
        "restore": tf.RestoreForm(units, b("restore")[0], prefix="restore"),
    }


def tcs_side_view(request, pk: int, side_pk: int):
    campaign, viewer = _load(request, pk)
    side = _side(campaign, viewer, side_pk)
    action = request.POST.get("action", "") if request.method == "POST" else ""
    if action and not (can_act_for_side(viewer, side) and request.user.is_authenticated):
        raise Http404
    op = tcs_operation(campaign, viewer)
    side_view = next(s for s in op.sides if s.side.pk == side.pk)
    forms = _side_forms(side_view, request.POST, request.FILES, action)
    if action in forms:
        form = forms[action]
        if form.is_valid():
            try:
                done = _side_action(request, action, form, side)
            except ValidationError as exc:
                _apply(form, exc)
            else:
                messages.success(request, done)
                return redirect("tcs-side", pk=campaign.pk, side_pk=side.pk)
    status = 400 if action in forms and forms[action].errors else 200
    return render(
        request,
        "tcs/side.html",
        {
            "campaign": campaign,
            "viewer": viewer,
            "op": op,
            "sv": side_view,
            "forms": forms,
            "awaited": decisions_awaited(side),
            "csv_columns": ",".join(svc.CSV_COLUMNS),
        },
        status=status,
    )


def _side_action(request, action: str, form, side: Side) -> str:
    d, user = form.cleaned_data, request.user
    if action == "settings":
        svc.tcs_side_update(side=side, actor=user, rating=d["rating"], table=d["prep_table"])
        return _("Command Prep settings saved.")
    if action == "formation":
        svc.tcs_formation_add(
            side=side,
            actor=user,
            code=d["code"],
            name=d["name"],
            morale=d["morale"],
            is_battalion=d["is_battalion"],
            track=d["track"],
            start_value=d["start_value"] or 0,
        )
        return _("Formation added.")
    if action == "unit":
        svc.tcs_unit_add(
            side=side,
            actor=user,
            code=d["code"],
            formation=form.formations.get(d["formation"]),
            category=d["category"],
            steps=d["steps"],
        )
        return _("Unit added.")
    if action == "import":
        f, u = svc.tcs_oob_import(side=side, actor=user, text=d["text"])
        return _("Imported %(f)s formations and %(u)s units.") % {"f": f, "u": u}
    if action == "loss":
        outcome = svc.tcs_losses_record(
            unit=form.units[d["unit"]],
            actor=user,
            steps=d["steps"],
            combat=d["combat"],
            nearest=d["nearest"] or None,
            rolls=d["rolls_list"],
        )
        text = _("Losses recorded.")
        if outcome.get("decision"):
            text += " " + _(
                "Equally near battalions: your opponent is asked to choose which one the loss "
                "counts for [17.1.c]."
            )
        if outcome.get("failed"):
            text += " " + _("The vehicle morale check failed: its implemented sheets end [17.8.c].")
        return text
    if action == "correct":
        svc.tcs_morale_correct(
            formation=form.formations[d["formation"]],
            actor=user,
            value=d["value"],
            reason=d["reason"],
        )
        return _("Morale corrected; the correction is in the log.")
    if action == "restore":
        unit = svc.tcs_unit_restore(
            unit=form.units[d["unit"]], actor=user, steps=d["steps"], reason=d["reason"]
        )
        return _restore_text(unit)
    raise Http404


def _restore_text(unit: TcsUnit) -> str:
    text = _("Steps given back; the correction is in the log.")
    back, not_back = unit.restored["back"], unit.restored["not_back"]
    if back:
        text += " " + _("%(u)s is back on %(s)s.") % {"u": unit.code, "s": ", ".join(back)}
    if not_back:
        text += " " + _(
            "It cannot return to %(s)s (ended, or 6.7.c): the log says why; add it to a sheet "
            "in the Command Phase if needed."
        ) % {"s": ", ".join(not_back)}
    if back or not_back or unit.restored.get("eliminated"):
        text += " " + _("Morale is not recomputed: correct it below if the loss changed it.")
    return text


# --- the opponent's choices [17.1.c] --------------------------------------------------------


def tcs_decisions(request, pk: int):
    """Choices the rules give this viewer's side about the other side's losses: which of
    equally near battalions a destroyed unit counts for [17.1.c]. Only the unit and the
    battalions are shown, never their morale."""
    campaign, viewer = _load(request, pk)
    choosers = [s for s in campaign.sides.all() if can_act_for_side(viewer, s)]
    if not choosers or not request.user.is_authenticated:
        raise Http404
    decisions = list(
        TcsDecision.objects.filter(
            campaign=campaign, chooser__in=choosers, status=TcsDecision.Status.OPEN
        ).select_related("unit", "side", "chooser")
    )
    bound = None
    if request.method == "POST":
        target = next((d for d in decisions if str(d.pk) == request.POST.get("decision")), None)
        if target is None:
            messages.error(request, _("This choice was already made or is no longer needed."))
            return redirect("tcs-decisions", pk=campaign.pk)
        bound = tf.DecisionForm(target.options, request.POST, prefix=f"d{target.pk}")
        if bound.is_valid():
            try:
                svc.tcs_decision_resolve(
                    decision=target, actor=request.user, choice=bound.cleaned_data["choice"]
                )
            except ValidationError as exc:
                _apply(bound, exc)
            else:
                messages.success(request, _("Your choice is recorded [17.1.c]."))
                return redirect("tcs-decisions", pk=campaign.pk)
        bound.decision_pk = target.pk
    items = [
        {
            "decision": d,
            "form": bound
            if bound is not None and bound.decision_pk == d.pk
            else tf.DecisionForm(d.options, prefix=f"d{d.pk}"),
        }
        for d in decisions
    ]
    return render(
        request,
        "tcs/decisions.html",
        {"campaign": campaign, "items": items},
        status=400 if bound is not None and bound.errors else 200,
    )


# --- rule readings --------------------------------------------------------------------------


def tcs_readings(request, pk: int):
    """The operation's readings of unclear rules with their explanations; the organiser or
    a game master changes them (each change logged)."""
    campaign, viewer = _load(request, pk)
    if not viewer.is_participant:
        raise Http404
    current = svc.options_for(campaign)
    can_change = viewer.can_manage and not is_finished(campaign)
    if request.method == "POST" and not (can_change and request.user.is_authenticated):
        raise Http404
    form = tf_readings.ReadingsForm(current, _post(request)) if can_change else None
    if form is not None and request.method == "POST" and form.is_valid():
        try:
            svc.tcs_options_update(campaign=campaign, actor=request.user, values=form.values())
        except ValidationError as exc:
            _apply(form, exc)
        else:
            messages.success(request, _("Readings saved; each change is in the log."))
            return redirect("tcs-readings", pk=campaign.pk)
    return render(
        request,
        "tcs/readings.html",
        {
            "campaign": campaign,
            "rows": tf_readings.reading_rows(current),
            "form": form,
        },
        status=400 if form is not None and form.errors else 200,
    )


# --- op sheets ------------------------------------------------------------------------------


def _live_units(campaign, side):
    return list(TcsUnit.objects.filter(campaign=campaign, side=side, eliminated_turn__isnull=True))


@login_required
def tcs_sheet_new(request, pk: int, side_pk: int):
    campaign, viewer = _load(request, pk)
    side = _side(campaign, viewer, side_pk, act=True)
    if is_finished(campaign):
        raise Http404
    units = _live_units(campaign, side)
    form = tf.SheetDrawForm(
        units,
        _post(request),
        _files(request),
        setup=campaign.status == Campaign.Status.SETUP,
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            record = svc.tcs_sheet_draw(
                side=side,
                actor=request.user,
                code=d["code"],
                missions=d["missions"],
                reserves=d["reserves"],
                alternatives=form.alternatives,
                pregame=d.get("pregame", False),
                texts=form.texts(),
                graphic=form.upload(),
            )
        except ValidationError as exc:
            _apply(form, exc)
        else:
            messages.success(request, _("Op sheet drawn. Only your side sees it."))
            return redirect("tcs-sheet", pk=campaign.pk, sheet_pk=record.pk)
    status = 400 if form.errors else 200
    return render(
        request,
        "tcs/sheet_form.html",
        {"campaign": campaign, "side": side, "form": form, "units": units},
        status=status,
    )


def _sheet(request, pk: int, sheet_pk: int) -> tuple[Campaign, Viewer, OpSheetRecord]:
    campaign, viewer = _load(request, pk)
    sheet = sheet_for(campaign, viewer, sheet_pk)
    if sheet is None:
        raise Http404
    return campaign, viewer, sheet


def tcs_sheet_view(request, pk: int, sheet_pk: int):
    campaign, viewer, sheet = _sheet(request, pk, sheet_pk)
    can_act = can_act_for_side(viewer, sheet.side_id) and not is_finished(campaign)
    log = campaign_log(campaign, viewer).filter(data__tcs__sheet=sheet.pk)
    state = OpSheet.from_dict(sheet.state)
    context = {
        "campaign": campaign,
        "viewer": viewer,
        "sheet": sheet,
        "can_act": can_act,
        "log": log,
        "fail_form": tf.FailForm(state.active_units),
        "defense_form": _defense_form(sheet, state) if can_act else None,
        "can_change_units": can_act
        and campaign.status == Campaign.Status.ACTIVE
        and (state.status.in_prep or state.status.value == "implemented"),
    }
    if partial_request(request) and request.GET.get("partial") == "log":
        return render(request, "tcs/sheet.html#sheet-log", context)
    return render(request, "tcs/sheet.html", context)


@login_required
def tcs_sheet_edit(request, pk: int, sheet_pk: int):
    campaign, viewer, sheet = _sheet(request, pk, sheet_pk)
    if not can_act_for_side(viewer, sheet.side_id) or is_finished(campaign):
        raise Http404
    form = tf.SheetEditForm(_post(request), _files(request), instance=sheet)
    if request.method == "POST" and form.is_valid():
        try:
            svc.tcs_sheet_edit(
                sheet=sheet, actor=request.user, texts=form.texts(), graphic=form.upload()
            )
        except ValidationError as exc:
            _apply(form, exc)
        else:
            messages.success(request, _("Op sheet corrected; the change is in your side's log."))
            return redirect("tcs-sheet", pk=campaign.pk, sheet_pk=sheet.pk)
    sheet.refresh_from_db()
    return render(
        request,
        "tcs/sheet_edit.html",
        {"campaign": campaign, "sheet": sheet, "form": form},
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def tcs_sheet_reveal(request, pk: int, sheet_pk: int):
    campaign, viewer, sheet = _sheet(request, pk, sheet_pk)
    if not can_act_for_side(viewer, sheet.side_id):
        raise Http404
    try:
        svc.tcs_sheet_reveal(sheet=sheet, actor=request.user)
    except ValidationError as exc:
        _flash(request, exc)
    else:
        messages.success(request, _("Op sheet revealed to everyone who can see the operation."))
    return redirect("tcs-sheet", pk=campaign.pk, sheet_pk=sheet.pk)


@login_required
@require_POST
def tcs_sheet_fail(request, pk: int, sheet_pk: int):
    campaign, viewer, sheet = _sheet(request, pk, sheet_pk)
    if not can_act_for_side(viewer, sheet.side_id):
        raise Http404
    form = tf.FailForm(OpSheet.from_dict(sheet.state).active_units, request.POST)
    form.is_valid()
    try:
        if "units" in form.errors:
            raise ValidationError(form.errors["units"])
        svc.tcs_sheet_declare_failure(
            sheet=sheet,
            actor=request.user,
            confirm=form.cleaned_data.get("confirm", False),
            units=form.cleaned_data.get("units") or None,
        )
    except ValidationError as exc:
        _flash(request, exc)
    else:
        messages.success(request, _("Failure declared: the units execute failure instructions."))
    return redirect("tcs-sheet", pk=campaign.pk, sheet_pk=sheet.pk)


def _defense_form(sheet: OpSheetRecord, state: OpSheet, data=None):
    """What implementing a Prepared Defense did, while some implementation of the sheet (or
    of units added to it) is not yet recorded [6.16.a, 21.1]."""
    if sheet.sheet_type != "prepared_defense" or state.status.value != "implemented":
        return None
    done = {p.get("addition", "") for p in sheet.prepared_defense}
    groups = [("", _("The sheet"))] if "" not in done else []
    groups += [
        (a.id, _("Units added: %(u)s") % {"u": ", ".join(a.units)})
        for a in state.additions
        if a.status.value == "implemented" and a.id not in done
    ]
    if not groups:
        return None
    return tf.PreparedDefenseForm(state.active_units, groups, data, prefix="pd")


@login_required
@require_POST
def tcs_sheet_defense(request, pk: int, sheet_pk: int):
    campaign, viewer, sheet = _sheet(request, pk, sheet_pk)
    if not can_act_for_side(viewer, sheet.side_id) or is_finished(campaign):
        raise Http404
    form = _defense_form(sheet, OpSheet.from_dict(sheet.state), request.POST)
    try:
        if form is None:
            raise ValidationError(_("Nothing to record: no Prepared Defense implementation."))
        if not form.is_valid():
            raise ValidationError([m for ms in form.errors.values() for m in ms])
        done = svc.tcs_sheet_prepared_defense(
            sheet=sheet,
            actor=request.user,
            fire_mode=form.cleaned_data["fire_mode"],
            addition_id=form.cleaned_data["addition"],
        )
    except ValidationError as exc:
        _flash(request, exc)
    else:
        messages.success(
            request,
            _("Dug in: %(d)s. Minefields to place now: %(m)s [6.16.a, 21.1].")
            % {"d": ", ".join(done["dug_in"]) or "—", "m": done["minefields"]},
        )
    return redirect("tcs-sheet", pk=campaign.pk, sheet_pk=sheet.pk)


@login_required
def tcs_sheet_units(request, pk: int, sheet_pk: int):
    """Command Phase step 5 on one sheet: add units [6.13.c, 6.13.d], strike units from a
    sheet still in Command Prep [6.13.b]."""
    campaign, viewer, sheet = _sheet(request, pk, sheet_pk)
    if not can_act_for_side(viewer, sheet.side_id) or is_finished(campaign):
        raise Http404
    state = OpSheet.from_dict(sheet.state)
    listed = {*state.active_units, *(u for a in state.additions for u in a.units)}
    candidates = [u.code for u in _live_units(campaign, sheet.side) if u.code not in listed]
    action = request.POST.get("action", "") if request.method == "POST" else ""
    implemented = state.status.value == "implemented"
    add_form = tf.AddUnitsForm(
        candidates, _post(request) if action == "add" else None, implemented=implemented
    )
    strike_form = (
        tf.StrikeForm(state.active_units, _post(request) if action == "strike" else None)
        if state.status.in_prep
        else None
    )
    form = {"add": add_form, "strike": strike_form}.get(action)
    if form is not None and form.is_valid():
        try:
            text = _units_action(request, action, form, sheet)
        except ValidationError as exc:
            _apply(form, exc)
        else:
            messages.success(request, text)
            return redirect("tcs-sheet-units", pk=campaign.pk, sheet_pk=sheet.pk)
    elif action and form is None:
        raise Http404
    return render(
        request,
        "tcs/sheet_units.html",
        {
            "campaign": campaign,
            "sheet": sheet,
            "state": state,
            "add_form": add_form,
            "strike_form": strike_form,
            "implemented": implemented,
        },
        status=400 if form is not None and form.errors else 200,
    )


def _units_action(request, action: str, form, sheet: OpSheetRecord) -> str:
    d = form.cleaned_data
    if action == "add":
        done = svc.tcs_sheet_add_units(
            sheet=sheet,
            actor=request.user,
            missions=d["missions"],
            row=d.get("row") or None,
            preliminary_instructions=d.get("prelims", False),
        )
        if done["addition"]:
            return _(
                "Units added as %(a)s: they roll their own Command Prep from 0 weighted turns "
                "[6.13.c]."
            ) % {"a": done["addition"]}
        before, after = done["weighted_turns"]
        return _("Units added; weighted turns %(b)s → %(a)s, size %(s)s [6.13.d].") % {
            "b": before,
            "a": after,
            "s": done["size"],
        }
    svc.tcs_sheet_strike_units(sheet=sheet, actor=request.user, units=d["units"])
    return _("Units struck; size and weighted turns stay [6.13.b].")


def tcs_sheet_graphic(request, pk: int, sheet_pk: int):
    _campaign, _viewer, sheet = _sheet(request, pk, sheet_pk)
    if not sheet.graphic:
        raise Http404
    try:
        handle = sheet.graphic.open("rb")
    except FileNotFoundError:
        raise Http404 from None
    content_type = mimetypes.guess_type(sheet.graphic.name)[0] or "application/octet-stream"
    response = FileResponse(handle, content_type=content_type)
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


# --- the Command Phase assistant ------------------------------------------------------------


def _phase_context(campaign, viewer, side, phase, forms=None):
    engine = svc.load_side(campaign, side) if phase else None
    prep, implemented, checks = [], [], []
    forms = forms or {}
    blockers = []
    if engine is not None:
        for record in engine.records:
            state = engine.sheets[record.pk]
            holders = [("", state)] if state.status.in_prep else []
            holders += [(a.id, a) for a in state.pending_additions]
            for addition_id, holder in holders:
                prefix = _attempt_prefix(record.pk, addition_id)
                attempt_form = forms.get(("attempt", prefix)) or tf.AttemptForm(
                    initial={"sheet": record.pk, "mode": "full"}, prefix=prefix
                )
                prep.append(
                    {
                        "record": record,
                        "state": holder,
                        "addition": addition_id,
                        "key": engine.settings.rating + holder.size,
                        "attempted": f"{record.pk}/{addition_id}"
                        in phase.steps.get("attempted", []),
                        "form": attempt_form,
                        "prelims": holder.preliminary_instructions
                        and holder.status.value == "unimplemented",
                    }
                )
            if state.status.value == "implemented":
                reserves = state.uncommitted_reserves
                free_alts = [
                    a
                    for a in state.alternatives
                    if not any(g.alternative == a for g in state.check_groups)
                ]
                implemented.append(
                    {
                        "record": record,
                        "state": state,
                        "success_form": forms.get(("success", record.pk))
                        or tf.PartialSuccessForm(
                            state.active_units,
                            initial={"sheet": record.pk},
                            prefix=f"s{record.pk}",
                        ),
                        "commit_form": forms.get(("commit", record.pk))
                        or (
                            tf.CommitForm(
                                reserves, initial={"sheet": record.pk}, prefix=f"c{record.pk}"
                            )
                            if reserves
                            else None
                        ),
                        "alt_form": forms.get(("alternative", record.pk))
                        or (
                            tf.AlternativeForm(
                                free_alts, initial={"sheet": record.pk}, prefix=f"l{record.pk}"
                            )
                            if free_alts
                            else None
                        ),
                        "forced": forced_commitment(state),
                    }
                )
                for group in state.check_groups:
                    if not group.passed:
                        key = f"{record.pk}/{group.id}"
                        checks.append(
                            {
                                "record": record,
                                "group": group,
                                "done": key in phase.steps.get("checked", []),
                                "form": forms.get(("check", key))
                                or tf.CheckForm(
                                    initial={"sheet": record.pk, "group": group.id},
                                    prefix=f"k{record.pk}{group.id.replace(':', '_')}",
                                ),
                            }
                        )
        blockers = svc.phase_blockers(phase, engine, campaign) if phase.status == "open" else []
    moraled = (
        [f for f in engine.formations.values() if f.morale != TcsFormation.Morale.NONE]
        if engine
        else []
    )
    prep_records = list({p["record"].pk: p["record"] for p in prep}.values())
    return {
        "campaign": campaign,
        "viewer": viewer,
        "side": side,
        "phase": phase,
        "turn": svc.current_turn(campaign),
        "engine": engine,
        "has_table": bool(engine and engine.settings.prep_table),
        "prep": prep,
        "implemented": implemented,
        "checks": checks,
        "blockers": blockers,
        "recovery_due": svc.recovery_due(campaign),
        "moraled": moraled,
        "wt_form": forms.get("ticks") or tf.WeightedTurnsForm(prep_records, prefix="wt"),
        "recovery_form": forms.get("recovery") or tf.RecoveryForm(moraled, prefix="rec"),
        "can_act": can_act_for_side(viewer, side) and campaign.status == Campaign.Status.ACTIVE,
    }


def tcs_command(request, pk: int, side_pk: int):
    """GET shows this turn's Command Phase; POST runs one step (htmx: the phase partial)."""
    campaign, viewer = _load(request, pk)
    side = _side(campaign, viewer, side_pk)
    turn = svc.current_turn(campaign)
    phase = CommandPhase.objects.filter(campaign=campaign, side=side, turn=turn.number).first()
    forms: dict = {}
    status = 200
    if request.method == "POST":
        if not (request.user.is_authenticated and can_act_for_side(viewer, side)):
            raise Http404
        action = request.POST.get("action", "")
        try:
            if action == "open":
                phase = svc.tcs_phase_open(side=side, actor=request.user)
            elif phase is None:
                raise ValidationError(_("Open this turn's Command Phase first."))
            else:
                forms = _phase_action(request, action, phase)
                phase.refresh_from_db()
        except ValidationError as exc:
            _flash(request, exc)
            status = 400
        if forms:
            status = 400
        if not partial_request(request) and status == 200:
            return redirect("tcs-command", pk=campaign.pk, side_pk=side.pk)
    context = _phase_context(campaign, viewer, side, phase, forms)
    if partial_request(request):  # htmx swaps 2xx answers only: errors are shown in the partial
        return render(request, "tcs/command.html#phase", context)
    return render(request, "tcs/command.html", context, status=status)


def _phase_action(request, action: str, phase: CommandPhase) -> dict:
    """Run one step; returns {form key: bound form} when a form has errors."""
    post, user = request.POST, request.user
    sheets = {s.pk: s for s in OpSheetRecord.objects.filter(side_id=phase.side_id)}

    def sheet_of(form):
        sheet = sheets.get(form.cleaned_data["sheet"])
        if sheet is None:
            raise ValidationError({"sheet": _("Choose one of this side's op sheets.")})
        return sheet

    def run(key, form, call) -> dict:
        if not form.is_valid():
            return {key: form}
        try:
            text = call(form)
        except ValidationError as exc:
            _apply(form, exc)
            return {key: form}
        if text:
            messages.success(request, text)
        return {}

    if action == "ticks":
        prep = [s for s in sheets.values() if s.status in ("unimplemented", "prelims_active")]
        prep += [
            s for s in sheets.values() if s.status == "implemented" and s.state.get("additions")
        ]
        form = tf.WeightedTurnsForm(prep, post, prefix="wt")
        return run(
            "ticks",
            form,
            lambda f: _ticks_text(
                svc.tcs_phase_weighted_turns(
                    phase=phase, actor=user, fired_sheets=[int(x) for x in f.cleaned_data["fired"]]
                )
            ),
        )
    if action == "attempt":
        pk = _int(post.get("sheet_pk"))
        addition_id = post.get("addition_id", "")
        if addition_id and not addition_id.isalnum():
            raise ValidationError(_("Choose one of this side's op sheets."))
        prefix = _attempt_prefix(pk, addition_id)
        form = tf.AttemptForm(post, prefix=prefix)

        def attempt(f):
            sheet = sheet_of(f)
            row = sheet.sheet_type
            if addition_id:
                found = [a for a in sheet.state.get("additions", []) if a["id"] == addition_id]
                row = found[0]["row"] if found else row
            result = svc.tcs_phase_attempt(
                phase=phase,
                sheet=sheet,
                actor=user,
                mode=f.cleaned_data["mode"],
                roll=f.cleaned_data["roll_value"],
                thresholds=f.thresholds(row),
                addition_id=addition_id or None,
            )
            text = _("%(s)s: rolled %(r)s — %(o)s.") % {
                "s": f"{sheet.code}/{addition_id}" if addition_id else sheet.code,
                "r": result["roll"] if result["roll"] is not None else "—",
                "o": result["outcome"].replace("_", " "),
            }
            if result["outcome"] == "implemented" and sheet.sheet_type == "prepared_defense":
                text += " " + _(
                    "Record on the sheet's page which units were in Fire mode: they dig in [6.16.a]."
                )
            return text

        return run(("attempt", prefix), form, attempt)
    if action == "success":
        pk = _int(post.get("sheet_pk"))
        sheet = sheets.get(pk)
        units = OpSheet.from_dict(sheet.state).active_units if sheet else []
        form = tf.PartialSuccessForm(units, post, prefix=f"s{pk}")
        return run(
            ("success", pk),
            form,
            lambda f: (
                svc.tcs_sheet_declare_success(
                    phase=phase, sheet=sheet_of(f), actor=user, units=f.cleaned_data["units"]
                )
                and (
                    _("Success declared for %(u)s [6.13.a].")
                    % {"u": ", ".join(f.cleaned_data["units"])}
                    if f.cleaned_data["units"]
                    else _("Success declared.")
                )
            ),
        )
    if action == "commit":
        pk = _int(post.get("sheet_pk"))
        sheet = sheets.get(pk)
        reserves = OpSheet.from_dict(sheet.state).uncommitted_reserves if sheet else []
        form = tf.CommitForm(reserves, post, prefix=f"c{pk}")
        return run(
            ("commit", pk),
            form,
            lambda f: (
                svc.tcs_phase_commit_reserves(
                    phase=phase,
                    sheet=sheet_of(f),
                    actor=user,
                    units=f.cleaned_data["units"],
                    order=f.cleaned_data["order"],
                )
                and _("Reserves committed: roll their check (step 4).")
            ),
        )
    if action == "alternative":
        pk = _int(post.get("sheet_pk"))
        sheet = sheets.get(pk)
        names = list((sheet.state.get("alternatives") or {}).keys()) if sheet else []
        form = tf.AlternativeForm(names, post, prefix=f"l{pk}")
        return run(
            ("alternative", pk),
            form,
            lambda f: (
                svc.tcs_phase_choose_alternative(
                    phase=phase,
                    sheet=sheet_of(f),
                    actor=user,
                    alternative=f.cleaned_data["alternative"],
                )
                and _("Alternative chosen: roll its check (step 4).")
            ),
        )
    if action == "check":
        prefix = post.get("prefix", "")
        if not prefix.startswith("k"):
            raise ValidationError(_("Choose a check group."))
        form = tf.CheckForm(post, prefix=prefix)

        def check(f):
            passed = svc.tcs_phase_check_roll(
                phase=phase,
                sheet=sheet_of(f),
                actor=user,
                group_id=f.cleaned_data["group"],
                roll=f.cleaned_data["roll_value"],
            )
            return _("Check passed.") if passed else _("Check failed; roll again next turn.")

        key = ("check", f"{post.get(prefix + '-sheet')}/{post.get(prefix + '-group')}")
        return run(key, form, check)
    if action == "recovery":
        moraled = list(
            TcsFormation.objects.filter(side_id=phase.side_id).exclude(
                morale=TcsFormation.Morale.NONE
            )
        )
        form = tf.RecoveryForm(moraled, post, prefix="rec")
        return run(
            "recovery",
            form,
            lambda f: (
                _("Morale recovery rolled.")
                + " "
                + (
                    ", ".join(
                        f"{k}: {a}→{b}"
                        for k, (a, b) in svc.tcs_phase_recovery(
                            phase=phase, actor=user, rolls=f.cleaned_data["rolls"]
                        ).items()
                    )
                    or _("No value changed.")
                )
            ),
        )
    if action == "complete":
        svc.tcs_phase_complete(phase=phase, actor=user)
        messages.success(request, _("Command Phase completed."))
        return {}
    raise ValidationError(_("Unknown step."))


def _int(text) -> int:
    text = (text or "").strip()
    return int(text) if text.isdigit() else 0


def _attempt_prefix(pk: int, addition_id: str) -> str:
    return f"a{pk}x{addition_id}" if addition_id else f"a{pk}"


def _ticks_text(added: dict) -> str:
    if not added:
        return _("No op sheet in Command Prep.")
    return _("Weighted turns added: %(t)s.") % {
        "t": ", ".join(f"{k} +{v}" for k, v in added.items())
    }


# --- timeline and export --------------------------------------------------------------------


def tcs_timeline_view(request, pk: int):
    campaign, viewer = _load(request, pk)
    timeline = tcs_timeline(campaign, viewer)
    turns = turns_of(timeline)
    rows = [
        {
            "sheet": s,
            "cells": [
                (status_at(s.history, t, "status") or "", status_at(s.history, t, "wt"))
                for t in turns
            ],
        }
        for s in timeline.sheets
    ]
    morale_rows = [
        {"formation": f, "cells": [status_at(f.history, t, "value") for t in turns]}
        for f in timeline.formations
    ]
    return render(
        request,
        "tcs/timeline.html",
        {
            "campaign": campaign,
            "viewer": viewer,
            "svg": timeline_svg(timeline, title=_("Timeline of %(op)s") % {"op": campaign.name}),
            "turns": turns,
            "rows": rows,
            "morale_rows": morale_rows,
            "has_data": bool(timeline.sheets or timeline.turns)
            or any(f.history for f in timeline.formations),
        },
    )


def tcs_export(request, pk: int):
    """The operation as JSON, as this viewer may see it: another side's unrevealed sheets,
    order of battle and morale are left out, as are private log entries."""
    campaign, viewer = _load(request, pk)
    op = tcs_operation(campaign, viewer)
    sides = []
    for sv in op.sides:
        item = {"name": sv.side.name, "rating": sv.settings.rating if sv.settings else None}
        if sv.can_see:
            item["prep_table"] = sv.settings.prep_table if sv.settings else None
            item["formations"] = [
                {
                    "id": f.formation.code,
                    "name": f.formation.name,
                    "morale": f.formation.morale,
                    "battalion": f.formation.is_battalion,
                    "state": f.formation.state,
                    "history": f.formation.history,
                    "units": [_unit_data(u) for u in f.units],
                }
                for f in sv.formations
            ]
            item["units"] = [_unit_data(u) for u in sv.loose_units]
        item["op_sheets"] = [_sheet_data(s) for s in sv.sheets]
        sides.append(item)
    log = [
        {"seq": e.seq, "kind": e.kind, "rule": e.rule, "summary": e.summary, "data": e.data}
        for e in campaign_log(campaign, viewer)
    ]
    data = {
        "format": "campaign-ledger/tcs-operation",
        "version": 1,
        "name": campaign.name,
        "status": campaign.status,
        "turn": op.turn.to_dict(),
        "sides": sides,
        "log": log,
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="tcs-operation-{campaign.pk}.json"'
    return response


def _unit_data(u: TcsUnit) -> dict:
    return {
        "id": u.code,
        "category": u.category,
        "steps": u.steps,
        "steps_lost": u.steps_lost,
        "eliminated_turn": u.eliminated_turn,
    }


def _sheet_data(s: OpSheetRecord) -> dict:
    return {
        "code": s.code,
        "state": s.state,
        "history": s.history,
        "time_drawn": s.time_drawn,
        "size_note": s.size_note,
        "task_organization": s.task_organization,
        "written_notes": s.written_notes,
        "failure_instructions": s.failure_instructions,
        "rally_points": s.rally_points,
        "preliminary_instructions": s.preliminary_text,
        "reserves": s.reserves_text,
        "alternatives": s.alternatives_text,
        "has_graphic": bool(s.graphic),
        "revealed": s.revealed_at is not None,
    }
