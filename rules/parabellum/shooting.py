"""Shooting (§6.1, §6.2): modifiers, the 11+ shot, critical shots, evasion and its difference.

A shot is 3D6 plus modifiers and succeeds on 11+ (§6.1.5); a triple is a critical that
eliminates unless the evasion is also a triple (§6.2.3, §6.2.4). A successful shot is evaded
with a plain 3D6 (± experience): evasion ≥ shot saves; a difference of 1-2 suppresses and 3+
eliminates; at point blank any failed evasion eliminates (§6.1.7, A TENER EN CUENTA C).
Several successful shots on one target give one evasion against the best of them (§6.1 B).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from rules.dice import DiceSource, RollRecord
from rules.errors import RuleError
from rules.explain import Decision, DecisionRequired, Explanation
from rules.i18n import msg
from rules.parabellum import labels as pbl
from rules.parabellum.data import Experience, Weapon, experience_mods, special_rule
from rules.parabellum.evasion import (
    EvasionResult,
    Target,
    evasion_modifier,
    hit_the_dirt_cost,
    wants_hit_the_dirt,
)
from rules.parabellum.rolls import Outcome, outcomes, percent, roll_3d6, tally

Cover = Literal["none", "light", "heavy"]
Movement = Literal["none", "cautious", "double_time", "crawl"]
SHOT_NEEDED = 11
POINT_BLANK_CM = 10
LONG_RANGE_CM = 40
COVER_PENALTY = {"none": 0, "light": -1, "heavy": -2}
MOVE_PA = {"none": 0, "cautious": 1, "double_time": 2, "crawl": 3}
AIM_PA = 2
BOLT_AIM_RANGE_BONUS = 10
RECON_DOUBLE_TIME_CM = 25
RESTRICTED_REACTION_CM = 20
NOT_FIREARMS = frozenset({"grenade_projector", "grenade_launcher", "grenade"})


@dataclass(frozen=True)
class Shot:
    """One shot. Activation shots may be aimed or MG42-assisted; reaction shots get the
    double-time bonus instead (§6.1.5, §6.2.8)."""

    weapon: Weapon
    distance_cm: float
    cover: Cover = "none"
    reaction: bool = False
    aimed: bool = False
    shooter_experience: Experience = "regular"
    target_suppressed: bool = False
    target_double_time_cm: float | None = None
    target_recon: bool = False
    mg42_assisted: bool = False

    @property
    def point_blank(self) -> bool:
        return self.distance_cm <= POINT_BLANK_CM


def shot_modifier(shot: Shot, explanation: Explanation | None = None) -> int:
    """Check the shot is legal and total its modifiers, recording each in `explanation`."""
    ex = explanation if explanation is not None else Explanation()
    w = shot.weapon
    if w.rules & NOT_FIREARMS:
        raise RuleError(
            msg("%(model)s is not fired with a 3D6 shot; use its own procedure", model=w.model),
            rule="6.6",
        )
    if shot.aimed and (shot.reaction or not w.has("aim")):
        raise RuleError(
            msg("%(model)s cannot aim here (Aim rule, activation shots only)", model=w.model),
            rule="6.2.6",
        )
    if shot.reaction and shot.mg42_assisted:
        raise RuleError(msg("the MG42 bonus applies to activation shots only"), rule="10 ALEMANIA")
    if not shot.reaction and shot.target_double_time_cm is not None:
        raise RuleError(msg("the double-time bonus applies to reaction shots only"), rule="6.2.8")
    reach = w.range_cm + (BOLT_AIM_RANGE_BONUS if shot.aimed and w.has("bolt") else 0)
    if shot.distance_cm > reach:
        raise RuleError(
            msg(
                "target at %(distance_cm)s cm is beyond the %(reach)s cm effective range of %(model)s",
                distance_cm=shot.distance_cm,
                reach=reach,
                model=w.model,
            ),
            rule="6.2.1",
        )
    if reach > w.range_cm:
        ex.add("6.6", msg("bolt weapon aimed: effective range %(reach)s cm", reach=reach), reach)
    total = 0
    if shot.point_blank:
        total += ex.add(
            "6.2.1", msg("point blank (%(distance_cm)s cm ≤ 10)", distance_cm=shot.distance_cm), 2
        )
    if shot.aimed:
        aim = experience_mods(shot.shooter_experience)["aim"]
        total += ex.add(
            "6.2.6",
            msg(
                "aimed (%(shooter_experience)s)",
                shooter_experience=pbl.label(pbl.EXPERIENCES, shot.shooter_experience),
            ),
            aim,
        )
    if shot.cover != "none":
        total += ex.add(
            "6.2.5",
            msg("target in %(cover)s cover", cover=msg(shot.cover)),
            COVER_PENALTY[shot.cover],
        )
    if shot.distance_cm > LONG_RANGE_CM:
        total += ex.add(
            "6.2.1", msg("long range (%(distance_cm)s cm > 40)", distance_cm=shot.distance_cm), -2
        )
    if not shot.reaction and shot.target_suppressed and shot.cover != "none":
        total += ex.add("6.1", msg("target suppressed and in cover"), -1)
    if shot.mg42_assisted:
        bonus = special_rule("mg42")["assisted_activation_shot_bonus"]
        total += ex.add("10 ALEMANIA", msg("MG42 gunner with assistant"), bonus)
    if shot.reaction and shot.target_double_time_cm is not None:
        if shot.target_recon and shot.target_double_time_cm <= RECON_DOUBLE_TIME_CM:
            ex.add("8.4.1", msg("recon target double-timed ≤25 cm: no bonus"), 0)
        else:
            total += ex.add("6.2.8", msg("target made a double-time move"), 2)
    return total


@dataclass(frozen=True)
class ShotOdds:
    success: Fraction
    critical: Fraction


def shot_odds(shot: Shot) -> ShotOdds:
    mod = shot_modifier(shot)
    return ShotOdds(
        success=sum((p for v, t, p in outcomes() if t or v + mod >= SHOT_NEEDED), Fraction(0)),
        critical=sum((p for _, t, p in outcomes() if t), Fraction(0)),
    )


@dataclass
class ShotResult:
    shot: Shot
    roll: RollRecord
    modified: int
    success: bool
    critical: bool
    odds: ShotOdds
    explanation: Explanation

    @property
    def point_blank(self) -> bool:
        return self.shot.point_blank


def resolve_shot(shot: Shot, dice: DiceSource) -> ShotResult:
    """Roll one shot: 11+ succeeds; any triple is a critical (DECISIONS D-3)."""
    ex = Explanation()
    mod = shot_modifier(shot, ex)
    odds = shot_odds(shot)
    kind = "reaction shot" if shot.reaction else "shot"
    record = roll_3d6(dice, purpose=kind, rule="6.2.8" if shot.reaction else "6.1")
    ex.add(
        record.rule,
        msg("%(kind)s with %(model)s", kind=msg(kind), model=pbl.model_label(shot.weapon.model)),
        record.value,
        roll=record,
    )
    modified = record.value + mod
    critical = record.is_triple
    success = critical or modified >= SHOT_NEEDED
    if critical:
        ex.add(
            "6.2.3", msg("triple: critical shot, the target is eliminated unless it rolls a triple")
        )
    ex.add(
        "6.1",
        msg(
            "modified shot %(modified)s: %(v)s (11+)",
            modified=modified,
            v=msg("success") if success else msg("miss"),
        ),
        modified,
    )
    return ShotResult(shot, record, modified, success, critical, odds, ex)


def shot_evasion_outcome(
    result_modified: int, point_blank: bool, critical: bool, evasion: int, triple: bool
) -> Outcome:
    """The result of one modified evasion against one successful shot (§6.1.6-7, §6.2.3-4)."""
    if triple:
        return "unharmed"
    if critical or (evasion < result_modified and point_blank):
        return "eliminated"
    if evasion >= result_modified:
        return "unharmed"
    return "suppressed" if result_modified - evasion <= 2 else "eliminated"


def evasion_odds(result: ShotResult, experience: Experience) -> dict[Outcome, Fraction]:
    """Exact odds of the target's evasion against a rolled successful shot."""
    mod = evasion_modifier(experience)
    return tally(
        [
            (
                shot_evasion_outcome(
                    result.modified, result.point_blank, result.critical, v + mod, t
                ),
                p,
            )
            for v, t, p in outcomes()
        ]
    )


