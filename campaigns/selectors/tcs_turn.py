"""The turn's Sequence of Play on one screen [2.0; digest A.1]: each phase in order with
"done / now / next", and a sentence saying what comes next for the viewer.

The site records each side's Command Phase (`CommandPhase`); the Air & Artillery Phase,
the Action Phases and the Clean-up are played at the table (their procedures are logged
one by one), so once both Command Phases are completed they are "now" together until the
next turn starts. Two queries at most: the sides (none when prefetched) and this turn's
Command Phases. Only public facts are shown: a phase's status, never what was done in it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.models.tcs import CommandPhase
from campaigns.permissions import Viewer
from campaigns.tcs.state import current_turn, recovery_due

DONE, NOW, NEXT = "done", "now", "next"


def _status_label(status: str) -> str:
    return {DONE: _("done"), NOW: _("now"), NEXT: _("next")}[status]


@dataclass(frozen=True)
class PhaseRow:
    key: str
    title: str
    rules: str
    status: str
    status_label: str
    side_id: int | None = None
    steps: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class TurnPhases:
    turn: int
    clock: str
    light: str
    phases: list[PhaseRow]
    next_text: str

    def as_data(self) -> dict[str, Any]:
        return asdict(self)


def _row(key, title, rules, status, side_id=None, steps=()) -> PhaseRow:
    return PhaseRow(key, title, rules, status, _status_label(status), side_id, list(steps))


def _command_steps(recovery: bool) -> list[str]:
    steps = [
        _("End (success) of implemented op sheets [6.11]"),
        _("Weighted turns [6.9.d]"),
        _("Implementation rolls [6.9.f]"),
        _("Reserve and alternative check rolls [6.14.d]"),
        _("Add units to op sheets [6.13]"),
        _("Draw new op sheets [6.8]"),
    ]
    if recovery:
        steps.append(
            _(
                "Battalion and vehicle morale recovery: a whole hour (at night an even hour) "
                "[17.1.d, 17.8.d, 26.1.d]"
            )
        )
    return steps


def _action_steps() -> list[str]:
    return [
        _("Remove your Fired markers"),
        _("Remove your mortar and infantry-gun Smoke and Illum of last turn [19.2, 26.2.c]"),
        _(
            "Place reinforcements at the map edge: only units on an implemented sheet or "
            "executing preliminary instructions [27.2]"
        ),
        _(
            "Mode changes, movement, fire, assaults, overruns; both sides may overwatch "
            "[4.1, 20, 13, 14, 22, 23, 15]"
        ),
        _("Vehicle impulses 1, 2 and 3 [20.2]"),
        _("Recovery from Suppressed or Paralyzed, overstacking [17.7, 5.0]"),
    ]


def tcs_turn_phases(campaign: Campaign, viewer: Viewer) -> TurnPhases:
    """The current turn's phases in order, with their status and what comes next."""
    turn = current_turn(campaign)
    sides = list(campaign.sides.all())
    active = campaign.status == Campaign.Status.ACTIVE
    finished = campaign.status in (Campaign.Status.FINISHED, Campaign.Status.ABANDONED)
    phases = (
        {
            p.side_id: p.status
            for p in CommandPhase.objects.filter(campaign=campaign, turn=turn.number)
        }
        if active
        else {}
    )
    completed = {pk for pk, status in phases.items() if status == CommandPhase.Status.COMPLETED}
    commands_done = active and all(s.pk in completed for s in sides)
    recovery = active and recovery_due(campaign)

    def later(done_when: bool) -> str:
        if finished:
            return DONE
        if not active:
            return NEXT
        return NOW if done_when else NEXT

    rows: list[PhaseRow] = []
    for side in sides:
        status = DONE if finished or side.pk in completed else NOW if active else NEXT
        rows.append(
            _row(
                f"command:{side.pk}",
                _("Command Phase: %(side)s") % {"side": side.name},
                "2.0, 6",
                status,
                side.pk,
                _command_steps(recovery),
            )
        )
    rows.append(
        _row(
            "air_artillery",
            _("Air & Artillery Phase"),
            "18, 25",
            later(commands_done),
            steps=[
                _("Initiative roll; each sub-phase in initiative order"),
                _("Air strikes; pre-plotted barrages; new missions; adjustment [25, 18.7]"),
                _("Execute the missions; remove non-continuous barrages [18.10, 18.8.b]"),
            ],
        )
    )
    for side in sides:
        rows.append(
            _row(
                f"action:{side.pk}",
                _("Action Phase: %(side)s") % {"side": side.name},
                "2.0",
                later(commands_done),
                side.pk,
                _action_steps(),
            )
        )
    rows.append(
        _row(
            "clean_up",
            _("Clean-up"),
            "19.2, 26.2.c",
            later(commands_done),
            steps=[
                _("Remove artillery Illum [26.2.c]"),
                _("Remove Smoke level 1; flip Smoke level 2 to level 1 [19.2]"),
            ],
        )
    )
    return TurnPhases(
        turn.number,
        turn.clock,
        turn.light.value,
        rows,
        _next_text(campaign, viewer, sides, completed, active, finished),
    )


def _next_text(campaign, viewer: Viewer, sides, completed, active, finished) -> str:
    if finished:
        return _("The operation is over.")
    if not active:
        return _(
            "Set-up: enter the orders of battle and draw the op sheets; play starts at turn 1."
        )
    mine = [s for s in sides if s.pk in viewer.side_ids]
    own_open = [s for s in mine if s.pk not in completed]
    others_open = [s for s in sides if s.pk not in completed and s not in mine]
    if own_open:
        return _("Next for you: complete the Command Phase of %(side)s.") % {
            "side": ", ".join(s.name for s in own_open)
        }
    if others_open:
        return _("Next: %(side)s completes its Command Phase.") % {
            "side": ", ".join(s.name for s in others_open)
        }
    return _(
        "Next: the Air & Artillery Phase, each side's Action Phase in initiative order and "
        "the Clean-up, at the table; then the next turn."
    )
