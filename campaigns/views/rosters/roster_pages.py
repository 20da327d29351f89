"""Roster pages: the list, the live builder, settings, house rules, history and archive."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.i18n import say
from campaigns.idempotency import idempotent_form
from campaigns.ids import as_id
from campaigns.models import Roster, RosterChange
from campaigns.permissions import can_edit_roster, can_view_roster
from campaigns.rosters import forms as rf
from campaigns.rosters.card import card
from campaigns.rosters.engine import M1936, PARABELLUM, pb_house_rules, report
from campaigns.selectors.rosters import (
    battles_for,
    roster_battles,
    roster_detail,
    roster_history,
    rosters_for,
)
from campaigns.services import rosters as svc
from campaigns.views.common import flash_errors, form_errors, partial_request

HISTORY_ON_PAGE = 10


def _roster(request, pk: int) -> Roster:
    try:
        roster = roster_detail(pk)
    except Roster.DoesNotExist:
        raise Http404 from None
    if not can_view_roster(request.user, roster):
        raise Http404
    return roster


def _editable_roster(request, pk: int) -> Roster:
    roster = _roster(request, pk)
    if not can_edit_roster(request.user, roster):
        raise Http404
    return roster


@login_required
def roster_list(request):
    return render(
        request,
        "rosters/list.html",
        {
            "rosters": rosters_for(request.user),
            "archived": rosters_for(request.user, archived=True),
            "battles": battles_for(request.user)[:20],
        },
    )


@login_required
def roster_new(request):
    form = rf.RosterCreateForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            roster = svc.roster_create(
                owner=request.user,
                system=data["system"],
                name=data["name"],
                campaign=data["campaign"],
                squad_type=data["squad_type"],
                faction=data["faction"],
                role=data["role"],
                quality=data["quality"],
                size=data["size"],
                defender_points=data["defender_points"],
            )
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("Roster created. Build it below; every edit is checked."))
            return redirect(roster)
    return render(request, "rosters/new.html", {"form": form}, status=400 if form.errors else 200)


def _builder_context(request, roster: Roster, *, error: str = "", selected: int | None = None):
    if selected is None and as_id(request.GET.get("entry")):
        selected = min(as_id(request.GET["entry"]), 10_000) - 1
    rep = report(roster.system, roster.data, roster.house_rules, selected)
    return {
        "roster": roster,
        "report": rep,
        "can_edit": can_edit_roster(request.user, roster) and roster.archived_at is None,
        "builder_error": error,
        "selected": selected,
    }


def roster_detail_view(request, pk: int):
    roster = _roster(request, pk)
    context = _builder_context(request, roster)
    if partial_request(request):
        return render(request, "rosters/detail.html#builder", context)
    hr_form = None
    if context["can_edit"]:
        if roster.system == PARABELLUM:
            hr_form = rf.PBHouseRulesForm(initial=pb_house_rules(roster.house_rules).to_dict())
        else:
            hr_form = rf.M36HouseRulesForm(initial=rf.M36HouseRulesForm.initial_for(roster))
    context.update(
        {
            "history": roster_history(roster)[:HISTORY_ON_PAGE],
            "battles": roster_battles(roster)[:20],
            "hr_form": hr_form,
        }
    )
    return render(request, "rosters/detail.html", context)


@login_required
@require_POST
@idempotent_form
def roster_edit_view(request, pk: int):
    """One builder edit; htmx gets the builder partial back, with violations and points left."""
    roster = _editable_roster(request, pk)
    form = (rf.PBEditForm if roster.system == PARABELLUM else rf.M36EditForm)(request.POST)
    error = ""
    selected = None
    if form.is_valid():
        edit = dict(form.cleaned_data)
        if roster.system == M1936 and edit.get("entry"):
            selected = edit["entry"] - 1
        try:
            roster = svc.roster_edit(roster=roster, actor=request.user, edit=edit)
        except ValidationError as exc:
            error = " ".join(exc.messages)
    else:
        error = " ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items())
    if roster.system == M1936 and form.is_valid() and form.cleaned_data["op"] == "remove_unit":
        selected = None
    if partial_request(request):
        context = _builder_context(request, roster, error=error, selected=selected)
        # the History panel sits outside the builder: refreshed out of band with it
        context.update(oob_history=True, history=roster_history(roster)[:HISTORY_ON_PAGE])
        return render(request, "rosters/detail.html#builder", context, status=400 if error else 200)
    if error:
        messages.error(request, error)
    return redirect(roster)


@login_required
def roster_settings(request, pk: int):
    roster = _editable_roster(request, pk)
    form = rf.RosterSettingsForm(
        request.POST or None,
        roster=roster,
        initial={"name": roster.name, "campaign": roster.campaign},
    )
    if request.method == "POST" and form.is_valid():
        try:
            svc.roster_update(roster=roster, actor=request.user, **form.cleaned_data)
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("Saved."))
            return redirect(roster)
    return render(
        request,
        "rosters/settings.html",
        {"roster": roster, "form": form},
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def roster_house_rules(request, pk: int):
    roster = _editable_roster(request, pk)
    cls = rf.PBHouseRulesForm if roster.system == PARABELLUM else rf.M36HouseRulesForm
    form = cls(request.POST)
    if form.is_valid():
        try:
            svc.roster_house_rules_set(roster=roster, actor=request.user, options=form.cleaned_data)
        except ValidationError as exc:
            flash_errors(request, exc)
        else:
            messages.success(request, _("House rules saved."))
    else:
        for field, errors in form.errors.items():
            for e in errors:
                messages.error(request, f"{form.fields[field].label}: {e}")
    return redirect(roster)


def roster_print_view(request, pk: int):
    """A printable roster card: each soldier or unit with its values, for the table."""
    roster = _roster(request, pk)
    return render(
        request,
        "rosters/print.html",
        {"roster": roster, "card": card(roster.system, roster.data, roster.house_rules)},
    )


def roster_history_view(request, pk: int):
    roster = _roster(request, pk)
    page = Paginator(roster_history(roster), 50).get_page(request.GET.get("page"))
    return render(
        request,
        "rosters/history.html",
        {"roster": roster, "page": page, "can_edit": can_edit_roster(request.user, roster)},
    )


@login_required
def roster_revert_view(request, pk: int, seq: int):
    roster = _editable_roster(request, pk)
    change = get_object_or_404(RosterChange, roster=roster, seq=seq)
    if request.method == "POST":
        try:
            svc.roster_revert(change=change, actor=request.user)
        except ValidationError as exc:
            flash_errors(request, exc)
        else:
            messages.success(request, _("Undone; the history keeps both entries."))
        return redirect(roster)
    return render(
        request,
        "rosters/confirm.html",
        {
            "roster": roster,
            "title": _("Undo change #%(n)s?") % {"n": change.seq},
            "text": _(
                "The roster goes back to how it was before “%(s)s”. Later changes to the same soldiers or units are undone too; the history keeps every entry."
            )
            % {"s": say(svc.change_message(change))},
            "button": _("Undo the change"),
        },
    )


@login_required
def roster_archive_view(request, pk: int):
    roster = _editable_roster(request, pk)
    archived = roster.archived_at is None
    if request.method == "POST":
        try:
            svc.roster_archive(roster=roster, actor=request.user, archived=archived)
        except ValidationError as exc:
            flash_errors(request, exc)
        return redirect("roster-list" if archived else roster.get_absolute_url())
    return render(
        request,
        "rosters/confirm.html",
        {
            "roster": roster,
            "title": _("Archive “%(n)s”?") % {"n": roster.name}
            if archived
            else _("Restore “%(n)s”?") % {"n": roster.name},
            "text": _(
                "Archived rosters cannot be edited or fielded; their history and battles stay, and you can restore them."
            )
            if archived
            else _("The roster can be edited and fielded again."),
            "button": _("Archive") if archived else _("Restore"),
        },
    )
