"""The Command Phase [2.0] (the Command Phase assistant page), one step per request: open
it, weighted turns, implementation attempts (entered or server dice), check rolls, reserves
commitment, alternatives, morale recovery, complete. A phase and its steps are private to
its side: 404 to anyone else (the list says only which phases were played)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response

from campaigns.api.tcs.common import (
    CAMPAIGN_PARAM,
    body,
    campaign_filter,
    checked,
    load,
    load_side,
    must_act,
    run,
)
from campaigns.api.tcs.requests import (
    TcsAlternativeSerializer,
    TcsAttemptSerializer,
    TcsCheckSerializer,
    TcsCommitSerializer,
    TcsPhaseOpenSerializer,
    TcsRecoverySerializer,
    TcsWeightedTurnsSerializer,
)
from campaigns.api.tcs.serializers import (
    CommandPhaseSerializer,
    TcsPhaseDetailSerializer,
    TcsPhaseStepSerializer,
)
from campaigns.ids import as_id
from campaigns.models.tcs import CommandPhase, OpSheetRecord, TcsFormation
from campaigns.permissions import can_see_tcs_secret, visible_campaigns
from campaigns.selectors.tcs import is_finished
from campaigns.services import tcs as svc
from campaigns.tcs import forms as tf
from rules.tcs.opsheet import OpSheet

LISTS = ("units", "fired")


def phase_data(phase: CommandPhase) -> dict:
    campaign = phase.campaign
    blockers = []
    if phase.status == CommandPhase.Status.OPEN:
        blockers = svc.phase_blockers(phase, svc.load_side(campaign, phase.side), campaign)
    return TcsPhaseDetailSerializer(phase, context={"blockers": blockers}).data


@extend_schema_view(list=extend_schema(parameters=[CAMPAIGN_PARAM]))
class CommandPhaseViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Which Command Phases were played (when, by which side); a phase's steps only for its
    own side."""

    serializer_class = CommandPhaseSerializer

    def get_queryset(self):
        campaigns = visible_campaigns(self.request.user).filter(system="tcs")
        qs = CommandPhase.objects.filter(campaign__in=campaigns).select_related("side")
        return campaign_filter(self.request, qs.order_by("turn", "id"))

    def _phase(self, request, pk, *, act=True) -> CommandPhase:
        phase = (
            CommandPhase.objects.select_related("side", "campaign").filter(pk=pk).first()
            if as_id(pk) is not None
            else None
        )
        if phase is None:
            raise NotFound
        campaign, viewer = load(request, phase.campaign_id)
        if not can_see_tcs_secret(viewer, phase.side_id, finished=is_finished(campaign)):
            raise NotFound
        if act:
            must_act(viewer, phase.side_id)
            if phase.turn != svc.current_turn(campaign).number:
                raise ValidationError(
                    {"detail": [_("This Command Phase is of an earlier turn: open this turn's.")]}
                )
        return phase

    def _step(self, phase, text, result=None):
        phase.refresh_from_db()
        data = {"detail": text, "phase": phase_data(phase)}
        if result is not None:
            data["result"] = result
        return Response(data)

    def _sheet(self, phase, pk) -> OpSheetRecord:
        sheet = OpSheetRecord.objects.filter(side_id=phase.side_id, pk=pk).first()
        if sheet is None:
            raise ValidationError({"sheet": [_("Choose one of this side's op sheets.")]})
        return sheet

    @extend_schema(responses=TcsPhaseDetailSerializer)
    def retrieve(self, request, pk=None):
        """The phase's steps so far and what it still needs before it can complete."""
        return Response(phase_data(self._phase(request, pk, act=False)))

    @extend_schema(request=TcsPhaseOpenSerializer, responses={201: TcsPhaseStepSerializer})
    def create(self, request):
        """Open this turn's Command Phase for `side` (opening it again answers the same)."""
        data = body(request)
        side_pk = data.get("side") if hasattr(data, "get") else None
        if side_pk in (None, ""):
            raise ValidationError({"side": [_("Choose the side.")]})
        _campaign, _viewer, side = load_side(request, side_pk, act=True)
        phase = run(svc.tcs_phase_open, side=side, actor=request.user)
        response = self._step(phase, _("Command Phase open."))
        response.status_code = status.HTTP_201_CREATED
        return response

    @extend_schema(request=TcsWeightedTurnsSerializer, responses=TcsPhaseStepSerializer)
    @action(detail=True, methods=["post"], url_path="weighted-turns")
    def weighted_turns(self, request, pk=None):
        """Step 1: weighted turns for the sheets in Command Prep; `fired`: the sheets with a
        listed unit that fired or was fired on last turn [6.9.d]."""
        phase = self._phase(request, pk)
        sheets = OpSheetRecord.objects.filter(side_id=phase.side_id)
        prep = [s for s in sheets if s.status in ("unimplemented", "prelims_active")]
        prep += [s for s in sheets if s.status == "implemented" and s.state.get("additions")]
        data = body(request, lists=LISTS)
        if isinstance(data, dict):
            data["fired"] = [str(x) for x in data.get("fired", [])]
        form = tf.WeightedTurnsForm(prep, data)
        d = checked(form)
        added = run(
            svc.tcs_phase_weighted_turns,
            phase=phase,
            actor=request.user,
            fired_sheets=[int(x) for x in d["fired"]],
        )
        text = (
            _("Weighted turns added: %(t)s.")
            % {"t": ", ".join(f"{k} +{v}" for k, v in added.items())}
            if added
            else _("No op sheet in Command Prep.")
        )
        return self._step(phase, text, added)

    @extend_schema(request=TcsAttemptSerializer, responses=TcsPhaseStepSerializer)
    @action(detail=True, methods=["post"])
    def attempt(self, request, pk=None):
        """Step 2: a Command Prep roll for a sheet (or units added to it, `addition_id`):
        `dice` server, or entered with `roll`; `threshold` / `move_threshold` read off the
        printed chart when the side has no table [6.9.f, 6.14.a]."""
        phase = self._phase(request, pk)
        data = body(request, dice=True)
        addition_id = str(data.get("addition_id") or "")
        if addition_id and not addition_id.isalnum():
            raise ValidationError({"addition_id": [_("Choose units added to this sheet.")]})
        form = tf.AttemptForm(data)
        d = checked(form)
        sheet = self._sheet(phase, d["sheet"])
        row = sheet.sheet_type
        if addition_id:
            found = [a for a in sheet.state.get("additions", []) if a["id"] == addition_id]
            row = found[0]["row"] if found else row
        result = run(
            svc.tcs_phase_attempt,
            phase=phase,
            sheet=sheet,
            actor=request.user,
            mode=d["mode"],
            roll=d["roll_value"],
            thresholds=form.thresholds(row),
            addition_id=addition_id or None,
        )
        text = _("%(s)s: rolled %(r)s — %(o)s.") % {
            "s": f"{sheet.code}/{addition_id}" if addition_id else sheet.code,
            "r": result["roll"] if result["roll"] is not None else "—",
            "o": result["outcome"].replace("_", " "),
        }
        return self._step(phase, text, result)

    @extend_schema(request=TcsCheckSerializer, responses=TcsPhaseStepSerializer)
    @action(detail=True, methods=["post"], url_path="check-roll")
    def check_roll(self, request, pk=None):
        """Step 4: the check roll of committed reserves or a chosen alternative [6.14.d]."""
        phase = self._phase(request, pk)
        d = checked(tf.CheckForm(body(request, dice=True)))
        passed = run(
            svc.tcs_phase_check_roll,
            phase=phase,
            sheet=self._sheet(phase, d["sheet"]),
            actor=request.user,
            group_id=d["group"],
            roll=d["roll_value"],
        )
        text = _("Check passed.") if passed else _("Check failed; roll again next turn.")
        return self._step(phase, text, {"passed": passed})

    @extend_schema(request=TcsCommitSerializer, responses=TcsPhaseStepSerializer)
    @action(detail=True, methods=["post"], url_path="commit-reserves")
    def commit_reserves(self, request, pk=None):
        """Step 3: commit reserves of an implemented sheet with their one order [6.14.b]."""
        phase = self._phase(request, pk)
        data = body(request, lists=LISTS)
        sheet = self._sheet(phase, as_id(data.get("sheet")) or 0)
        form = tf.CommitForm(OpSheet.from_dict(sheet.state).uncommitted_reserves, data)
        d = checked(form)
        group = run(
            svc.tcs_phase_commit_reserves,
            phase=phase,
            sheet=sheet,
            actor=request.user,
            units=d["units"],
            order=d["order"],
        )
        return self._step(
            phase, _("Reserves committed: roll their check (step 4)."), {"group": group}
        )

    @extend_schema(request=TcsAlternativeSerializer, responses=TcsPhaseStepSerializer)
    @action(detail=True, methods=["post"])
    def alternative(self, request, pk=None):
        """Step 3: choose one of an implemented sheet's alternatives [6.14.c]."""
        phase = self._phase(request, pk)
        data = body(request)
        sheet = self._sheet(phase, as_id(data.get("sheet")) or 0)
        names = list((sheet.state.get("alternatives") or {}).keys())
        d = checked(tf.AlternativeForm(names, data))
        group = run(
            svc.tcs_phase_choose_alternative,
            phase=phase,
            sheet=sheet,
            actor=request.user,
            alternative=d["alternative"],
        )
        return self._step(
            phase, _("Alternative chosen: roll its check (step 4)."), {"group": group}
        )

    @extend_schema(request=TcsRecoverySerializer, responses=TcsPhaseStepSerializer)
    @action(detail=True, methods=["post"])
    def recovery(self, request, pk=None):
        """Morale recovery on the hour [26.1.d]: `dice` server, or entered with one d6 per
        formation (`rolls`: formation id → d6, or the page's roll_<formation id>)."""
        phase = self._phase(request, pk)
        moraled = list(
            TcsFormation.objects.filter(side_id=phase.side_id).exclude(
                morale=TcsFormation.Morale.NONE
            )
        )
        data = body(request, dice=True, objects=("rolls",))
        if isinstance(data, dict):
            rolls = request.data.get("rolls")
            data.pop("rolls", None)
            if rolls is not None and not isinstance(rolls, dict):
                raise ValidationError({"rolls": [_("An object: formation id → d6.")]})
            for key, value in (rolls or {}).items():
                data[f"roll_{key}"] = "" if value is None else str(value)
        d = checked(tf.RecoveryForm(moraled, data))
        changed = run(svc.tcs_phase_recovery, phase=phase, actor=request.user, rolls=d["rolls"])
        text = (
            _("Morale recovery rolled.")
            + " "
            + (
                ", ".join(f"{k}: {a}→{b}" for k, (a, b) in changed.items())
                or _("No value changed.")
            )
        )
        return self._step(phase, text, {k: list(v) for k, v in changed.items()})

    @extend_schema(request=None, responses=TcsPhaseStepSerializer)
    @action(detail=True, methods=["post"])
    def complete(self, request, pk=None):
        """Complete the phase once nothing blocks it (completing again changes nothing)."""
        phase = self._phase(request, pk)
        run(svc.tcs_phase_complete, phase=phase, actor=request.user)
        return self._step(phase, _("Command Phase completed."))
