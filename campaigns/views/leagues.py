"""League pages (standings, results, corrections, ratings, balance, CSV), player profiles,
battle and campaign histories, and the campaign JSON export/import."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.exports import campaign_export, campaign_import, results_csv, standings_csv
from campaigns.forms_leagues import (
    CampaignImportForm,
    CorrectionForm,
    FromBattleForm,
    ImportForm,
    LeagueForm,
    LeagueSettingsForm,
    ReasonForm,
    ResultForm,
    bands_text,
)
from campaigns.idempotency import idempotent_form
from campaigns.jsontext import JSONTextError, loads_checked
from campaigns.models import Battle, Campaign, GameSystem, League, Rating, Result
from campaigns.permissions import can_manage_league, can_view_campaign, is_club_member
from campaigns.selectors.history import (
    battles_window,
    player_results,
    public_log_window,
)
from campaigns.selectors.leagues import (
    balance_rows,
    battle_timeline,
    campaign_history,
    league_balance,
    league_get,
    league_ratings,
    league_results_window,
    league_standings,
    player_profile,
    results_to_confirm,
)
from campaigns.services.leagues import (
    CSV_COLUMNS,
    battle_is_finished,
    league_create,
    league_participant_add,
    league_update,
    result_correct,
    result_enter,
    result_from_battle,
    result_restore,
    result_void,
    results_import_csv,
)
from campaigns.views.clubs import _club
from campaigns.views.common import form_errors, partial_request
from campaigns.views.paging import cursor, more, window
from campaigns.views.standings import criteria_of, standings_context

IMPORT_MAX_BYTES = 20_000_000


def _league(pk: int) -> League:
    try:
        return league_get(pk)
    except League.DoesNotExist:
        raise Http404 from None


def _managed(request, pk: int) -> League:
    league = _league(pk)
    if not can_manage_league(request.user, league):
        raise Http404
    return league


@login_required
def league_new(request, slug: str):
    club = _club(slug)
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            league = league_create(club=club, actor=request.user, **form.cleaned_data)
        except ValidationError as exc:
            if getattr(exc, "code", None) == "forbidden":
                raise Http404 from None
            form_errors(form, exc)
        else:
            messages.success(request, _("League created."))
            return redirect(league)
    return render(request, "leagues/new.html", {"club": club, "form": form})


def league_detail(request, pk: int):
    league = _league(pk)
    context = standings_context(request, league)
    if partial_request(request) and request.GET.get("partial") == "standings":
        return render(request, "leagues/detail.html#standings", context)
    results = window(league_results_window, league, cursor=cursor(request))
    context["to_confirm"] = set(
        results_to_confirm(request.user).filter(league=league).values_list("pk", flat=True)
    )
    if more(request) == "results":
        return render(request, "leagues/detail.html#result-rows", {**context, "results": results})
    context.update(
        {
            "results": results,
            "is_member": is_club_member(request.user, league.club),
            "is_participant": request.user.is_authenticated
            and league.participants.filter(user=request.user).exists(),
        }
    )
    return render(request, "leagues/detail.html", context)


@login_required
@require_POST
def league_tiebreaks(request, pk: int):
    """Save the previewed tie-break order; htmx gets the standings back."""
    league = _managed(request, pk)
    try:
        league_update(league=league, actor=request.user, tiebreaks=request.POST.get("tb", ""))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Tie-break order saved."))
    if partial_request(request):
        return render(request, "leagues/detail.html#standings", standings_context(request, league))
    return redirect(league)


@login_required
def league_settings(request, pk: int):
    league = _managed(request, pk)
    initial = {
        "name": league.name,
        "season": league.season,
        "status": league.status,
        "points_win": league.points_win,
        "points_draw": league.points_draw,
        "points_loss": league.points_loss,
        "tiebreaks": league.tiebreaks,
        "apply_cc_handicap": league.apply_cc_handicap,
        "elo_initial": league.elo_initial,
        "elo_k_bands": bands_text(league.elo_k_bands),
        "elo_period": league.elo_period,
        "balance_min_plays": league.balance_min_plays,
    }
    form = LeagueSettingsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            league_update(league=league, actor=request.user, **form.cleaned_data)
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("Settings saved."))
            return redirect(league)
    return render(request, "leagues/settings.html", {"league": league, "form": form})


@login_required
@require_POST
def league_join(request, pk: int):
    """A club member enters the league; an organiser may enrol another member by username."""
    league = _league(pk)
    user = request.user
    username = request.POST.get("username", "").strip()
    if username:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            messages.error(request, _("There is no user with this name."))
            return redirect(league)
    try:
        league_participant_add(
            league=league,
            actor=request.user,
            user=user,
            handicapped=request.POST.get("handicapped") == "on",
        )
    except ValidationError as exc:
        if getattr(exc, "code", None) == "forbidden":
            raise Http404 from None
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("%(user)s takes part.") % {"user": user.get_username()})
    return redirect(league)


@login_required
@idempotent_form
def result_new(request, pk: int):
    league = _managed(request, pk)
    form = ResultForm(
        request.POST or None, initial={"played_on": timezone.localdate()}, league=league
    )
    if request.method == "POST" and form.is_valid():
        try:
            result_enter(league=league, actor=request.user, **form.service_kwargs())
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("Result entered; ratings are being updated."))
            return redirect(league)
    return render(
        request,
        "leagues/result_form.html",
        {"league": league, "form": form, "title": _("Enter a result")},
    )


@login_required
def result_battle(request, pk: int):
    """Record a finished battle of one of the club's campaigns (2 or 4 players)."""
    league = _managed(request, pk)
    battles = [
        b
        for b in Battle.objects.filter(campaign__club=league.club, campaign__system=league.system)
        .exclude(result={})
        .exclude(league_results__league=league)
        .select_related("campaign")
        .order_by("-created_at")[:100]
        if battle_is_finished(b)
    ]
    form = FromBattleForm(request.POST or None, battles=battles)
    if request.method == "POST" and form.is_valid():
        battle = get_object_or_404(Battle, pk=form.cleaned_data["battle"])
        try:
            result_from_battle(
                league=league,
                actor=request.user,
                battle=battle,
                scenario=form.cleaned_data["scenario"],
                round=form.cleaned_data["round"],
            )
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("Battle recorded."))
            return redirect(league)
    return render(request, "leagues/from_battle.html", {"league": league, "form": form})


