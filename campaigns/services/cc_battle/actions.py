"""Resolve a procedure on a tracked battle, and undo the last one.

Each action runs in one transaction under the campaign lock: the rules run on the stored
state, the new state is saved with a bumped version, the action (with the state before it)
and a log entry are written. A client that sends the version it saw is refused if someone
acted in between, so two players pressing at once cannot both apply.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.cc.battle.registry import PROCEDURES
from campaigns.cc.battle.spec import Context, Done
from campaigns.i18n import rule_text, say
from campaigns.models import Battle, BattleAction, BattleTracker, Campaign, LogEntry
from campaigns.permissions import Viewer, viewer_context
from campaigns.services._base import append_log, lock_campaign
from rules.cc.battle import clock
from rules.cc.battle.counters import table_from_data
from rules.cc.battle.state import END_LABELS, BattleState
from rules.cc.common import Faction
from rules.dice import DiceSource, EnteredDice, ServerDice, parse_entry
from rules.errors import DiceError, RollNeeded, RuleError
from rules.i18n import Msg, msg
from rules.serial import to_data


def entered_dice(text: str) -> EnteredDice:
    """Rolls typed at the table, one card per part: "4 1; 6 2" is white 4 and coloured 1,
    then white 6 and coloured 2."""
    try:
        return EnteredDice([parse_entry(part) for part in text.split(";") if part.strip()])
    except DiceError as exc:
        raise ValidationError({"dice": [rule_text(exc)]}) from None


def _locked(battle: Battle) -> tuple[Campaign, BattleTracker]:
    campaign = lock_campaign(battle.campaign_id)
    tracker = (
        BattleTracker.objects.select_for_update().select_related("battle").filter(battle=battle)
    ).first()
    if tracker is None:
        raise ValidationError(
            _("This battle is not tracked yet: start tracking it first."), code="conflict"
        )
    if tracker.battle.status != Battle.Status.PLAYING:
        raise ValidationError(
            _("The battle's result is in: its tracks are closed."), code="conflict"
        )
    return campaign, tracker


def _acting_side(
    viewer: Viewer, campaign: Campaign, inputs: Mapping[str, Any], acting_side: str
) -> Faction:
    """The player's own side; a game master or organiser acts for the side the procedure's
    inputs name, or else the side he says the action is for."""
    own = [s for s in campaign.sides.all() if viewer.plays(s)]
    if len(own) == 1:
        return Faction(own[0].faction)
    if viewer.can_manage or own:
        chosen = inputs.get("side") or acting_side
        if chosen in {f.value for f in Faction}:
            return Faction(chosen)
        raise ValidationError({"side": [_("Say which side this is for.")]})
    raise ValidationError(
        _("Only the battle's players and game master resolve its procedures."), code="forbidden"
    )


def _run(procedure, inputs, dice: DiceSource, context: Context) -> Done:
    try:
        done = procedure.run(inputs, dice, context)
    except RollNeeded as need:
        raise ValidationError(
            {
                "dice": [
                    _("Enter the next roll: %(purpose)s (white and coloured die).")
                    % {"purpose": say(need.purpose)}
                ]
            }
        ) from None
    except DiceError as exc:
        raise ValidationError({"dice": [rule_text(exc)]}) from None
    except RuleError as exc:
        raise ValidationError(rule_text(exc)) from None
    if isinstance(dice, EnteredDice) and dice.remaining:
        raise ValidationError(
            {"dice": [_("More rolls were entered than this needs: check the dice.")]}
        )
    return done


def _this_turn(tracker: BattleTracker) -> frozenset[tuple[str, str]]:
    """(procedure, side) resolved since the last turn ended: a turn's worth of rows."""
    standing = tracker.actions.filter(undone_at__isnull=True)
    began = standing.filter(procedure="end_turn").aggregate(n=Max("seq"))["n"] or 0
    return frozenset(standing.filter(seq__gt=began).values_list("procedure", "side"))