def attack_odds(shot: Shot, experience: Experience) -> dict[Outcome, Fraction]:
    """Exact odds of one shot before it is rolled, evasion included (no hit the dirt)."""
    mod, ev_mod = shot_modifier(shot), evasion_modifier(experience)
    pairs = []
    for sv, st, sp in outcomes():
        if not (st or sv + mod >= SHOT_NEEDED):
            pairs.append(("unharmed", sp))
            continue
        for ev, et, ep in outcomes():
            pairs.append(
                (shot_evasion_outcome(sv + mod, shot.point_blank, st, ev + ev_mod, et), sp * ep)
            )
    return tally(pairs)


def best_shot(
    results: Sequence[ShotResult], target: Target, choice: int | None = None
) -> ShotResult | None:
    """The successful shot the target evades; asks the firing side when several succeeded.

    `choice` is an index into `results`. Options are listed with the target's elimination odds
    (a lower point-blank result may be better, §6.1 B). Returns None when every shot missed.
    """
    hits = [i for i, r in enumerate(results) if r.success]
    if not hits:
        return None
    if len(hits) == 1:
        return results[hits[0]]
    if choice is None:
        described = "; ".join(
            f"#{i}: {results[i].modified}{' point blank' if results[i].point_blank else ''}"
            f"{' critical' if results[i].critical else ''} → eliminates "
            f"{percent(evasion_odds(results[i], target.experience)['eliminated'])}"
            for i in hits
        )
        raise DecisionRequired(
            Decision(
                key=f"best_shot:{target.name}",
                rule="6.1",
                prompt=msg(
                    "Several shots on %(name)s succeeded; pick the best one (%(described)s)",
                    name=pbl.soldier_name(target.name),
                    described=described,
                ),
                options=tuple(hits),
                chooser="firing player",
            )
        )
    if choice not in hits:
        raise RuleError(
            msg(
                "shot #%(choice)s did not succeed; choose one of %(hits)s", choice=choice, hits=hits
            ),
            rule="6.1",
        )
    return results[choice]


