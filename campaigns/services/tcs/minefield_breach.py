"""A breach attempt on a minefield [21.3]: the eligibility answers, the attack on the "9"
column on the units still in the hex, losses and the check applied, then the Breach placed
(public). The reading `breach_needs_every_unit` (21.3.c) asks every breaching unit, not one,
to be fit after the attack. Placement and the entry attack are in
`campaigns.services.tcs.minefields`.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import timezone

from campaigns.models import Side
from campaigns.models.tcs import MoraleState, TcsCombat, TcsUnit
from campaigns.selectors.tcs_charts import operation_charts
from campaigns.services.tcs.combat import Check
from campaigns.services.tcs.common import dice_for, log_explanation, rule_error, side_write
from campaigns.services.tcs.engine import load_side
from campaigns.services.tcs.minefields import (
    MINE_CHECK,
    NO_ENTRY,
    Entry,
    _save,
    _shift,
    _start,
    _units,
    apply_mine_results,
    attack_summary,
    find_marker,
    foot_losses,
    log_public,
    run_mine_rules,
)
from campaigns.tcs.state import options_for
from rules.errors import RuleError
from rules.i18n import msg
from rules.tcs import minefields as mf
from rules.tcs.units import UnitCategory


def tcs_minefield_breach(
    *,
    side: Side,
    actor,
    minefield_id: int,
    units: Sequence[str],
    began_adjacent: bool,
    idle: bool,
    dismounted: bool = True,
    enemy_in_hex: bool = False,
    still_in_hex: Sequence[str] | None = None,
    entry: Entry = NO_ENTRY,
    check: Check = MINE_CHECK,
    rolls: list[int] | None = None,
) -> TcsCombat:
    """A breach attempt [21.3]: the eligibility answers (began the phase in or next to the
    hex, has not moved, changed mode, fired an SFA or made AT rolls, dismounted), the attack
    on the "9" column with only the stacking shift on the units still there after overwatch
    and artillery [21.3.c], losses and check applied, then the Breach placed if one of them
    is still there and neither Suppressed nor Paralyzed (read after applying)."""
    with side_write(side, side.campaign_id, actor) as campaign:
        turn = _start(campaign)
        rows, row, marker = find_marker(campaign, minefield_id)
        engine = load_side(campaign, side)
        chosen = _units(engine, list(dict.fromkeys(units)), "units")
        candidates = [
            mf.BreachCandidate(
                id=u.code,
                category=UnitCategory(u.category),
                start_distance=1 if began_adjacent else 2,
                mounted=not dismounted,
                suppressed=u.morale_state == MoraleState.SUPPRESSED,
                paralyzed=u.morale_state == MoraleState.PARALYZED,
                moved=not idle,
            )
            for u in chosen
        ]
        try:
            exp = mf.check_breach(marker, candidates, enemy_in_hex=enemy_in_hex)
        except RuleError as exc:
            raise rule_error(exc, "units") from None
        there = [u for u in chosen if still_in_hex is None or u.code in still_in_hex]
        dice = dice_for(rolls)
        attack = run_mine_rules(
            mf.breach_attack,
            marker=marker,
            units=[mf.MineTarget(u.code, u.steps_left) for u in there],
            charts=operation_charts(campaign).fire,
            dice=dice,
            entered=_shift(entry),
            result=entry.result,
            first_step_choice=entry.first_step_choice,
        )
        exp.extend(attack.explanation)
        losses = foot_losses(attack.foot, there, entry.losses) if attack.attacked else {}
        combat = TcsCombat.objects.create(
            campaign=campaign,
            side=side,
            turn=turn,
            kind="breach",
            rule="21.3",
            status=TcsCombat.Status.APPLIED,
            inputs={"minefield": row["id"], "hex": marker.hex, "units": [u.code for u in chosen]},
            result=attack_summary(attack),
            created_by=actor,
            applied_by=actor,
            applied_at=timezone.now(),
        )
        applied = apply_mine_results(
            campaign, side, engine, actor, losses, [u.code for u in there],
            check if attack.morale_check else None, dice, combat.pk,
        )  # fmt: skip
        retreat = (applied.get("check") or {}).get("retreat_hexes") or 0
        after = []
        for u in there:
            unit = TcsUnit.objects.get(pk=u.pk)  # the state after losses and the check
            after.append(
                mf.BreacherAfter(
                    u.code,
                    in_hex=not unit.eliminated and not retreat,
                    suppressed=unit.morale_state == MoraleState.SUPPRESSED,
                    paralyzed=unit.morale_state == MoraleState.PARALYZED,
                )
            )
        outcome = mf.breach_outcome(
            marker, after, every_unit=options_for(campaign).breach_needs_every_unit
        )
        exp.extend(outcome.explanation)
        if outcome.made:
            row["breached"] = True
            _save(campaign, rows)
        combat.result = {
            **combat.result,
            "made": outcome.made,
            "explanation": exp.as_list(),
        }
        combat.applied = applied
        combat.save(update_fields=["result", "applied"])
        log_explanation(
            campaign, exp, actor=actor, private_to=None, tag={"combat": combat.pk}, turn=turn
        )
        text = (
            msg("%(side)s breaches the minefield in %(hex)s", side=side.name, hex=marker.hex)
            if outcome.made
            else msg(
                "%(side)s fails to breach the minefield in %(hex)s", side=side.name, hex=marker.hex
            )
        )
        log_public(campaign, actor, text, "21.3.c", {"combat": combat.pk}, turn)
    return combat
