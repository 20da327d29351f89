"""Fire from afar and the ground's hazards: the Targeting Roll of mortars and guns [O20.2.3,
V7], a Radio barrage's Spotting Round and Impact rolls [O18.2.2–O18.2.3, T99, V6] and Mines
attacks [F103, A35.2]. The units hit are typed with their Morale (lines.py); tracked with
every unit, by their registry id, and the results go onto the registry and the VP track."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from campaigns.cc.battle import lines
from campaigns.cc.battle.common import WHOSE, acting_side
from campaigns.cc.battle.fields import Field
from campaigns.cc.battle.spec import Context, Done, Odds, Procedure
from rules.cc.battle import artillery, mines
from rules.cc.battle.fire import DefenseResult, Target, TargetUnit, defend
from rules.cc.battle.rolls import distribution
from rules.cc.battle.terrain import (
    FORTIFICATION_WORDS,
    TERRAIN_WORDS,
    Fortification,
    HexCover,
    Terrain,
    hex_cover,
)
from rules.cc.battle.values import OUTCOME_WORDS, Outcome, outcome
from rules.dice import DiceSource
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg, nmsg

SHOT_WORDS = {
    artillery.Shot.HIT: msg("hit"),
    artillery.Shot.MISS: msg("miss"),
    artillery.Shot.SHORT: msg("short"),
    artillery.Shot.LONG: msg("long"),
}

# ------------------------------------------------------------------ Targeting Roll [O20.2.3]


def _targeting(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    readings = context.state.readings
    shot = artillery.targeting_roll(
        distance=inputs["distance"],
        dice=dice,
        hindrance=inputs.get("hindrance") or 0,
        v7_short_long=readings.v7_short_long,
        weapon_range=inputs.get("weapon_range") or 0,
        v7_by_distance=readings.v7_by_distance,
    )
    words = SHOT_WORDS[shot.shot]
    return Done(
        context.state,
        shot.explanation,
        msg("Targeting Roll at %(n)s hexes: %(result)s", n=inputs["distance"], result=words),
        (msg("%(product)s: %(result)s", product=shot.product, result=words),),
    )


def _targeting_odds(inputs: Mapping[str, Any], context: Context) -> list[Odds]:
    distance, hindrance = inputs["distance"], inputs.get("hindrance") or 0
    p = artillery.hit_odds(distance=distance, hindrance=hindrance)
    odds = [Odds(msg("hit"), p), Odds(msg("miss"), 1 - p)]
    if inputs.get("fp") and inputs.get("target_morale"):
        after = artillery.artillery_odds(
            distance=distance, fp=inputs["fp"], morale=inputs["target_morale"], hindrance=hindrance
        )
        odds += [
            Odds(msg("the defender is Suppressed"), after.suppressed),
            Odds(msg("the defender breaks"), after.broken),
        ]
    return odds


TARGETING = Procedure(
    key="targeting",
    title=msg("Targeting Roll (mortars and guns)"),
    rule="O20.2.3",
    fields=(
        Field("distance", msg("Hexes to the target"), low=1, high=40),
        Field(
            "hindrance", msg("Largest hindrance on the line of sight"), low=0, high=10, default=0
        ),
        Field(
            "weapon_range",
            msg("Range printed on the Weapon (for a short or long miss)"),
            low=0,
            high=40,
            required=False,
        ),
        Field(
            "fp",
            msg("For the odds: the Weapon's FP"),
            low=1,
            high=30,
            required=False,
        ),
        Field(
            "target_morale",
            msg("For the odds: a defender's Morale with Cover"),
            low=1,
            high=20,
            required=False,
        ),
    ),
    run=_targeting,
    odds=_targeting_odds,
    rolls=1,
    help=msg("The dice are multiplied; less the hindrance, above the distance hits."),
)

# ------------------------------------------------------------- Radio barrage [O18.2, T99]

TERRAINS = tuple((t.value, TERRAIN_WORDS[t]) for t in Terrain)
FORTIFICATIONS = (
    ("", msg("none")),
    *((f.value, FORTIFICATION_WORDS[f]) for f in Fortification if f is not Fortification.MINES),
)
UNITS = Field(
    "units",
    msg("Units in the hex, one per line: name; Morale without Cover"),
    "lines",
    required=False,
    max_length=2000,
    help=lines.LINES_HELP,
)


def _ground(inputs: Mapping[str, Any]) -> HexCover:
    fort = inputs.get("fortification") or None
    return HexCover(
        terrain=Terrain(inputs.get("terrain") or Terrain.OPEN_GROUND),
        cover=inputs.get("cover"),
        fortification=Fortification(fort) if fort else None,
    )


def _target(group: tuple[lines.Entry, ...], ground: HexCover) -> Target:
    return Target(tuple(TargetUnit(e.unit, moving=e.moving) for e in group), ground)


def _results(group, defense: DefenseResult):
    return [(e, d.outcome, d.unit) for e, d in zip(group, defense.units, strict=True)]


def _shown(group, defense: DefenseResult) -> tuple[Msg, ...]:
    return tuple(
        msg(
            "%(unit)s: %(total)s, %(result)s",
            unit=e.label,
            total=d.total,
            result=OUTCOME_WORDS[d.outcome],
        )
        for e, d in zip(group, defense.units, strict=True)
    )


def _needs(inputs: Mapping[str, Any], *names: str) -> None:
    for name in names:
        if inputs.get(name) is None:
            raise RuleError(
                msg("%(what)s is needed for this step", what=ARTILLERY_LABELS[name]),
                rule="O18.2",
            )


def _spot(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    _needs(inputs, "distance")
    found = artillery.accuracy(
        distance=inputs["distance"], dice=dice, hindrance=inputs.get("hindrance") or 0
    )
    words = SHOT_WORDS[found.targeting.shot]
    moves = [
        nmsg(
            "%(n)s hex in direction %(dir)s",
            "%(n)s hexes in direction %(dir)s",
            hexes,
            dir=direction,
        )
        for direction, hexes in found.drift.moves
    ]
    shown = (
        msg("Accuracy %(product)s: %(result)s", product=found.targeting.product, result=words),
        msg("the Spotting Round drifts: %(moves)s", moves=moves),
    )
    return Done(
        context.state,
        found.explanation,
        msg("Spotting Round: %(result)s, drifts %(moves)s", result=words, moves=moves),
        shown,
    )


def _groups(inputs: Mapping[str, Any], context: Context) -> list[tuple[lines.Entry, ...]]:
    """The units of the hex, each side's apart (the side named first, then the other)."""
    side = acting_side(inputs, context)
    return [
        lines.entries(text, context, owner, reads="morale", rule="O18.2.3.2")
        for owner, key in ((side, "units"), (side.other, "other_units"))
        if (text := inputs.get(key) or "").strip()
    ]