def resolve_shot_evasion(result: ShotResult, target: Target, dice: DiceSource) -> EvasionResult:
    """The target's single evasion against a successful (best) shot, or hitting the dirt."""
    if not result.success:
        raise RuleError(msg("a missed shot needs no evasion"), rule="6.1")
    odds = evasion_odds(result, target.experience)
    dirt_ok = not result.point_blank
    ex = Explanation()
    odds_text = ", ".join(f"{k} {percent(p)}" for k, p in odds.items() if p)
    if wants_hit_the_dirt(target, against="this shot", allowed=dirt_ok, odds=odds_text):
        cost = hit_the_dirt_cost(target)
        outcome: Outcome = "suppressed" if result.critical else "unharmed"
        ex.add(
            "6.2.11",
            msg(
                "%(name)s hits the dirt for %(cost)s PO",
                name=pbl.soldier_name(target.name),
                cost=cost,
            ),
            cost,
        )
        if result.critical:
            ex.add("6.2.11", msg("against a critical shot the soldier is left suppressed"), outcome)
        return EvasionResult(target.name, outcome, ex, odds, po_spent=cost)
    record = roll_3d6(dice, purpose=msg("%(target)s evades", target=target.name), rule="6.1")
    mod = evasion_modifier(target.experience)
    ex.add(
        "6.1",
        msg("evasion against %(modified)s", modified=result.modified),
        record.value,
        roll=record,
    )
    if mod:
        ex.add(
            "8.2.2",
            msg(
                "%(experience)s evasion modifier",
                experience=pbl.label(pbl.EXPERIENCES, target.experience),
            ),
            mod,
        )
    modified = record.value + mod
    outcome = shot_evasion_outcome(
        result.modified, result.point_blank, result.critical, modified, record.is_triple
    )
    if record.is_triple:
        ex.add("6.2.4", msg("triple: heroic evasion"), outcome)
    elif result.critical:
        ex.add("6.2.3", msg("critical shot not matched by a triple"), outcome)
    elif modified >= result.modified:
        ex.add(
            "6.1",
            msg(
                "evasion %(modified)s ≥ shot %(modified2)s: saved",
                modified=modified,
                modified2=result.modified,
            ),
            outcome,
        )
    elif result.point_blank:
        ex.add(
            "6.1 C",
            msg("point blank: a failed evasion eliminates whatever the difference"),
            outcome,
        )
    else:
        diff = result.modified - modified
        ex.add(
            "6.1",
            msg(
                "difference %(diff)s: %(effect)s",
                diff=diff,
                effect=msg("1-2 suppresses") if diff <= 2 else msg("3+ eliminates"),
            ),
            outcome,
        )
    return EvasionResult(
        target.name, outcome, ex, odds, roll=record, modified=modified, heroic=record.is_triple
    )


