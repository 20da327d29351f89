"""League results: enter, from a battle, a skirmish or an operation, CSV import, correct,
void, restore, trace; a player's report, the opponent's confirmation or dispute, and the
organiser's settling."""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from campaigns.api.errors import codes, run
from campaigns.api.leagues.serializers import (
    CorrectionInputSerializer,
    FromBattleSerializer,
    FromOperationSerializer,
    FromSkirmishSerializer,
    ImportSerializer,
    ReasonSerializer,
    ResultInputSerializer,
    ResultSerializer,
    SettleSerializer,
    TraceEntrySerializer,
)
from campaigns.api.pagination import ResultPagination
from campaigns.idempotency import IDEMPOTENCY_PARAMETER, IDEMPOTENCY_RESPONSES, idempotent_api
from campaigns.models import (
    Result,
)
from campaigns.permissions import can_manage_league, can_view_campaign, can_view_skirmish
from campaigns.services.leagues import (
    result_confirm,
    result_correct,
    result_dispute,
    result_enter,
    result_from_battle,
    result_from_operation,
    result_from_skirmish,
    result_report,
    result_restore,
    result_settle,
    result_void,
    results_import_csv,
)


class ResultViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """League results (filter ?league=<id>&status=active|void), latest first, a page at a
    time (follow `next`); organisers write."""

    serializer_class = ResultSerializer
    pagination_class = ResultPagination
    # The `trace` action is a method of the viewset, so DRF would count the HTTP method TRACE
    # as served (it advertised it in `Allow`); TRACE is never served (campaigns/middleware.py).
    http_method_names = [m for m in viewsets.ReadOnlyModelViewSet.http_method_names if m != "trace"]
    filterset_fields = ["league", "status", "outcome"]

    def get_queryset(self):
        return (
            Result.objects.select_related("battle")
            .prefetch_related("players__user")
            .order_by("-played_on", "-id")
        )

    @extend_schema(
        request=ResultInputSerializer,
        responses={201: ResultSerializer, **IDEMPOTENCY_RESPONSES},
        parameters=[IDEMPOTENCY_PARAMETER],
    )
    @idempotent_api
    def create(self, request, *args, **kwargs):
        data = ResultInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        result = run(result_enter, league=v.pop("league"), actor=request.user, **v)
        return Response(ResultSerializer(self.get_queryset().get(pk=result.pk)).data, status=201)

    @extend_schema(request=FromBattleSerializer, responses={201: ResultSerializer})
    @action(detail=False, methods=["post"], url_path="from-battle")
    def from_battle(self, request):
        data = FromBattleSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        campaign = v["battle"].campaign
        if campaign.club_id != v["league"].club_id and not can_view_campaign(
            request.user, campaign
        ):
            raise serializers.ValidationError({"battle": [_("No such battle.")]})
        result = run(result_from_battle, actor=request.user, **v)
        return Response(ResultSerializer(self.get_queryset().get(pk=result.pk)).data, status=201)

    @extend_schema(request=FromSkirmishSerializer, responses={201: ResultSerializer})
    @action(detail=False, methods=["post"], url_path="from-skirmish")
    def from_skirmish(self, request):
        """Record a finished Parabellum or 1936 skirmish (once per league): an organiser's
        record counts at once, a player's waits for the opponent's confirmation."""
        data = FromSkirmishSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        if not can_view_skirmish(request.user, v["skirmish"]) and not can_manage_league(
            request.user, v["league"]
        ):
            raise serializers.ValidationError({"skirmish": [_("No such skirmish.")]})
        result = run(result_from_skirmish, actor=request.user, **v)
        return Response(self._out(result), status=201)

    @extend_schema(request=FromOperationSerializer, responses={201: ResultSerializer})
    @action(detail=False, methods=["post"], url_path="from-operation")
    def from_operation(self, request):
        """Record a finished TCS operation with its outcome (once per league)."""
        data = FromOperationSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        if not can_view_campaign(request.user, v["operation"]):
            raise serializers.ValidationError({"operation": [_("No such operation.")]})
        result = run(result_from_operation, actor=request.user, **v)
        return Response(self._out(result), status=201)

    @extend_schema(request=ResultInputSerializer, responses={201: ResultSerializer})
    @action(detail=False, methods=["post"])
    def report(self, request):
        """A club member reports a game he played; it counts once an opponent confirms."""
        data = ResultInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        result = run(result_report, league=v.pop("league"), actor=request.user, **v)
        return Response(self._out(result), status=201)

    @extend_schema(request=None, responses=ResultSerializer)
    @action(detail=True, methods=["post"])
    def confirm(self, request, pk=None):
        """A player of the other side confirms a reported result: it counts."""
        result = run(result_confirm, result=self.get_object(), actor=request.user)
        return Response(self._out(result))

    @extend_schema(request=ReasonSerializer, responses=ResultSerializer)
    @action(detail=True, methods=["post"])
    def dispute(self, request, pk=None):
        """A player of the other side disputes a reported result; the organiser settles."""
        data = ReasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        result = run(
            result_dispute,
            result=self.get_object(),
            actor=request.user,
            reason=data.validated_data["reason"],
        )
        return Response(self._out(result))

    @extend_schema(request=SettleSerializer, responses=ResultSerializer)
    @action(detail=True, methods=["post"])
    def settle(self, request, pk=None):
        """The organiser settles a reported or disputed result: it counts, or is void."""
        data = SettleSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ruling = data.validated_data["ruling"]
        result = run(
            result_settle,
            result=self.get_object(),
            actor=request.user,
            reason=data.validated_data["reason"],
            counts=ruling != "void",
            outcome=None if ruling == "void" else ruling,
        )
        return Response(self._out(result))

    def _out(self, result):
        return ResultSerializer(self.get_queryset().get(pk=result.pk)).data

    @extend_schema(request=ImportSerializer, responses={201: ResultSerializer(many=True)})
    @action(detail=False, methods=["post"], url_path="import")
    def import_csv(self, request):
        data = ImportSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        results = run(
            results_import_csv,
            league=data.validated_data["league"],
            actor=request.user,
            text=data.validated_data["csv"],
        )
        return Response({"imported": len(results)}, status=201)

    @extend_schema(request=CorrectionInputSerializer, responses=ResultSerializer)
    @action(detail=True, methods=["post"])
    def correct(self, request, pk=None):
        result = self.get_object()
        data = CorrectionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        try:
            run(result_correct, result=result, actor=request.user, **v)
        except DjangoValidationError as exc:
            if codes(exc) != {"unchanged"}:
                raise
            # The result already says this (e.g. a retried correction): nothing to record.
        return Response(ResultSerializer(self.get_queryset().get(pk=result.pk)).data)

    @extend_schema(request=ReasonSerializer, responses=ResultSerializer)
    @action(detail=True, methods=["post"])
    def void(self, request, pk=None):
        return self._status(request, result_void)

    @extend_schema(request=ReasonSerializer, responses=ResultSerializer)
    @action(detail=True, methods=["post"])
    def restore(self, request, pk=None):
        return self._status(request, result_restore)

    def _status(self, request, service):
        result = self.get_object()
        data = ReasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        run(service, result=result, actor=request.user, reason=data.validated_data["reason"])
        return Response(ResultSerializer(self.get_queryset().get(pk=result.pk)).data)

    @extend_schema(responses=TraceEntrySerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def trace(self, request, pk=None):
        result = self.get_object()
        return Response(
            [
                {
                    "action": t.action,
                    "actor": t.actor.username if t.actor else None,
                    "reason": t.reason,
                    "before": t.before,
                    "after": t.after,
                    "created_at": t.created_at,
                }
                for t in result.trace.select_related("actor")
            ]
        )
