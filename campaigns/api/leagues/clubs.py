"""Club invitations and members, and the club a campaign belongs to."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated
from rest_framework.response import Response

from campaigns.api.leagues.common import run
from campaigns.api.leagues.serializers import (
    CampaignClubSerializer,
    InviteSerializer,
    MembershipSerializer,
    RoleSerializer,
    TokenSerializer,
)
from campaigns.models import (
    ClubInvite,
    ClubMembership,
)
from campaigns.permissions import visible_campaigns
from campaigns.services.club_admin import (
    club_invite_accept,
    club_invite_create,
    club_invite_revoke,
    club_member_set_role,
)
from campaigns.services.clubs import campaign_club_set


class ClubInviteViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Invitations of the clubs the caller organises; `accept` joins with a token."""

    serializer_class = InviteSerializer
    permission_classes = [permissions.IsAuthenticated]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return ClubInvite.objects.none()
        clubs = ClubMembership.objects.filter(
            user=self.request.user, role=ClubMembership.Role.ORGANISER
        ).values("club_id")
        return ClubInvite.objects.filter(club_id__in=clubs).select_related("club", "invited_user")

    def create(self, request, *args, **kwargs):
        data = InviteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        invite = run(
            club_invite_create,
            club=v["club"],
            actor=request.user,
            username=v.get("username", ""),
            role=v.get("role", ClubMembership.Role.MEMBER),
        )
        return Response(InviteSerializer(invite).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=TokenSerializer, responses=MembershipSerializer)
    @action(detail=False, methods=["post"])
    def accept(self, request):
        data = TokenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        membership = run(club_invite_accept, token=data.validated_data["token"], user=request.user)
        return Response(MembershipSerializer(membership).data)

    @extend_schema(request=None, responses=InviteSerializer)
    @action(detail=True, methods=["post"])
    def withdraw(self, request, pk=None):
        """Withdraw an open invitation (the club page's "withdraw" button); a used one is a
        400 that says so. Only the club's organisers see its invitations (404 otherwise)."""
        invite = self.get_object()
        invite = run(club_invite_revoke, invite=invite, actor=request.user)
        return Response(InviteSerializer(invite).data)


class ClubMemberViewSet(mixins.UpdateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Club members (filter with ?club=<slug>); an organiser changes a member's role."""

    serializer_class = MembershipSerializer
    http_method_names = ["get", "patch", "head", "options"]

    def get_queryset(self):
        qs = ClubMembership.objects.select_related("club", "user").order_by(
            "club", "user__username"
        )
        club = self.request.query_params.get("club")
        return qs.filter(club__slug=club) if club else qs

    @extend_schema(request=RoleSerializer, responses=MembershipSerializer)
    def partial_update(self, request, *args, **kwargs):
        membership = self.get_object()
        data = RoleSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        role = data.validated_data.get("role")
        if role is None:  # nothing to change
            return Response(MembershipSerializer(membership).data)
        membership = run(
            club_member_set_role,
            club=membership.club,
            actor=request.user,
            user=membership.user,
            role=role,
        )
        return Response(MembershipSerializer(membership).data)


class CampaignClubViewSet(viewsets.GenericViewSet):
    """The club a campaign belongs to: read it, or move the campaign into one of your clubs
    or out of its club (``PUT {"club": "<slug>"}`` or ``{"club": null}``); logged."""

    serializer_class = CampaignClubSerializer
    lookup_value_regex = r"\d+"

    def get_queryset(self):
        return visible_campaigns(self.request.user).select_related("club")

    def retrieve(self, request, pk=None):
        campaign = self.get_object()
        return Response({"club": campaign.club.slug if campaign.club else None})

    @extend_schema(request=CampaignClubSerializer, responses=CampaignClubSerializer)
    def update(self, request, pk=None):
        if not request.user.is_authenticated:
            raise NotAuthenticated
        campaign = self.get_object()
        data = CampaignClubSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        campaign = run(
            campaign_club_set,
            campaign=campaign,
            actor=request.user,
            club=data.validated_data["club"],
        )
        return Response({"club": campaign.club.slug if campaign.club else None})
