"""The battle assistant on a Combat Commander battle's page: start tracking, resolve a
procedure (its result shown where the button was, the tracks and the log redrawn), the live
odds of its rolls, and undo."""

from __future__ import annotations

from dataclasses import asdict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import formats
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.cc.battle.counter_grid import CountersGridForm
from campaigns.cc.battle.forms import (
    CountersForm,
    ProcedureForm,
    ReadingsForm,
    StartTrackingForm,
)
from campaigns.cc.battle.registry import PROCEDURES
from campaigns.cc.engines import TEMPLATES
from campaigns.i18n import rule_text, say
from campaigns.idempotency import idempotent_form
from campaigns.models import Battle, Campaign
from campaigns.permissions import Viewer
from campaigns.selectors.cc_readings import campaign_readings
from campaigns.selectors.cc_tracker import reader_context, tracker_of, tracks
from campaigns.selectors.history import log_window
from campaigns.services.cc_battle import (
    battle_act,
    battle_action_undo,
    battle_counters_set,
    battle_tracker_start,
    read_counters,
)
from campaigns.views.common import (
    flash_errors,
    flash_form_errors,
    form_errors,
    partial_request,
    visible_campaign,
)
from rules.errors import RuleError


def setup_initial(record) -> dict:
    """What the campaign's set-up already says, so the players only add the scenario's
    Time and Sudden Death spaces: the VP marker, postures, Surrender levels, the card."""
    initial = {"vp_axis": record.vp_axis}
    if record.initiative_holder:
        initial["initiative"] = record.initiative_holder
    for side in record.sides:
        if side.posture_key:
            initial[f"posture_{side.faction}"] = side.posture_key
        if isinstance(side.surrender, int):
            initial[f"surrender_{side.faction}"] = side.surrender
    return initial


def procedure_forms(campaign, viewer, tracker, bound=None) -> list[ProcedureForm]:
    context = reader_context(campaign, viewer, tracker)
    forms = []
    for spec in PROCEDURES.values():
        data = bound.data if bound is not None and bound.spec.key == spec.key else None
        form = (
            bound
            if data is not None
            else ProcedureForm(spec, context, initial={"version": tracker.version})
        )
        forms.append(form)
    return forms


def tracker_context(request, campaign, viewer, battle, sides, record) -> dict:
    """What the battle page shows of the assistant: the tracks, a form per procedure, or the
    form that starts tracking."""
    tracker = tracker_of(battle)
    if tracker is None:
        initial = {} if record is None else setup_initial(record)
        return {
            "tracker": None,
            "start_form": StartTrackingForm(sides, initial=initial),
            "readings_form": ReadingsForm(initial=asdict(campaign_readings(campaign))),
        }
    return {
        "tracker": tracker,
        "tracks": tracks(tracker, viewer, campaign),
        "procedure_forms": procedure_forms(campaign, viewer, tracker)
        if viewer.is_participant
        else [],
    }


def _load(request, pk: int, number: int) -> tuple[Campaign, Viewer, Battle]:
    campaign, viewer = visible_campaign(request, pk)
    if campaign.template not in TEMPLATES or not viewer.is_participant:
        raise Http404
    return campaign, viewer, get_object_or_404(Battle, campaign=campaign, number=number)


def _page(battle: Battle, anchor: str = "tracks-h"):
    return redirect(f"{battle.get_absolute_url()}#{anchor}")


@login_required
@require_POST
def tracker_start_view(request, pk: int, number: int):
    campaign, _viewer, battle = _load(request, pk, number)
    form = StartTrackingForm(list(campaign.sides.all()), request.POST)
    readings = ReadingsForm(request.POST)
    if not (form.is_valid() and readings.is_valid()):
        flash_form_errors(request, form)
        return _page(battle)
    try:
        battle_tracker_start(
            battle=battle,
            actor=request.user,
            readings=readings.cleaned_data,
            **form.service_kwargs(),
        )
    except ValidationError as exc:
        flash_errors(request, exc)
    else:
        messages.success(
            request, _("The battle is tracked: each procedure below moves the tracks.")
        )
    return _page(battle)


def _answer(request, campaign, viewer, battle, form, done=None):
    """The procedure's card again (its result or its errors where the button was) with the
    tracks and the log redrawn out of band; a full page load goes back to the card."""
    if not partial_request(request):
        return _page(battle, f"proc-{form.spec.key}")
    tracker = tracker_of(battle)
    return render(
        request,
        "cc/_procedure_response.html",
        {
            "campaign": campaign,
            "battle": battle,
            "viewer": viewer,
            "form": form,
            "done": done,
            "tracks": tracks(tracker, viewer, campaign),
            "log": log_window(campaign, viewer, battle=battle),
        },
    )


