"""Club pages: list and create, the club page, invitations, roles, and the battle search."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.forms import CampaignClubForm
from campaigns.forms_leagues import ClubForm, InviteForm
from campaigns.models import Club, ClubInvite, GameSystem
from campaigns.permissions import club_role, is_club_organiser
from campaigns.selectors.leagues import (
    club_battles,
    club_battles_window,
    club_campaigns,
    club_get,
    leagues_for_club,
)
from campaigns.services import club_create
from campaigns.services.club_admin import (
    club_invite_accept,
    club_invite_create,
    club_invite_revoke,
    club_member_set_role,
)
from campaigns.services.clubs import campaign_club_set
from campaigns.views.common import form_errors, partial_request, visible_campaign
from campaigns.views.paging import cursor, more, window


def _club(slug: str) -> Club:
    try:
        return club_get(slug)
    except Club.DoesNotExist:
        raise Http404 from None


def club_list(request):
    form = ClubForm(request.POST or None)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        if form.is_valid():
            try:
                club = club_create(creator=request.user, **form.cleaned_data)
            except ValidationError as exc:
                form_errors(form, exc)
            else:
                messages.success(request, _("Club created. Invite its members."))
                return redirect("club-detail", slug=club.slug)
    clubs = Club.objects.all()
    mine = set()
    if request.user.is_authenticated:
        mine = set(request.user.club_memberships.values_list("club_id", flat=True))
    return render(request, "clubs/list.html", {"clubs": clubs, "form": form, "mine": mine})


def club_detail(request, slug: str):
    club = _club(slug)
    role = club_role(request.user, club)
    context = {
        "club": club,
        "role": role,
        "is_organiser": role == "organiser",
        "leagues": leagues_for_club(club),
        "campaigns": club_campaigns(club, request.user)[:20],
        "battles": club_battles(club, request.user)[:10],
    }
    if role == "organiser":
        context["invite_form"] = InviteForm()
        context["invites"] = [i for i in club.invites.select_related("invited_user") if i.is_open]
    return render(request, "clubs/detail.html", context)


@login_required
@require_POST
def club_invite(request, slug: str):
    club = _club(slug)
    form = InviteForm(request.POST)
    if form.is_valid():
        try:
            invite = club_invite_create(club=club, actor=request.user, **form.cleaned_data)
        except ValidationError as exc:
            if getattr(exc, "code", None) == "forbidden":
                raise Http404 from None
            for message in exc.messages:
                messages.error(request, message)
        else:
            link = request.build_absolute_uri(reverse("club-join", args=[invite.token]))
            messages.success(
                request, _("Invitation ready. Send this link: %(link)s") % {"link": link}
            )
    else:
        messages.error(request, _("Check the invitation form."))
    return redirect("club-detail", slug=club.slug)


@login_required
@require_POST
def club_invite_withdraw(request, slug: str, invite_pk: int):
    club = _club(slug)
    invite = get_object_or_404(ClubInvite, pk=invite_pk, club=club)
    try:
        club_invite_revoke(invite=invite, actor=request.user)
    except ValidationError as exc:
        if getattr(exc, "code", None) == "forbidden":
            raise Http404 from None
        messages.error(request, " ".join(exc.messages))
    return redirect("club-detail", slug=club.slug)


@login_required
def club_join(request, token: str):
    invite = ClubInvite.objects.select_related("club").filter(token=token).first()
    if invite is None:
        raise Http404
    if request.method == "POST":
        try:
            club_invite_accept(token=token, user=request.user)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(request, _("Welcome to %(club)s.") % {"club": invite.club.name})
            return redirect("club-detail", slug=invite.club.slug)
    return render(request, "clubs/join.html", {"invite": invite})


@login_required
@require_POST
def club_member_role(request, slug: str, user_pk: int):
    club = _club(slug)
    member = get_object_or_404(get_user_model(), pk=user_pk)
    try:
        club_member_set_role(
            club=club, actor=request.user, user=member, role=request.POST.get("role", "")
        )
    except ValidationError as exc:
        if getattr(exc, "code", None) == "forbidden":
            raise Http404 from None
        messages.error(request, " ".join(exc.messages))
    return redirect("club-detail", slug=club.slug)


def club_battle_search(request, slug: str):
    """The club's battles, filtered and searched; htmx swaps only the list."""
    club = _club(slug)
    params = {
        "q": request.GET.get("q", "").strip()[:80],
        "system": request.GET.get("system", ""),
        "finished": request.GET.get("finished", ""),
        "player": request.GET.get("player", "").strip()[:150],
    }
    if params["system"] not in GameSystem.values:
        params["system"] = ""
    if params["finished"] not in ("yes", "no"):
        params["finished"] = ""
    battles = window(club_battles_window, club, request.user, cursor=cursor(request), **params)
    context = {"club": club, "battles": battles, "params": params, "systems": GameSystem.choices}
    if more(request) == "battles":
        return render(request, "clubs/_battle_rows.html", context)
    template = (
        "clubs/battles.html#battle-list" if partial_request(request) else "clubs/battles.html"
    )
    return render(request, template, context)


@login_required
def campaign_club_view(request, pk: int):
    """Move a campaign into one of the organiser's clubs, or out of its club."""
    campaign, viewer = visible_campaign(request, pk)
    in_club_organiser = campaign.club is not None and is_club_organiser(request.user, campaign.club)
    if not (viewer.can_manage or in_club_organiser):
        raise Http404
    form = CampaignClubForm(request.POST or None, user=request.user, campaign=campaign)
    if request.method == "POST" and form.is_valid():
        try:
            campaign = campaign_club_set(
                campaign=campaign, actor=request.user, club=form.cleaned_data["club"]
            )
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            if campaign.club is None:
                messages.success(request, _("The campaign belongs to no club now."))
            else:
                messages.success(
                    request,
                    _("The campaign now belongs to %(club)s.") % {"club": campaign.club.name},
                )
            return redirect(campaign)
    return render(
        request,
        "clubs/campaign_club.html",
        {"campaign": campaign, "form": form, "can_move_in": viewer.can_manage},
    )