def _result(league: League, rid: int) -> Result:
    return get_object_or_404(
        Result.objects.prefetch_related("players__user", "trace__actor"), pk=rid, league=league
    )


@login_required
def result_correct_view(request, pk: int, rid: int):
    league = _managed(request, pk)
    result = _result(league, rid)
    form = CorrectionForm(
        request.POST or None, initial=ResultForm.initial_for(result), league=league
    )
    if request.method == "POST" and form.is_valid():
        try:
            result_correct(
                result=result,
                actor=request.user,
                reason=form.cleaned_data["reason"],
                **form.service_kwargs(),
            )
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("Result corrected; the trace keeps the old values."))
            return redirect(league)
    return render(
        request,
        "leagues/result_form.html",
        {
            "league": league,
            "form": form,
            "result": result,
            "void_form": ReasonForm(),
            "title": _("Correct a result"),
        },
    )


@login_required
@require_POST
def result_status(request, pk: int, rid: int, action: str):
    if action not in ("void", "restore"):
        raise Http404
    league = _managed(request, pk)
    result = _result(league, rid)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give a reason."))
        return redirect("result-correct", pk=league.pk, rid=result.pk)
    service = result_void if action == "void" else result_restore
    try:
        service(result=result, actor=request.user, reason=form.cleaned_data["reason"])
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(
            request, _("Result voided.") if action == "void" else _("Result restored.")
        )
    return redirect(league)


@login_required
def results_import(request, pk: int):
    league = _managed(request, pk)
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            results = results_import_csv(league=league, actor=request.user, text=form.csv_text())
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("%(n)s results imported.") % {"n": len(results)})
            return redirect(league)
    return render(
        request, "leagues/import.html", {"league": league, "form": form, "columns": CSV_COLUMNS}
    )


