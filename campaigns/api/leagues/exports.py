"""Campaign JSON export and import (the /history/ pages)."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status, viewsets
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from campaigns.exports import campaign_export, campaign_import
from campaigns.models import (
    Campaign,
)
from campaigns.permissions import can_view_campaign


class CampaignExportViewSet(viewsets.GenericViewSet):
    """A campaign as JSON (no private data); importing one needs a staff account."""

    queryset = Campaign.objects.all()
    lookup_value_regex = r"\d+"

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def retrieve(self, request, pk=None):
        campaign = Campaign.objects.filter(pk=pk).first()
        if campaign is None or not can_view_campaign(request.user, campaign):
            raise Http404
        return Response(campaign_export(campaign))

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT})
    def create(self, request):
        if not (request.user.is_authenticated and request.user.is_staff):
            raise PermissionDenied(_("Importing a campaign needs a staff account."))
        campaign = campaign_import(request.data, actor=request.user)
        return Response({"id": campaign.pk}, status=status.HTTP_201_CREATED)