def _impact(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    """One Impact roll on the hex; each side's units then make their Defense rolls against
    its total, the first side's inside `impact_roll`, the other's after it [O18.2.3.2]."""
    _needs(inputs, "radio_fp")
    readings = context.state.readings
    groups = _groups(inputs, context) or [()]
    ground = _ground(inputs)
    hit = artillery.impact_roll(
        radio_fp=inputs["radio_fp"],
        target=_target(groups[0], ground),
        dice=dice,
        vulnerability=inputs.get("vulnerability"),
        v6_water=readings.v6_water,
        overstack_cover=readings.overstack_cover,
        v19=readings.v19,
    )
    why = Explanation(list(hit.explanation))
    if hit.fortification_destroyed:
        ground = replace(ground, fortification=None)
    defenses = [hit.defense]
    for group in groups[1:]:
        defenses.append(
            defend(
                attack_total=hit.total,
                target=_target(group, ground),
                dice=dice,
                vs_mortar_or_artillery=True,
                overstack_cover=readings.overstack_cover,
                v19=readings.v19,
            )
        )
        why.extend(defenses[-1].explanation)
    results = [r for g, d in zip(groups, defenses, strict=True) for r in _results(g, d)]
    state, applied = lines.apply(context.state, results)
    why.extend(applied)
    shown = tuple(m for g, d in zip(groups, defenses, strict=True) for m in _shown(g, d))
    if hit.fortification_destroyed:
        shown = (msg("the Fortification is destroyed"), *shown)
    return Done(
        state,
        why,
        msg("Artillery Impact %(total)s: %(results)s", total=hit.total, results=list(shown)),
        (msg("Impact Total %(total)s", total=hit.total), *shown),
    )


def _artillery(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    return (_spot if inputs.get("step") == "spot" else _impact)(inputs, dice, context)


def _unit_odds(inputs, context: Context, group, i: int, covers: dict[bool, int]) -> list[Odds]:
    """One unit's chance of each result, the Impact and Defense rolls enumerated."""
    readings, entry = context.state.readings, group[i]
    ground = _ground(inputs)
    mod, _steps = artillery.attack_total_modifier(
        target=Target((), ground), v6_water=readings.v6_water
    )
    morale = lines.current(group, i).morale
    found = dict.fromkeys(Outcome, Fraction(0))
    for value, p in distribution().probs:
        lost = bool(ground.fortification) and value == inputs.get("vulnerability")
        for defense, q in distribution(modifier=morale + covers[lost]).probs:
            key = outcome(
                attack=inputs["radio_fp"] + value + mod,
                defense=defense,
                broken=entry.unit.broken,
                suppressed=entry.unit.suppressed,
                moving=entry.moving,
                v19=readings.v19,
            )
            found[key] += p * q
    return [
        Odds(msg("%(unit)s: %(result)s", unit=entry.label, result=OUTCOME_WORDS[k]), found[k])
        for k in Outcome
        if k is not Outcome.NO_EFFECT and found[k]
    ]


def _impact_odds(inputs: Mapping[str, Any], context: Context) -> list[Odds]:
    """Each unit's chances; an Impact roll equal to the vulnerability number takes the
    Fortification's Cover away before the Defense rolls [O18.2.3.3]."""
    ground = _ground(inputs)
    odds = []
    for group in _groups(inputs, context):
        figures = sum(e.unit.figures for e in group)
        covers = {
            lost: hex_cover(
                ground=replace(ground, fortification=None) if lost else ground,
                figures=figures,
                vs_mortar_or_artillery=True,
                overstack_cover=context.state.readings.overstack_cover,
            ).value
            for lost in (False, True)
        }
        for i in range(len(group)):
            odds += _unit_odds(inputs, context, group, i, covers)
    return odds


def _artillery_odds(inputs: Mapping[str, Any], context: Context) -> list[Odds]:
    if inputs.get("step") == "spot":
        if inputs.get("distance") is None:
            return []
        p = artillery.hit_odds(distance=inputs["distance"], hindrance=inputs.get("hindrance") or 0)
        return [Odds(msg("on target (drifts 1 + 1 hexes)"), p), Odds(msg("off target"), 1 - p)]
    if inputs.get("radio_fp") is None or not inputs.get("units"):
        return []
    return _impact_odds(inputs, context)


ARTILLERY_FIELDS = (
    Field(
        "step",
        msg("Step"),
        "choice",
        choices=(
            ("spot", msg("Accuracy of the Spotting Round and its drift")),
            ("impact", msg("Impact roll on one hex of the impact area")),
        ),
        default="impact",
    ),
    Field(
        "distance",
        msg("Accuracy: hexes from the Observer to the Spotting Round"),
        low=1,
        high=40,
        required=False,
    ),
    Field(
        "hindrance",
        msg("Accuracy: largest hindrance on that line of sight"),
        low=0,
        high=10,
        default=0,
        required=False,
    ),
    Field("radio_fp", msg("Impact: the Radio's FP"), low=8, high=13, required=False),
    Field(
        "terrain",
        msg("Impact: terrain of the hex (Woods: airburst)"),
        "choice",
        choices=TERRAINS,
        default=Terrain.OPEN_GROUND.value,
        required=False,
    ),
    Field(
        "cover",
        msg("Impact: the terrain's Cover, if the chart has no value for it"),
        low=-2,
        high=6,
        required=False,
    ),
    Field(
        "fortification",
        msg("Impact: Fortification in the hex"),
        "choice",
        choices=FORTIFICATIONS,
        default="",
        required=False,
    ),
    Field(
        "vulnerability",
        msg("Impact: vulnerability number of the record sheet for this Radio's FP"),
        low=2,
        high=12,
        required=False,
        help=msg("An Impact roll equal to it destroys the Fortification before Defense."),
    ),
    WHOSE,
    UNITS,
    Field(
        "other_units",
        msg("Units of the other side in the same hex (a Melee hex), one per line"),
        "lines",
        required=False,
        max_length=2000,
        help=msg("They defend against the same Impact Total, with their own Leaders."),
    ),
)
ARTILLERY_LABELS = {f.name: f.label for f in ARTILLERY_FIELDS}

ARTILLERY = Procedure(
    key="artillery",
    title=msg("Artillery barrage (Radio)"),
    rule="O18.2",
    fields=ARTILLERY_FIELDS,
    run=_artillery,
    odds=_artillery_odds,
    rolls=13,
    help=msg(
        "First the Spotting Round's accuracy and drift; then one Impact roll for each hex of "
        "the impact area with a unit or a Fortification, each side's units by themselves."
    ),
)

# ------------------------------------------------------------------------- Mines [F103]


def _mines(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    readings = context.state.readings
    side = acting_side(inputs, context)
    group = lines.entries(inputs["units"], context, side, reads="morale", rule="F103.1")
    group = tuple(replace(e, moving=True) for e in group)
    attacked = mines.mine_attack(
        target=_target(group, HexCover()),
        dice=dice,
        fp=int(inputs["fp"]),
        hidden=bool(inputs.get("hidden")),
        tie_breaks_movers=readings.mine_tie_breaks_movers,
        v19=readings.v19,
    )
    done = [d for a in attacked.attacks for d in a.defense.units]
    defense = DefenseResult(tuple(done), Explanation())
    state, applied = lines.apply(context.state, _results(group, defense))
    why = Explanation(list(attacked.explanation))
    why.extend(applied)
    shown = _shown(group, defense)
    return Done(
        state,
        why,
        msg("Mines at FP %(fp)s: %(results)s", fp=inputs["fp"], results=list(shown)),
        shown,
    )


def _mines_odds(inputs: Mapping[str, Any], context: Context) -> list[Odds]:
    readings = context.state.readings
    group = lines.entries(
        inputs.get("units") or "",
        context,
        acting_side(inputs, context),
        reads="morale",
        rule="F103.1",
    )
    odds = []
    for i, entry in enumerate(group):
        found = mines.mine_odds(
            morale=lines.current(group, i).morale,
            fp=int(inputs["fp"]),
            broken=entry.unit.broken,
            suppressed=entry.unit.suppressed,
            tie_breaks_movers=readings.mine_tie_breaks_movers,
            v19=readings.v19,
        )
        odds += [
            Odds(msg("%(unit)s: %(result)s", unit=entry.label, result=OUTCOME_WORDS[k]), p)
            for k, p in (
                (Outcome.SUPPRESSED, found.suppressed),
                (Outcome.BROKEN, found.broken),
                (Outcome.ELIMINATED, found.eliminated),
            )
            if p
        ]
    return odds


MINES = Procedure(
    key="mines",
    title=msg("Mines attack"),
    rule="F103",
    fields=(
        Field(
            "fp",
            msg("FP of the minefield"),
            "choice",
            choices=tuple((str(n), msg("%(n)s", n=n)) for n in mines.MINE_FP),
            default="6",
            help=msg("6; 7 or 8 when the Defender's Fortifications say so."),
        ),
        WHOSE,
        Field(
            "units",
            msg("Units moving into or out of the hex together, one per line: name; Morale"),
            "lines",
            max_length=2000,
            help=msg(
                "Morale without Cover (Mines give Cover 0). The units already in the hex are "
                "immune. The same words as for the Impact: leader, broken, suppressed, vp N."
            ),
        ),
        Field(
            "hidden",
            msg("Hidden Mines just revealed (each unit attacked by itself)"),
            "bool",
            default=False,
        ),
    ),
    run=_mines,
    odds=_mines_odds,
    rolls=13,
    help=msg("The opponent rolls the attack at the minefield's FP; each unit its Defense."),
)
