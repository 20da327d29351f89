"""Combat Commander campaign pages: create, dashboard actions, decisions, tables, battles."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.cc.engines import TEMPLATES, template_for
from campaigns.cc.forms import (
    CCCampaignForm,
    CorrectionForm,
    EventForm,
    ResultForm,
    RollForm,
    decision_form,
)
from campaigns.idempotency import idempotent_form
from campaigns.ids import as_id
from campaigns.models import Battle, Campaign, Decision, LogEntry
from campaigns.permissions import Viewer, viewer_context
from campaigns.selectors.cc import cc_dashboard, setup_refusal
from campaigns.selectors.cc_battle import battle_score, battle_setup
from campaigns.selectors.cc_tracker import result_draft
from campaigns.selectors.history import HISTORY_WINDOW, log_window
from campaigns.services.battles import (
    battle_event_record,
    battle_result_correct,
    battle_result_submit,
    battle_roll,
)
from campaigns.services.cc_campaigns import cc_campaign_create
from campaigns.services.cc_engine import cc_advance, cc_resume, decision_answer
from campaigns.views.cc_battle import tracker_context
from campaigns.views.common import (
    flash_errors,
    flash_form_errors,
    partial_request,
    visible_campaign,
)
from campaigns.views.paging import cursor, more, window
from rules.dice import RollRecord


def _load(request, pk: int, *, cc: bool = True) -> tuple[Campaign, Viewer]:
    campaign, viewer = visible_campaign(request, pk)
    if cc and campaign.template not in TEMPLATES:
        raise Http404
    return campaign, viewer


@login_required
def cc_new(request, template: str):
    if template not in TEMPLATES:
        raise Http404
    tpl = template_for(template)
    form = CCCampaignForm(tpl, request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            campaign = cc_campaign_create(creator=request.user, **form.service_kwargs())
        except ValidationError as exc:
            flash_errors(request, exc)
        else:
            messages.success(
                request,
                _(
                    "Campaign created. Its tables hold only the values the rulebook prints: "
                    "enter the missing ones from your printed tables before the first battle."
                )
                if tpl.needs_tables
                else _("Campaign created. Seat the players, then set up the first battle."),
            )
            return redirect(campaign)
    return render(request, "cc/new.html", {"form": form, "template": tpl})


@login_required
@require_POST
def cc_advance_view(request, pk: int):
    campaign, viewer = _load(request, pk)
    if not viewer.is_participant:
        return HttpResponseForbidden(_("Only the campaign's players and game master may do this."))
    refusal = setup_refusal(campaign)
    if refusal:
        messages.error(request, refusal)
        return redirect(campaign)
    try:
        cc_advance(campaign_id=campaign.pk, actor=request.user)
    except ValidationError as exc:
        flash_errors(request, exc)
    return redirect(campaign)


@login_required
@require_POST
def cc_resume_view(request, pk: int):
    campaign, viewer = _load(request, pk)
    if not viewer.is_participant:
        return HttpResponseForbidden(_("Only the campaign's players and game master may do this."))
    cc_resume(campaign=campaign, actor=request.user)
    messages.info(request, _("Resolution resumed."))
    return redirect(campaign)


@login_required
@require_POST
def decision_answer_view(request, pk: int, decision_pk: int):
    campaign, _viewer = _load(request, pk)
    decision = get_object_or_404(Decision, pk=decision_pk, campaign=campaign)
    form = decision_form(decision, request.POST)
    if form.is_valid():
        try:
            decision_answer(
                decision=decision, actor=request.user, answer=form.cleaned_data["answer"]
            )
        except ValidationError as exc:
            flash_errors(request, exc)
        else:
            messages.success(request, _("Answer recorded."))
    else:
        flash_form_errors(request, form)
    return redirect(campaign)


def _battle(campaign: Campaign, number: int) -> Battle:
    return get_object_or_404(
        Battle.objects.select_related("winner"), campaign=campaign, number=number
    )


def _score(campaign: Campaign, battle: Battle, sides: list, record=None):
    record = record or battle_setup(campaign, battle.number, sides)
    return battle_score(battle, sides, record.vp_axis if record else 0)


def battle_detail(request, pk: int, number: int):
    campaign, viewer = _load(request, pk)
    battle = _battle(campaign, number)
    log = window(log_window, campaign, viewer, battle=battle, cursor=cursor(request))
    if more(request) == "log":
        return render(request, "cc/battle.html#battle-log-rows", {"log": log, "battle": battle})
    if partial_request(request) and request.GET.get("partial") == "log":
        return render(request, "cc/battle.html#battle-log", {"log": log, "battle": battle})
    tpl = template_for(campaign.template)
    sides = list(campaign.sides.all())
    record = battle_setup(campaign, number, sides)
    last_roll = next(
        (
            e.data["roll"]
            for e in log
            if e.kind == LogEntry.Kind.ROLL and e.actor_id == request.user.pk and "roll" in e.data
        ),
        None,
    )
    assistant = tracker_context(request, campaign, viewer, battle, sides, record)
    draft = result_draft(assistant["tracker"], sides) if assistant["tracker"] else {}
    return render(
        request,
        "cc/battle.html",
        {
            **assistant,
            "campaign": campaign,
            "viewer": viewer,
            "battle": battle,
            "record": record,
            "score": _score(campaign, battle, sides, record),
            "roll": last_roll,
            "log": log,
            "event_form": EventForm(
                toward=sides[0].name if sides else "", tracked=assistant["tracker"] is not None
            ),
            "roll_form": RollForm(),
            "result_form": ResultForm(sides, tpl.result_fields, initial=draft),
            "correction_form": CorrectionForm(sides, tpl.result_fields, prefix="fix")
            if viewer.can_manage and battle.result
            else None,
            "sides": sides,
        },
    )


def battle_sheet(request, pk: int, number: int):
    campaign, _viewer = _load(request, pk)
    battle = _battle(campaign, number)
    sides = list(campaign.sides.all())
    return render(
        request,
        "cc/sheet.html",
        {
            "campaign": campaign,
            "battle": battle,
            "record": battle_setup(campaign, number, sides),
            "sheet": True,
        },
    )


def _play_action(request, pk: int, number: int):
    campaign, viewer = _load(request, pk)
    if not viewer.is_participant:
        raise Http404
    return campaign, _battle(campaign, number)


def _play_post(request, pk: int, number: int, form_class, service, invalid: str):
    """A play action (event, roll): validate, call the service, answer with the battle log,
    the score and (for a roll) its result, shown next to the button."""
    campaign, battle = _play_action(request, pk, number)
    form = form_class(request.POST)
    done = None
    if form.is_valid():
        try:
            done = service(battle=battle, actor=request.user, **form.cleaned_data)
        except ValidationError as exc:
            flash_errors(request, exc)
    else:
        # A VP change without its number says so; any other gap gets the form's hint.
        messages.error(request, " ".join(form.errors.get("vp_delta", [])) or invalid)
    roll = done.as_dict() if isinstance(done, RollRecord) else None
    rolling = form_class is RollForm
    if not partial_request(request):  # back to the roll card, which shows the latest roll
        return redirect(battle.get_absolute_url() + ("#roll-h" if rolling else ""))
    viewer = viewer_context(request.user, campaign)
    sides = list(campaign.sides.all())
    return render(
        request,
        "cc/_play_response.html",
        {
            "log": log_window(campaign, viewer, battle=battle),
            "battle": battle,
            "score": _score(campaign, battle, sides),
            "rolling": rolling,
            "roll": roll,
        },
    )


@login_required
@require_POST
@idempotent_form
def battle_event_view(request, pk: int, number: int):
    return _play_post(
        request, pk, number, EventForm, battle_event_record, _("Choose what happened and say how.")
    )


@login_required
@require_POST
def battle_roll_view(request, pk: int, number: int):
    return _play_post(request, pk, number, RollForm, battle_roll, _("Say what the roll is for."))


def _result_post(request, pk: int, number: int, *, correcting: bool):
    """Enter a battle's result, or (organiser, game master) correct it."""
    campaign, battle = _play_action(request, pk, number)
    tpl = template_for(campaign.template)
    sides = list(campaign.sides.all())
    if correcting:
        form = CorrectionForm(sides, tpl.result_fields, request.POST, prefix="fix")
    else:
        form = ResultForm(sides, tpl.result_fields, request.POST)
    if not form.is_valid():
        flash_form_errors(request, form)
        return redirect(battle)
    result = {
        "battle": battle,
        "actor": request.user,
        "winner": form.cleaned_data["winner_side"],
        "details": form.cleaned_data["details"],
    }
    try:
        if correcting:
            battle_result_correct(**result, reason=form.cleaned_data["reason"])
        else:
            battle_result_submit(**result)
    except ValidationError as exc:
        flash_errors(request, exc)
        return redirect(battle)
    messages.success(
        request,
        _("Result corrected; its consequences are applied again.")
        if correcting
        else _("Result recorded; the campaign rules are being applied."),
    )
    return redirect(campaign)


