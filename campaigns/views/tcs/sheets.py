"""Op sheet pages: drawing, reading, correcting, deleting a sheet that never took effect,
revealing, failure, Prepared Defense, adding and striking units, the private graphic."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import F
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.models import Campaign
from campaigns.models.tcs import OpSheetRecord, TcsUnit
from campaigns.permissions import Viewer, can_act_for_side
from campaigns.selectors import campaign_log
from campaigns.selectors.tcs import is_finished, sheet_for
from campaigns.services import tcs as svc
from campaigns.tcs import forms as tf
from campaigns.tcs.graphics import GraphicInput, graphic_response, is_picture
from campaigns.views.common import form_errors, partial_request
from campaigns.views.tcs.common import (
    flash,
    load,
    posted,
    side_for,
    uploaded,
)
from rules.tcs.opsheet import OpSheet


def _live_units(campaign, side):
    """The side's units in play, formation by formation in the order of battle's order."""
    return list(
        TcsUnit.objects.filter(campaign=campaign, side=side, eliminated_turn__isnull=True)
        .select_related("formation")
        .order_by(F("formation__order").asc(nulls_last=True), "formation_id", "order", "id")
    )


@login_required
def tcs_sheet_new(request, pk: int, side_pk: int):
    campaign, viewer = load(request, pk)
    side = side_for(campaign, viewer, side_pk, act=True)
    if is_finished(campaign):
        raise Http404
    units = _live_units(campaign, side)
    form = tf.SheetDrawForm(
        units,
        posted(request),
        uploaded(request),
        setup=campaign.status == Campaign.Status.SETUP,
    )
    form.fields["graphic"].widget = GraphicInput()  # see tcs_sheet_edit
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
                texts=form.texts(),
                graphic=form.upload(),
                reinforcement=d.get("reinforcement", False),
            )
        except ValidationError as exc:
            form_errors(form, exc)
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
    campaign, viewer = load(request, pk)
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
        "defense_form": tf.prepared_defense_form(sheet, state) if can_act else None,
        "can_change_units": can_act
        and campaign.status == Campaign.Status.ACTIVE
        and (state.status.in_prep or state.status.value == "implemented"),
        "can_edit": can_act and (campaign.status == Campaign.Status.SETUP or state.status.in_prep),
        "can_delete": can_act and svc.sheet_deletable(campaign, sheet),
        "can_implement": can_act and svc.sheet_implementable(campaign, sheet),
        "graphic_thumbnail": bool(sheet.graphic) and is_picture(sheet.graphic.name),
    }
    if partial_request(request) and request.GET.get("partial") == "log":
        return render(request, "tcs/sheet.html#sheet-log", context)
    return render(request, "tcs/sheet.html", context)


@login_required
def tcs_sheet_edit(request, pk: int, sheet_pk: int):
    campaign, viewer, sheet = _sheet(request, pk, sheet_pk)
    if not can_act_for_side(viewer, sheet.side_id) or is_finished(campaign):
        raise Http404
    form = tf.SheetEditForm(posted(request), uploaded(request), instance=sheet)
    # The default clearable input links the stored file by its storage URL, which private
    # graphics do not have: it made this page answer 500 for every sheet with a graphic.
    form.fields["graphic"].widget = GraphicInput()
    if request.method == "POST" and form.is_valid():
        try:
            svc.tcs_sheet_edit(
                sheet=sheet, actor=request.user, texts=form.texts(), graphic=form.upload()
            )
        except ValidationError as exc:
            form_errors(form, exc)
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
def tcs_sheet_delete(request, pk: int, sheet_pk: int):
    """Delete a sheet that never took effect: any during set-up, an unimplemented one in
    play; the way out of a sheet drawn by mistake."""
    campaign, viewer, sheet = _sheet(request, pk, sheet_pk)
    if not can_act_for_side(viewer, sheet.side_id) or is_finished(campaign):
        raise Http404
    try:
        code = svc.tcs_sheet_delete(sheet=sheet, actor=request.user)
    except ValidationError as exc:
        flash(request, exc)
        return redirect("tcs-sheet", pk=campaign.pk, sheet_pk=sheet.pk)
    messages.success(request, _("Op sheet %(c)s deleted; the deletion is logged.") % {"c": code})
    return redirect("tcs-operation", pk=campaign.pk)


@login_required
@require_POST
def tcs_sheet_implement(request, pk: int, sheet_pk: int):
    """Implement a set-up sheet left in Command Prep, so play can start [27.1.f]."""
    campaign, viewer, sheet = _sheet(request, pk, sheet_pk)
    if not can_act_for_side(viewer, sheet.side_id) or is_finished(campaign):
        raise Http404
    try:
        svc.tcs_sheet_implement_setup(sheet=sheet, actor=request.user)
    except ValidationError as exc:
        flash(request, exc)
    else:
        messages.success(request, _("Op sheet implemented; the change is logged."))
    return redirect("tcs-sheet", pk=campaign.pk, sheet_pk=sheet.pk)


@login_required
@require_POST
def tcs_sheet_reveal(request, pk: int, sheet_pk: int):
    campaign, viewer, sheet = _sheet(request, pk, sheet_pk)
    if not can_act_for_side(viewer, sheet.side_id):
        raise Http404
    try:
        svc.tcs_sheet_reveal(sheet=sheet, actor=request.user)
    except ValidationError as exc:
        flash(request, exc)
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
        flash(request, exc)
    else:
        messages.success(request, _("Failure declared: the units execute failure instructions."))
    return redirect("tcs-sheet", pk=campaign.pk, sheet_pk=sheet.pk)


@login_required
@require_POST
def tcs_sheet_defense(request, pk: int, sheet_pk: int):
    campaign, viewer, sheet = _sheet(request, pk, sheet_pk)
    if not can_act_for_side(viewer, sheet.side_id) or is_finished(campaign):
        raise Http404
    form = tf.prepared_defense_form(sheet, OpSheet.from_dict(sheet.state), request.POST)
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
        flash(request, exc)
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
        candidates, posted(request) if action == "add" else None, implemented=implemented
    )
    strike_form = (
        tf.StrikeForm(state.active_units, posted(request) if action == "strike" else None)
        if state.status.in_prep
        else None
    )
    form = {"add": add_form, "strike": strike_form}.get(action)
    if form is not None and form.is_valid():
        try:
            text = _units_action(request, action, form, sheet)
        except ValidationError as exc:
            form_errors(form, exc)
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
    """The sheet's graphic, private as the sheet, as an inert download."""
    _campaign, _viewer, sheet = _sheet(request, pk, sheet_pk)
    return graphic_response(sheet)