def _seen_version(request, form) -> int | None:
    """The tracks' version the player saw: the one the page's tracks carry (redrawn with
    every action, the player's own or the other side's), else the form's own."""
    seen = request.POST.get("seen_version", "")
    return int(seen) if seen.isdecimal() else form.cleaned_data.get("version")


@login_required
@require_POST
@idempotent_form
def tracker_act_view(request, pk: int, number: int, key: str):
    campaign, viewer, battle = _load(request, pk, number)
    spec = PROCEDURES.get(key)
    tracker = tracker_of(battle)
    if spec is None or tracker is None:
        raise Http404
    form = ProcedureForm(spec, reader_context(campaign, viewer, tracker), request.POST)
    done = None
    if form.is_valid():
        try:
            done = battle_act(
                battle=battle,
                actor=request.user,
                procedure=key,
                inputs=form.inputs(),
                entered=form.cleaned_data.get("dice") or "",
                version=_seen_version(request, form),
                acting_side=form.acting_side(),
            )
        except ValidationError as exc:
            form_errors(form, exc)
        else:  # the same values again for the next roll, the dice cleared
            fresh = reader_context(campaign, viewer, tracker_of(battle))
            form = ProcedureForm(spec, fresh, initial=form.inputs())
    if not partial_request(request):
        if done is None:
            flash_form_errors(request, form)
        return _page(battle, f"proc-{key}")
    return _answer(request, campaign, viewer, battle, form, done)


@require_POST
def tracker_odds_view(request, pk: int, number: int, key: str):
    """The exact odds of the procedure's rolls for the inputs typed so far (htmx, live; a
    POST because typed lines may hold line breaks, which a query string may not)."""
    campaign, viewer, battle = _load(request, pk, number)
    spec, tracker = PROCEDURES.get(key), tracker_of(battle)
    if spec is None or tracker is None or spec.odds is None:
        raise Http404
    context = reader_context(campaign, viewer, tracker)
    form = ProcedureForm(spec, context, request.POST)
    odds, problem = [], ""
    if form.is_valid():
        try:
            odds = [
                (say(o.label), formats.number_format(round(float(o.p) * 100, 1), 1), f"{o.p}")
                for o in spec.odds(form.inputs(), context)
            ]
        except RuleError as exc:
            problem = rule_text(exc)
    return render(
        request, "cc/_odds.html", {"spec": spec, "odds": odds, "problem": problem, "form": form}
    )


@login_required
@require_POST
@idempotent_form
def tracker_undo_view(request, pk: int, number: int):
    _campaign, _viewer, battle = _load(request, pk, number)
    try:
        undone = battle_action_undo(battle=battle, actor=request.user)
    except ValidationError as exc:
        flash_errors(request, exc)
    else:
        messages.success(
            request, _("Undone: %(what)s") % {"what": say(undone.result.get("summary"))}
        )
    return _page(battle)


@login_required
def tracker_counters_view(request, pk: int, number: int):
    """The battle's counter table as a grid (a problem beside its cell), or a JSON or CSV
    file or text instead."""
    campaign, _viewer, battle = _load(request, pk, number)
    tracker = tracker_of(battle)
    if tracker is None:
        raise Http404
    grid = CountersGridForm(tracker.counters)
    upload = CountersForm()
    form = None
    if request.method == "POST":
        add = request.POST.get("add", "")
        if add or request.POST.get("action") == "grid":
            grid = CountersGridForm(tracker.counters, request.POST, add=add)
            form = None if add else grid  # one more empty row: redraw, save nothing
        else:
            upload = form = CountersForm(request.POST, request.FILES)
    if form is not None and form.is_valid():
        try:
            battle_counters_set(battle=battle, actor=request.user, counters=_counters(form))
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("Counter table saved."))
            return redirect("tracker-counters", pk=pk, number=number)
    return render(
        request,
        "cc/counters.html",
        {
            "campaign": campaign,
            "battle": battle,
            "grid": grid,
            "form": upload,
            "upload_open": upload.is_bound,
        },
    )


def _counters(form) -> dict:
    """The checked table from the grid, or read from the file or the CSV text."""
    data = form.cleaned_data
    if isinstance(form, CountersGridForm):
        return data["counters"]
    return read_counters(
        data=data.get("json"),
        units_csv=data.get("units_csv", ""),
        weapons_csv=data.get("weapons_csv", ""),
    )