# ---------------------------------------------------------------------------------------------
# How many shots, and who may react


@dataclass(frozen=True)
class ShotAllowance:
    max_shots: int
    pa_left: int
    explanation: Explanation


def shots_allowed(
    weapon: Weapon,
    movement: Movement,
    *,
    aimed: bool = False,
    targets_within_cm: float | None = None,
    motti: bool = False,
) -> ShotAllowance:
    """Shots one activated soldier may fire after its movement (§4.3.2, §6.6 weapon rules).

    `targets_within_cm`: the farthest chosen target, which sets the assault rifle's mode.
    `motti`: a Finnish rifleman's shot after a crawl (10 FINLANDIA; PA cost unstated, DECISIONS D-21).
    """
    ex = Explanation()
    if weapon.rules & NOT_FIREARMS:
        raise RuleError(msg("%(model)s is not fired shot by shot", model=weapon.model), rule="6.6")
    pa = ex.add(
        "4.3.2",
        msg("3 PA minus the move (%(move)s)", move=msg(movement.replace("_", " "))),
        3 - MOVE_PA[movement],
    )
    if aimed:
        if not weapon.has("aim"):
            raise RuleError(msg("%(model)s has no Aim rule", model=weapon.model), rule="6.2.6")
        pa = ex.add("6.2.6", msg("aim costs 2 PA"), pa - AIM_PA)
    if pa < 0:
        raise RuleError(msg("not enough PA for that movement and aim"), rule="4.3.2")
    automatic = weapon.has("automatic") and (
        weapon.automatic_within_cm is None
        or (targets_within_cm is not None and targets_within_cm <= weapon.automatic_within_cm)
    )
    if automatic:
        cap = ex.add("6.6", msg("Automatic: up to 3 shots"), 3)
    elif weapon.has("semi_automatic"):
        cap = ex.add(
            "6.6",
            msg("Semi-automatic: 2 shots if it did not move, else 1"),
            2 if movement == "none" else 1,
        )
    else:
        cap = ex.add("6.6", msg("Bolt: one shot per activation"), 1)
    if weapon.has("cumbersome") and movement in ("double_time", "cautious"):
        cap = ex.add(
            "6.6",
            msg("Cumbersome: no shot after double time, one after a cautious move"),
            0 if movement == "double_time" else min(cap, 1),
        )
    if movement == "crawl":
        free = motti and weapon.key == "rifle"
        ex.add(
            "10 FINLANDIA" if free else "4.3.2",
            "MOTTI: one rifle shot after the crawl" if free else "a crawl uses all 3 PA",
            int(free),
        )
        return ShotAllowance(int(free), 0, ex)
    shots = ex.add("4.3.2", msg("each shot costs 1 PA"), min(cap, pa))
    return ShotAllowance(shots, pa - shots, ex)


def restricted_reaction_allowed(distance_cm: float, target_in_cover: bool) -> bool:
    """After a crawl, aim + shot, an M7 shot or a MOTTI shot, only enemies ≤20 cm away, or
    farther with the target out of cover, may react (§5, §6.2.6, 10 ESTADOS UNIDOS)."""
    return distance_cm <= RESTRICTED_REACTION_CM or not target_in_cover


def reaction_shots(
    *,
    suppressed: bool,
    marked: bool,
    target_moved_or_attacked: bool = True,
    mg_team: Literal["gunner", "assistant"] | None = None,
) -> int:
    """Reaction shots one enemy in LOS and range may fire at a just-activated soldier (§6.2.8).

    Suppressed or marked soldiers cannot react (§6.2.7); a soldier that only returned to
    action, gave orders or inspired draws none. An assisted MG fires 2 (1 when marked) and
    its assistant none (§8.1.3).
    """
    if suppressed or not target_moved_or_attacked or mg_team == "assistant":
        return 0
    if mg_team == "gunner":
        return 1 if marked else 2
    return 0 if marked else 1