def battle_act(
    *,
    battle: Battle,
    actor,
    procedure: str,
    inputs: Mapping[str, Any],
    entered: str = "",
    version: int | None = None,
    acting_side: str = "",
) -> BattleAction:
    """Resolve `procedure` with `inputs` (already checked by its form or serializer) and the
    site's dice, or the dice `entered` at the table. Nothing changes on a refusal."""
    spec = PROCEDURES.get(procedure)
    if spec is None:
        raise ValidationError({"procedure": [_("Choose one of the battle's procedures.")]})
    with transaction.atomic():
        campaign, tracker = _locked(battle)
        if version is not None and version != tracker.version:
            raise ValidationError(
                _(
                    "The battle changed since you opened it (the other side acted): look at "
                    "the tracks again and repeat if it still applies."
                ),
                code="conflict",
            )
        viewer = viewer_context(actor, campaign)
        side = _acting_side(viewer, campaign, inputs, acting_side)
        before = BattleState.from_data(tracker.state)
        counters = table_from_data(tracker.counters) if tracker.counters else None
        dice = entered_dice(entered) if entered.strip() else ServerDice()
        context = Context(side=side, state=before, counters=counters, this_turn=_this_turn(tracker))
        done = _run(spec, inputs, dice, context)
        state, explanation = done.state, done.explanation
        if state.pending_end and state.outcome is None:
            state, end = clock.check_game_end(
                state, retroactive_doubling=state.readings.retroactive_doubling
            )
            explanation.extend(end)
        seq = (tracker.actions.aggregate(n=Max("seq"))["n"] or 0) + 1
        result = {
            "summary": done.summary.as_dict(),
            "shown": [m.as_dict() for m in done.shown],
            "explanation": explanation.as_list(),
        }
        action = BattleAction.objects.create(
            tracker=tracker,
            seq=seq,
            procedure=spec.key,
            side=side.value,
            actor=actor,
            inputs=to_data(dict(inputs)),
            result=result,
            state_before=tracker.state,
        )
        tracker.state, tracker.version = state.as_data(), tracker.version + 1
        tracker.save(update_fields=["state", "version", "updated_at"])
        append_log(
            campaign,
            kind=LogEntry.Kind.ROLL if explanation.rolls else LogEntry.Kind.EVENT,
            summary=done.summary,
            actor=actor,
            rule=spec.rule,
            battle=tracker.battle,
            data={"action": seq, "explanation": result["explanation"]},
        )
        if state.outcome is not None and before.outcome is None:
            append_log(
                campaign,
                kind=LogEntry.Kind.EVENT,
                summary=msg(
                    "The battle is over: the %(side)s win (%(cause)s), VP marker %(vp)s.",
                    side=state.sides[state.outcome.winner],
                    cause=END_LABELS[state.outcome.cause],
                    vp=f"{state.outcome.vp_axis:+d}",
                ),
                actor=actor,
                rule=state.outcome.rule,
                battle=tracker.battle,
            )
    return action


def battle_action_undo(*, battle: Battle, actor) -> BattleAction:
    """Take back the last action still standing: by the player who made it or the organiser
    or game master. The tracks return to what they were; the log keeps both entries."""
    with transaction.atomic():
        campaign, tracker = _locked(battle)
        last = tracker.actions.filter(undone_at__isnull=True).order_by("-seq").first()
        if last is None:
            raise ValidationError(_("Nothing to undo."))
        viewer = viewer_context(actor, campaign)
        if last.actor_id != actor.pk and not viewer.can_manage:
            raise ValidationError(
                _("Only the player who made it, the organiser or the game master may undo it."),
                code="forbidden",
            )
        tracker.state, tracker.version = last.state_before, tracker.version + 1
        tracker.save(update_fields=["state", "version", "updated_at"])
        last.undone_at, last.undone_by = timezone.now(), actor
        last.save(update_fields=["undone_at", "undone_by"])
        append_log(
            campaign,
            kind=LogEntry.Kind.CORRECTION,
            summary=msg("Undone: %(what)s", what=Msg.from_dict(last.result["summary"])),
            actor=actor,
            rule=PROCEDURES[last.procedure].rule if last.procedure in PROCEDURES else "",
            battle=tracker.battle,
            data={"undone": last.seq},
        )
    return last
