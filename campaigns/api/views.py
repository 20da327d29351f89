"""Thin DRF views over the services, selectors and permission predicates."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action, api_view, permission_classes
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from campaigns.api.cc import CCBattleActions, CCCampaignActions, CCTrackerActions
from campaigns.api.filters import LedgerFilterSet
from campaigns.api.pagination import LogPagination
from campaigns.api.schema import REFUSALS
from campaigns.api.serializers import (
    AnswerSerializer,
    BattleSerializer,
    CampaignCreateSerializer,
    CampaignSerializer,
    ClubSerializer,
    DecisionSerializer,
    LogEntrySerializer,
    UserSerializer,
)
from campaigns.ids import as_id
from campaigns.models import Campaign, Club, Decision, LogEntry
from campaigns.permissions import viewer_context, visible_campaigns
from campaigns.selectors import campaign_log, with_sides
from campaigns.services import campaign_create, club_create
from campaigns.services.cc_engine import decision_answer


class CampaignFilter(LedgerFilterSet):
    class Meta:
        model = Campaign
        fields = ["system", "status", "visibility", "club"]


class CampaignViewSet(
    CCCampaignActions,
    CCBattleActions,
    CCTrackerActions,
    mixins.CreateModelMixin,
    viewsets.ReadOnlyModelViewSet,
):
    """Campaigns the caller may see: public ones and those they play or run.

    Combat Commander campaigns add the actions of their pages (campaigns/api/cc/).
    """

    serializer_class = CampaignSerializer
    lookup_value_regex = r"\d+"
    filterset_class = CampaignFilter
    ordering_fields = ["updated_at", "name", "created_at"]

    def get_queryset(self):
        return with_sides(visible_campaigns(self.request.user)).order_by("-updated_at", "-id")

    @extend_schema(request=CampaignCreateSerializer, responses={201: CampaignSerializer})
    def create(self, request, *args, **kwargs):
        data = CampaignCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        campaign = campaign_create(creator=request.user, **data.validated_data)
        return Response(CampaignSerializer(campaign).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        responses=LogEntrySerializer(many=True),
        parameters=[
            OpenApiParameter("kind", str, enum=list(LogEntry.Kind.values)),
            OpenApiParameter("battle", int, description="Only this battle's entries (number)."),
        ],
    )
    @action(detail=True, methods=["get"], pagination_class=LogPagination)
    def log(self, request, pk=None):
        """The campaign log in writing order, a page at a time (follow `next`); another
        side's private entries are never included, and the cursor never reveals them."""
        campaign = self.get_object()
        kind = request.query_params.get("kind")
        entries = campaign_log(
            campaign,
            viewer_context(request.user, campaign),
            kind=kind if kind in LogEntry.Kind.values else None,
        )
        battle = as_id(request.query_params.get("battle") or "")
        if battle is not None:
            entries = entries.filter(battle__number=battle)
        page = self.paginate_queryset(entries)
        return self.get_paginated_response(LogEntrySerializer(page, many=True).data)

    @extend_schema(responses=BattleSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def battles(self, request, pk=None):
        campaign = self.get_object()
        battles = campaign.battles.select_related("winner")
        return Response(BattleSerializer(battles, many=True).data)

    @extend_schema(responses={200: DecisionSerializer(many=True), 404: REFUSALS["404"]})
    @action(detail=True, methods=["get"])
    def decisions(self, request, pk=None):
        """Open and past decisions; a sealed answer stays hidden from the other side."""
        campaign = self.get_object()
        viewer = viewer_context(request.user, campaign)
        rows = campaign.decisions.select_related("chooser", "battle").order_by("-created_at", "-id")
        page = self.paginate_queryset(rows)
        for decision in page:
            decision.campaign = campaign  # option labels read it: no query per row
        data = DecisionSerializer(page, many=True, context={"viewer": viewer}).data
        return self.get_paginated_response(data)

    @extend_schema(request=AnswerSerializer, responses=DecisionSerializer)
    @action(
        detail=True,
        methods=["post"],
        url_path=r"decisions/(?P<decision_pk>\d+)/answer",
        permission_classes=[permissions.IsAuthenticated],
    )
    def answer(self, request, pk=None, decision_pk=None):
        """Answer a decision the rules put to your side (400 with the reason otherwise)."""
        campaign = self.get_object()
        decision = get_object_or_404(Decision, pk=decision_pk, campaign=campaign)
        body = AnswerSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        decision_answer(decision=decision, actor=request.user, answer=body.validated_data["answer"])
        # the rules may have run on within the request: answer with the decision as it is now
        decision = Decision.objects.select_related("chooser", "battle").get(pk=decision.pk)
        viewer = viewer_context(request.user, campaign)
        return Response(DecisionSerializer(decision, context={"viewer": viewer}).data)


class ClubViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    queryset = Club.objects.all()
    serializer_class = ClubSerializer
    lookup_field = "slug"
    lookup_value_regex = r"[-a-zA-Z0-9_]+"  # a slug
    filterset_fields = ["slug"]

    def create(self, request, *args, **kwargs):
        data = ClubSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club = club_create(creator=request.user, **data.validated_data)
        return Response(ClubSerializer(club).data, status=status.HTTP_201_CREATED)


@extend_schema(responses=UserSerializer)
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def me(request):
    return Response(UserSerializer(request.user).data)


@extend_schema(exclude=True)
@api_view(["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"])
@permission_classes([permissions.AllowAny])
def not_found(request, *args, **kwargs):
    """The API's answer to a path it does not serve: 404 in JSON, like a missing object."""
    raise NotFound