@login_required
@require_POST
def battle_result_view(request, pk: int, number: int):
    return _result_post(request, pk, number, correcting=False)


@login_required
@require_POST
def battle_correct_view(request, pk: int, number: int):
    return _result_post(request, pk, number, correcting=True)


def full_log(request, pk: int):
    """The log this viewer may see, newest first, a window at a time, filtered by kind and
    battle."""
    campaign, viewer = _load(request, pk, cc=False)
    kind = request.GET.get("kind") or None
    kind = kind if kind in LogEntry.Kind.values else None
    battle_no = request.GET.get("battle") or ""
    entries = window(
        log_window,
        campaign,
        viewer,
        kind=kind,
        battle_number=as_id(battle_no),
        cursor=cursor(request),
        size=HISTORY_WINDOW,
    )
    context = {
        "campaign": campaign,
        "log": entries,
        "kind": kind,
        "kinds": LogEntry.Kind,
        "battle_no": battle_no,
        "battles": campaign.battles.order_by("number").values_list("number", flat=True),
        "show_battle": True,
    }
    if more(request) == "log":
        return render(request, "cc/log.html#entry-rows", context)
    template = "cc/log.html#entries" if partial_request(request) else "cc/log.html"
    return render(request, template, context)


def dashboard_context(
    campaign: Campaign, viewer: Viewer, *, battles_cursor: str | None = None
) -> dict:
    dash = window(cc_dashboard, campaign, viewer, battles_cursor=battles_cursor)
    return {
        "dash": dash,
        "decision_forms": [
            (d, can, decision_form(d) if can else None) for d, can in dash.decisions
        ],
    }
