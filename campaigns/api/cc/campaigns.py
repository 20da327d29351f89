"""Combat Commander campaigns in the API: templates, creation, seats, tables, the dashboard
and its buttons (advance, resume). Each action calls the service its page calls, after the
same permission predicate (campaigns/views/cc.py, campaigns/views/campaigns.py)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from campaigns.api.errors import run
from campaigns.api.schema import REFUSALS
from campaigns.api.serializers import CampaignSerializer
from campaigns.cc.engines import TEMPLATES
from campaigns.permissions import viewer_context
from campaigns.selectors import campaign_with_sides
from campaigns.services import side_invite, side_join
from campaigns.services.cc_campaigns import cc_campaign_create, cc_tables_update
from campaigns.services.cc_engine import cc_advance, cc_resume

from .common import (
    cc_only,
    dashboard_data,
    reload,
    require_manager,
    require_participant,
    tables_data,
    template_data,
)
from .serializers import (
    CCCampaignCreateSerializer,
    CCCampaignSerializer,
    CCTemplateSerializer,
    DashboardSerializer,
    JoinRequestSerializer,
    SeatRequestSerializer,
    TablesRequestSerializer,
    TablesSerializer,
)

CC = ["combat commander"]
NOT_FOUND = REFUSALS["404"]


class CCTemplateViewSet(viewsets.ViewSet):
    """The Combat Commander campaign templates and what the new-campaign page offers."""

    permission_classes = [permissions.AllowAny]
    lookup_field = "slug"
    lookup_value_regex = r"[a-z0-9_-]+"

    @extend_schema(tags=CC, responses=CCTemplateSerializer(many=True))
    def list(self, request):
        rows = [template_data(tpl) for tpl in TEMPLATES.values()]
        return Response(CCTemplateSerializer(rows, many=True).data)

    @extend_schema(tags=CC, responses={200: CCTemplateSerializer, 404: NOT_FOUND})
    def retrieve(self, request, slug=None):
        if slug not in TEMPLATES:
            raise NotFound(
                _("No Combat Commander campaign template is called “%(slug)s”.") % {"slug": slug}
            )
        return Response(CCTemplateSerializer(template_data(TEMPLATES[slug])).data)


class CCCampaignActions:
    """Actions of the campaign viewset (campaigns/api/views.py) for CC campaigns."""

    def _cc(self, request):
        campaign = self.get_object()
        tpl = cc_only(campaign)
        return campaign, tpl, viewer_context(request.user, campaign)

    def _dashboard(self, request, campaign, code=status.HTTP_200_OK, viewer=None) -> Response:
        """The dashboard; without `viewer` the campaign is read again (a service changed it)."""
        if viewer is None:
            campaign, viewer = reload(campaign, request.user)
        data = dashboard_data(campaign, viewer)
        return Response(DashboardSerializer(data, context={"viewer": viewer}).data, status=code)

    @extend_schema(
        tags=CC,
        request=CCCampaignCreateSerializer,
        responses={201: CCCampaignSerializer},
    )
    @action(detail=False, methods=["post"], url_path="cc")
    def create_cc(self, request):
        """The new Combat Commander campaign page (cc-new): a campaign from a template."""
        body = CCCampaignCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        campaign = cc_campaign_create(creator=request.user, **body.service_kwargs())
        data = CCCampaignSerializer(campaign_with_sides(campaign.pk)).data
        return Response(data, status=status.HTTP_201_CREATED)

    @extend_schema(
        tags=CC,
        methods=["GET"],
        responses={200: TablesSerializer, 404: NOT_FOUND},
        summary="The campaign tables and, in words, each value still missing",
    )
    @extend_schema(
        tags=CC,
        methods=["PUT", "PATCH"],
        request=TablesRequestSerializer,
        responses={200: TablesSerializer},
        summary="Save the campaign tables (organiser or game master)",
    )
    @action(detail=True, methods=["get", "put", "patch"])
    def tables(self, request, pk=None):
        """The campaign's user tables (cc-tables).

        PUT and PATCH (organiser or game master) check every row: a 400 lists every problem
        with its row and field, and nothing is saved unless all are right.
        """
        campaign, tpl, viewer = self._cc(request)
        if not tpl.needs_tables:
            raise NotFound(_("This campaign has no user tables."))
        if request.method != "GET":
            require_manager(viewer, _("Only the campaign's organiser may edit its tables."))
            body = TablesRequestSerializer(data=request.data, partial=request.method == "PATCH")
            body.is_valid(raise_exception=True)
            tables = body.validated_data.get("tables")
            if request.method == "PATCH" and tables is not None:
                tables = {**campaign.tables, **tables}
            if tables is not None:  # a PATCH naming no table changes nothing
                campaign = cc_tables_update(campaign=campaign, actor=request.user, data=tables)
        return Response(TablesSerializer(tables_data(campaign)).data)

    @extend_schema(
        tags=CC,
        request=SeatRequestSerializer,
        responses={200: CampaignSerializer},
    )
    @action(detail=True, methods=["post"])
    def seats(self, request, pk=None):
        """The organiser seats a player on a side (side-invite); any campaign."""
        campaign = self.get_object()
        viewer = viewer_context(request.user, campaign)
        require_manager(viewer, _("Only the campaign's organiser or game master may invite."))
        body = SeatRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        side = _side(campaign, body.validated_data["side"])
        side_invite(
            campaign=campaign,
            actor=request.user,
            username=body.validated_data["username"],
            side=side,
        )
        return Response(CampaignSerializer(campaign_with_sides(campaign.pk)).data)

    @extend_schema(
        tags=CC,
        request=JoinRequestSerializer,
        responses={200: CampaignSerializer},
    )
    @action(detail=True, methods=["post"])
    def join(self, request, pk=None):
        """Take the empty seat of a side (the “Play …” button); any campaign."""
        campaign = self.get_object()
        body = JoinRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        side = _side(campaign, body.validated_data["side"])
        side_join(user=request.user, side=side, require_empty=True)
        return Response(CampaignSerializer(campaign_with_sides(campaign.pk)).data)

    @extend_schema(
        tags=CC,
        responses={200: DashboardSerializer, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["get"])
    def dashboard(self, request, pk=None):
        """What the campaign page's dashboard shows you."""
        campaign, _tpl, viewer = self._cc(request)
        return self._dashboard(request, campaign, viewer=viewer)

    @extend_schema(
        tags=CC,
        request=None,
        responses={200: DashboardSerializer},
    )
    @action(detail=True, methods=["post"])
    def advance(self, request, pk=None):
        """“Set up battle N” (cc-advance): run the campaign's procedure as far as it can go; a 400 says why the rules stopped (for example a missing table value)."""
        campaign, _tpl, viewer = self._cc(request)
        require_participant(viewer)
        run(cc_advance, campaign_id=campaign.pk, actor=request.user)
        return self._dashboard(request, campaign)

    @extend_schema(
        tags=CC,
        request=None,
        responses={202: DashboardSerializer},
    )
    @action(detail=True, methods=["post"])
    def resume(self, request, pk=None):
        """“Resume resolution” (cc-resume): the site runs the campaign's procedure again in the background; the dashboard is as it was when the request was accepted."""
        campaign, _tpl, viewer = self._cc(request)
        require_participant(viewer)
        run(cc_resume, campaign=campaign, actor=request.user)
        return self._dashboard(request, campaign, status.HTTP_202_ACCEPTED)


def _side(campaign, side_id: int):
    side = next((s for s in campaign.sides.all() if s.pk == side_id), None)
    if side is None:
        raise NotFound(_("Choose one of this campaign's sides."))
    return side
