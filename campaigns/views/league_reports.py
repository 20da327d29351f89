"""League results players report and confirm, the organiser's settling of disputes, and the
recording of a finished skirmish or TCS operation into a league ("Record to league")."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.forms_leagues import ReasonForm, RecordGameForm, ResultForm, SettleForm
from campaigns.models import Campaign, Club, ClubMembership, League, Result, SkirmishBattle
from campaigns.models.tcs import TCS_TEMPLATE
from campaigns.permissions import (
    can_manage_league,
    can_view_campaign,
    can_view_skirmish,
    is_club_organiser,
)
from campaigns.selectors.leagues import (
    league_get,
    leagues_to_record,
    recordable_operations,
    recordable_skirmishes,
)
from campaigns.services.leagues import (
    operation_result_data,
    result_confirm,
    result_dispute,
    result_from_operation,
    result_from_skirmish,
    result_report,
    result_settle,
    skirmish_result_data,
)
from campaigns.views.common import form_errors


def _league(pk: int) -> League:
    try:
        return league_get(pk)
    except League.DoesNotExist:
        raise Http404 from None


@login_required
def result_report_view(request, pk: int):
    """A club member reports a game he played; it counts once an opponent confirms."""
    league = _league(pk)
    form = ResultForm(
        request.POST or None,
        initial={"played_on": timezone.localdate(), "team_a": [request.user.username]},
        league=league,
    )
    if request.method == "POST" and form.is_valid():
        try:
            result_report(league=league, actor=request.user, **form.service_kwargs())
        except ValidationError as exc:
            if getattr(exc, "code", None) == "forbidden":
                raise Http404 from None
            form_errors(form, exc)
        else:
            messages.success(
                request, _("Result reported. It counts once your opponent confirms it.")
            )
            return redirect(league)
    return render(
        request,
        "leagues/result_form.html",
        {"league": league, "form": form, "title": _("Report a result you played")},
    )


def _flash_errors(request, exc: ValidationError) -> None:
    if getattr(exc, "code", None) == "forbidden":
        raise Http404 from None
    for message in exc.messages:
        messages.error(request, message)


@login_required
@require_POST
def result_step(request, pk: int, rid: int, step: str):
    """Confirm or dispute a result reported by the opponent; settle it as organiser."""
    league = _league(pk)
    result = get_object_or_404(Result.objects.prefetch_related("players"), pk=rid, league=league)
    try:
        if step == "confirm":
            result_confirm(result=result, actor=request.user)
            messages.success(request, _("Result confirmed: it counts now."))
        elif step == "dispute":
            form = ReasonForm(request.POST)
            if not form.is_valid():
                messages.error(request, _("Say what is wrong with the result."))
                return redirect(league)
            result_dispute(result=result, actor=request.user, reason=form.cleaned_data["reason"])
            messages.success(request, _("Result disputed: the organiser will settle it."))
        elif step == "settle":
            if not can_manage_league(request.user, league):
                raise Http404
            form = SettleForm(request.POST)
            if not form.is_valid():
                messages.error(request, _("Choose a ruling and give a reason."))
                return redirect(league)
            ruling = form.cleaned_data["ruling"]
            result_settle(
                result=result,
                actor=request.user,
                reason=form.cleaned_data["reason"],
                counts=ruling != "void",
                outcome=None if ruling == "void" else ruling,
            )
            messages.success(request, _("Result settled."))
        else:
            raise Http404
    except ValidationError as exc:
        _flash_errors(request, exc)
    return redirect(league)


def _organises_club_of(user, players) -> bool:
    """Whether the user organises a club every one of these players belongs to."""
    clubs = Club.objects.filter(
        memberships__user=user, memberships__role=ClubMembership.Role.ORGANISER
    )
    for player in players:
        clubs = clubs.filter(memberships__user=player)
    return bool(players) and clubs.exists()


def _game(request, kind: str, pk: int):
    """The finished game to record, if the user may see it or organises its players' club."""
    user = request.user
    if kind == "skirmish":
        game = get_object_or_404(
            SkirmishBattle.objects.prefetch_related("sides__player"),
            pk=pk,
            status=SkirmishBattle.Status.FINISHED,
        )
        players = [s.player for s in game.sides.all()]
        if not (can_view_skirmish(user, game) or _organises_club_of(user, players)):
            raise Http404
        return game, game.system, skirmish_result_data(game)
    if kind == "operation":
        game = get_object_or_404(
            Campaign.objects.select_related("club").prefetch_related("sides__seats__user"),
            pk=pk,
            template=TCS_TEMPLATE,
            status=Campaign.Status.FINISHED,
        )
        in_club = game.club is not None and is_club_organiser(user, game.club)
        if not (can_view_campaign(user, game) or in_club):
            raise Http404
        return game, game.system, operation_result_data(game, "draw")
    raise Http404


@login_required
def record_game(request, kind: str, pk: int):
    """Record a finished skirmish or TCS operation in a league of its game, prefilled from
    the game; an organiser's record counts at once, a player's waits for the opponent."""
    game, system, preview = _game(request, kind, pk)
    leagues = leagues_to_record(request.user, system)
    initial = {"league": request.GET.get("league")}
    form = RecordGameForm(
        request.POST or None, leagues=leagues, with_outcome=kind == "operation", initial=initial
    )
    if request.method == "POST" and form.is_valid():
        league = form.leagues[form.cleaned_data["league"]]
        common = {
            "league": league,
            "actor": request.user,
            "scenario": form.cleaned_data["scenario"],
            "round": form.cleaned_data["round"],
        }
        try:
            if kind == "skirmish":
                result = result_from_skirmish(skirmish=game, **common)
            else:
                result = result_from_operation(
                    operation=game, outcome=form.cleaned_data["outcome"], **common
                )
        except ValidationError as exc:
            if getattr(exc, "code", None) == "forbidden":
                form.add_error("league", exc.messages)
            else:
                form_errors(form, exc)
        else:
            if result.status == Result.Status.REPORTED:
                messages.success(
                    request, _("Result reported. It counts once your opponent confirms it.")
                )
            else:
                messages.success(request, _("Recorded in %(league)s.") % {"league": league})
            return redirect(league)
    return render(
        request,
        "leagues/record_game.html",
        {"game": game, "kind": kind, "preview": preview, "form": form, "leagues": leagues},
    )


@login_required
def league_games(request, pk: int):
    """The league's side of "Record to league": finished skirmishes of its members, or
    finished operations of its club, not yet in the league."""
    league = _league(pk)
    if not can_manage_league(request.user, league):
        raise Http404
    context = {
        "league": league,
        "skirmishes": recordable_skirmishes(league),
        "operations": recordable_operations(league),
    }
    return render(request, "leagues/games.html", context)
