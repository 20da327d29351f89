"""Thin DRF views over the services, selectors and permission predicates."""

from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action, api_view, permission_classes
from rest_framework.response import Response

from campaigns.api.serializers import (
    CampaignCreateSerializer,
    CampaignSerializer,
    ClubSerializer,
    LogEntrySerializer,
    UserSerializer,
)
from campaigns.models import Campaign, Club, LogEntry
from campaigns.permissions import viewer_context, visible_campaigns
from campaigns.selectors import campaign_log, with_sides
from campaigns.services import campaign_create, club_create


class CampaignFilter(filters.FilterSet):
    class Meta:
        model = Campaign
        fields = ["system", "status", "visibility", "club"]


class CampaignViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Campaigns the caller may see: public ones and those they play or run."""

    serializer_class = CampaignSerializer
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

    @extend_schema(responses=LogEntrySerializer(many=True))
    @action(detail=True, methods=["get"])
    def log(self, request, pk=None):
        """The campaign log; another side's private entries are never included."""
        campaign = self.get_object()
        kind = request.query_params.get("kind")
        entries = campaign_log(
            campaign,
            viewer_context(request.user, campaign),
            kind=kind if kind in LogEntry.Kind.values else None,
        )
        page = self.paginate_queryset(entries)
        return self.get_paginated_response(LogEntrySerializer(page, many=True).data)


class ClubViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    queryset = Club.objects.all()
    serializer_class = ClubSerializer
    lookup_field = "slug"
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
