"""Combat Commander battles in the API: the battle page and its forms (events, rolls, the
result and its correction), calling the services the battle page calls after the same
permission predicates (campaigns/views/cc.py)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.exceptions import ValidationError as BadRequest
from rest_framework.response import Response

from campaigns.api.errors import run
from campaigns.api.schema import REFUSALS
from campaigns.api.serializers import LogEntrySerializer
from campaigns.cc.forms import CorrectionForm, ResultForm
from campaigns.idempotency import IDEMPOTENCY_PARAMETER, IDEMPOTENCY_RESPONSES, idempotent_api
from campaigns.services.battles import (
    battle_event_record,
    battle_result_correct,
    battle_result_submit,
    battle_roll,
)

from .common import battle_data, load_battle, odds_data, reload, require_participant
from .serializers import (
    BattleBriefSerializer,
    BattleDetailSerializer,
    CorrectionRequestSerializer,
    EventRequestSerializer,
    EventResponseSerializer,
    ResultRequestSerializer,
    RollRequestSerializer,
    RollResponseSerializer,
)

CC = ["combat commander"]
BATTLE = r"battles/(?P<number>\d+)"


def _form_errors(form) -> dict[str, list[str]]:
    """A page form's errors as an API 400 body (errors of the whole form under detail)."""
    return {
        ("detail" if field == "__all__" else field): [str(e) for e in errors]
        for field, errors in form.errors.items()
    }


class CCBattleActions:
    """Actions of the campaign viewset (campaigns/api/views.py) for a CC campaign's battles."""

    def _battle(self, request, number, *, play: bool = False):
        campaign, tpl, viewer = self._cc(request)
        if play:
            require_participant(viewer)
        return campaign, tpl, viewer, load_battle(campaign, int(number))

    def _battle_response(self, request, campaign, number, viewer=None, battle=None) -> Response:
        """The battle; without `viewer` the campaign is read again (a service changed it)."""
        if viewer is None:
            campaign, viewer = reload(campaign, request.user)
        battle = battle or load_battle(campaign, int(number))
        data = battle_data(campaign, viewer, battle)
        return Response(BattleDetailSerializer(data, context={"viewer": viewer}).data)

    @extend_schema(tags=CC, responses={200: BattleDetailSerializer, 404: REFUSALS["404"]})
    @action(detail=True, methods=["get"], url_path=BATTLE)
    def battle(self, request, pk=None, number=None):
        """One battle as its page shows it: status, winner, result, set-up and its log (the
        other side's private entries and sealed answers left out)."""
        campaign, _tpl, viewer, battle = self._battle(request, number)
        return self._battle_response(request, campaign, number, viewer, battle)

    @extend_schema(
        tags=CC,
        request=EventRequestSerializer,
        responses={201: EventResponseSerializer, **IDEMPOTENCY_RESPONSES},
        parameters=[IDEMPOTENCY_PARAMETER],
    )
    @action(detail=True, methods=["post"], url_path=BATTLE + "/events")
    @idempotent_api
    def battle_events(self, request, pk=None, number=None):
        """Log an event of play (the battle page's “Log an event”); players and game master."""
        _campaign, _tpl, _viewer, battle = self._battle(request, number, play=True)
        body = EventRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        entry = run(battle_event_record, battle=battle, actor=request.user, **body.validated_data)
        data = {
            "event": LogEntrySerializer(entry).data,
            "battle": BattleBriefSerializer(battle).data,
        }
        return Response(data, status=status.HTTP_201_CREATED)

    @extend_schema(
        tags=CC,
        request=RollRequestSerializer,
        responses={201: RollResponseSerializer},
    )
    @action(detail=True, methods=["post"], url_path=BATTLE + "/rolls")
    def battle_rolls(self, request, pk=None, number=None):
        """A roll during play (“Roll dice”): the site rolls, or `entered` holds the dice rolled
        at the table; answers the faces, the total and the exact odds of that roll."""
        _campaign, _tpl, _viewer, battle = self._battle(request, number, play=True)
        body = RollRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        record = run(battle_roll, battle=battle, actor=request.user, **body.validated_data)
        data = {
            "kind": record.kind,
            "purpose": record.purpose,
            "rule": record.rule,
            "faces": list(record.faces),
            "total": record.value,
            "source": record.source,
            "odds": odds_data(record.kind),
        }
        return Response(RollResponseSerializer(data).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        tags=CC,
        request=ResultRequestSerializer,
        responses={200: BattleDetailSerializer},
    )
    @action(detail=True, methods=["post"], url_path=BATTLE + "/result")
    def battle_result(self, request, pk=None, number=None):
        """Enter the battle's result (“Record the result”); the campaign rules are then applied.

        Submitting the same result again changes nothing (200); a different one is a 400 (the
        organiser or game master corrects results).
        """
        return self._result(request, number, correcting=False)

    @extend_schema(
        tags=CC,
        request=CorrectionRequestSerializer,
        responses={200: BattleDetailSerializer},
    )
    @action(detail=True, methods=["post"], url_path=BATTLE + "/correction")
    def battle_correction(self, request, pk=None, number=None):
        """The organiser or game master corrects a result (`confirm` must be true): the
        campaign goes back to where it was when the result was entered and its consequences
        are applied again; both results stay in the log."""
        return self._result(request, number, correcting=True)

    def _result(self, request, number, *, correcting: bool) -> Response:
        campaign, tpl, viewer, battle = self._battle(request, number, play=True)
        if correcting and not viewer.can_manage:
            raise PermissionDenied(_("Only the campaign's organiser or game master may correct."))
        body_cls = CorrectionRequestSerializer if correcting else ResultRequestSerializer
        body = body_cls(data=request.data)
        body.is_valid(raise_exception=True)
        form_cls = CorrectionForm if correcting else ResultForm
        form = form_cls(list(campaign.sides.all()), tpl.result_fields, body.form_data())
        if not form.is_valid():
            raise BadRequest(_form_errors(form))
        result = {
            "battle": battle,
            "actor": request.user,
            "winner": form.cleaned_data["winner_side"],
            "details": form.cleaned_data["details"],
        }
        if correcting:
            run(battle_result_correct, **result, reason=form.cleaned_data["reason"])
        else:
            run(battle_result_submit, **result)
        return self._battle_response(request, campaign, number)