def _csv_response(text: str, name: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def league_results_csv(request, pk: int):
    league = _league(pk)
    return _csv_response(results_csv(league), f"league-{league.pk}-results.csv")


def league_standings_csv(request, pk: int):
    league = _league(pk)
    view = league_standings(league, criteria_of(request, league))
    return _csv_response(standings_csv(view), f"league-{league.pk}-standings.csv")


def league_ratings_view(request, pk: int):
    league = _league(pk)
    return render(
        request,
        "leagues/ratings.html",
        {
            "league": league,
            "elo": league_ratings(league, Rating.Method.ELO),
            "openskill": league_ratings(league, Rating.Method.OPENSKILL),
            "stale": league.ratings_computed_version != league.ratings_version,
        },
    )


def league_balance_view(request, pk: int):
    league = _league(pk)
    return render(
        request,
        "leagues/balance.html",
        {"league": league, "rows": balance_rows(league_balance(league))},
    )


def player_profile_view(request, username: str):
    player = get_object_or_404(get_user_model(), username=username)
    if more(request) == "results":
        results = window(player_results, player, cursor=cursor(request))
        return render(request, "leagues/profile.html#result-rows", {"results": results})
    profile = window(player_profile, player, cursor=cursor(request))
    systems = dict(GameSystem.choices)
    for tally in profile["by_system"]:  # the game's name, not its key
        tally.label = systems.get(tally.label, tally.label)
    return render(request, "leagues/profile.html", {"player": player, "profile": profile})


def _campaign(request, pk: int) -> Campaign:
    campaign = Campaign.objects.select_related("club").filter(pk=pk).first()
    if campaign is None or not can_view_campaign(request.user, campaign):
        raise Http404
    return campaign


def campaign_history_view(request, pk: int):
    campaign = _campaign(request, pk)
    wanted = more(request)
    if wanted == "log":
        log = window(public_log_window, campaign, cursor=cursor(request))
        return render(request, "leagues/campaign_history.html#log-rows", {"log": log})
    if wanted == "battles":
        battles = window(battles_window, campaign, cursor=cursor(request, "battles_before"))
        context = {"campaign": campaign, "battles": battles}
        return render(request, "leagues/campaign_history.html#battle-rows", context)
    history = window(
        campaign_history,
        campaign,
        cursor=cursor(request),
        battles_cursor=cursor(request, "battles_before"),
    )
    return render(request, "leagues/campaign_history.html", {"campaign": campaign, **history})


def battle_history_view(request, pk: int, number: int):
    campaign = _campaign(request, pk)
    battle = get_object_or_404(
        Battle.objects.select_related("campaign", "winner"), campaign=campaign, number=number
    )
    if more(request) == "log":
        entries = window(public_log_window, campaign, battle=battle, cursor=cursor(request))
        return render(request, "leagues/battle_history.html#entry-rows", {"entries": entries})
    timeline = window(battle_timeline, battle, cursor=cursor(request))
    return render(
        request,
        "leagues/battle_history.html",
        {"campaign": campaign, "battle": battle, **timeline},
    )


def campaign_export_view(request, pk: int):
    campaign = _campaign(request, pk)
    response = JsonResponse(campaign_export(campaign), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="campaign-{campaign.pk}.json"'
    return response


@login_required
def campaign_import_view(request):
    """Staff only: importing creates users and clubs named in the file."""
    if not request.user.is_staff:
        raise Http404
    form = CampaignImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            data = loads_checked(
                form.cleaned_data["file"].read(IMPORT_MAX_BYTES + 1),
                max_bytes=IMPORT_MAX_BYTES,
                max_depth=64,
            )
            campaign = campaign_import(data, actor=request.user)
        except JSONTextError as exc:
            form.add_error("file", _("The file is not JSON: %(e)s") % {"e": exc})
        except (ValueError, UnicodeDecodeError):
            form.add_error("file", _("The file is not JSON."))
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("Campaign imported."))
            return redirect(campaign)
    return render(request, "leagues/campaign_import.html", {"form": form})
