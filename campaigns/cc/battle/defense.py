"""The Defense roll of a registered unit [O20.3.4, T78.3, T93, 8.2, V15, V19]: its Morale from
the counter table and the registry (broken side, Suppressed, Veteran, stacked Leaders) with the
hex's single best Cover, and the result applied to the registry; an elimination scores the
unit's VP value from the table for the opponent [7.1] and may end the battle [4.2, 6.3]."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from campaigns.cc.battle.common import unit_choices
from campaigns.cc.battle.fields import Field
from campaigns.cc.battle.group import leader_command, pacific
from campaigns.cc.battle.rolls import TRIGGER
from campaigns.cc.battle.spec import Context, Done, Odds, Procedure
from rules.cc.battle import counters, victory
from rules.cc.battle.fire import Target, TargetUnit, defend
from rules.cc.battle.registered import registered_unit, require_table
from rules.cc.battle.rolls import Trigger, distribution
from rules.cc.battle.state import UnitStatus, set_unit_status
from rules.cc.battle.terrain import (
    FORTIFICATION_COVER,
    FORTIFICATION_WORDS,
    HEXSIDE_COVER,
    TERRAIN_WORDS,
    Fortification,
    HexCover,
    Hexside,
    Terrain,
    hex_cover,
)
from rules.cc.battle.values import (
    OUTCOME_WORDS,
    ZERO_COVER,
    Outcome,
    Unit,
    WeaponKind,
    current_values,
    outcome,
)
from rules.dice import DiceSource
from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg

TERRAINS = tuple((t.value, TERRAIN_WORDS[t]) for t in Terrain)
TERRAIN_VALUES = [t.value for t in Terrain]
FORTIFICATIONS = (
    ("", msg("none")),
    *((f.value, FORTIFICATION_WORDS[f]) for f in (*FORTIFICATION_COVER, Fortification.WIRE)),
)
HEXSIDES = (("", msg("none")), *((h.value, HEXSIDE_COVER[h][2]) for h in Hexside))
ZERO_CHOICES = (
    ("", msg("neither")),
    *((k.value, words) for k, words in ZERO_COVER.items()),
)


@dataclass(frozen=True)
class _Defender:
    unit_id: str
    unit: Unit
    target: Target
    options: dict[str, Any]


def _defender(inputs: Mapping[str, Any], context: Context) -> _Defender:
    state, table = context.state, require_table(context.counters)
    unit_id = (inputs.get("unit") or "").strip()
    unit = registered_unit(state, table, unit_id)
    nationality = state.units[unit_id].nationality
    stacked = [w.strip() for w in (inputs.get("leaders") or "").replace(",", ";").split(";")]
    if unit_id in stacked:
        raise RuleError(msg("a Leader never adds his Command to himself"), rule="3.3.1.2")
    leaders = tuple(leader_command(who, nationality, context) for who in stacked if who)
    figures = inputs.get("figures") or unit.figures
    if figures < unit.figures:
        raise RuleError(
            msg("the hex holds at least the %(n)s figures of this unit", n=unit.figures), rule="8.2"
        )
    ground = HexCover(
        terrain=Terrain(inputs.get("terrain") or Terrain.OPEN_GROUND),
        cover=inputs.get("cover"),
        fortification=Fortification(inputs["fortification"])
        if inputs.get("fortification")
        else None,
        road=bool(inputs.get("road")),
        hexside_crossed=Hexside(inputs["hexside"]) if inputs.get("hexside") else None,
    )
    zero = inputs.get("zero_cover")
    options = {
        "vs_mortar_or_artillery": bool(inputs.get("vs_mortar")),
        "zero_cover": ZERO_COVER[WeaponKind(zero)] if zero else None,
        "overstack_cover": state.readings.overstack_cover,
        "v19": state.readings.v19,
        "pacific": pacific(context),
        "concealment": bool(inputs.get("concealment")),
    }
    target = Target(
        (TargetUnit(unit, moving=bool(inputs.get("moving"))),),
        ground=ground,
        other_leader_commands=leaders,
        other_figures=figures - unit.figures,
    )
    return _Defender(unit_id, unit, target, options)


def _defense_odds(inputs: Mapping[str, Any], context: Context) -> list[Odds]:
    d = _defender(inputs, context)
    o = d.options
    cover = hex_cover(
        ground=d.target.ground,
        figures=d.unit.figures + d.target.other_figures,
        vs_mortar_or_artillery=o["vs_mortar_or_artillery"],
        zero_cover=o["zero_cover"],
        overstack_cover=o["overstack_cover"],
    )
    morale = current_values(
        unit=d.unit,
        leader_commands=d.target.other_leader_commands,
        wire=d.target.ground.fortification is Fortification.WIRE,
        cover=cover,
    ).morale
    attack = inputs["attack_total"] - (cover.value if o["concealment"] else 0)
    found: dict[Outcome, Fraction] = {}
    for value, p in distribution(modifier=morale).probs:
        key = outcome(
            attack=attack,
            defense=value,
            broken=d.unit.broken,
            suppressed=d.unit.suppressed,
            moving=d.target.units[0].moving,
            v19=o["v19"],
            pacific=o["pacific"],
        )
        found[key] = found.get(key, Fraction(0)) + p
    words = msg(
        "%(name)s: Morale %(m)s with Cover %(c)s", name=d.unit.name, m=morale, c=cover.value
    )
    return [Odds(words, Fraction(1))] + [
        Odds(OUTCOME_WORDS[k], found[k]) for k in Outcome if k in found
    ]


def _unit_defense(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    d = _defender(inputs, context)
    trigger = Trigger(inputs.get("trigger") or Trigger.NONE)
    result = defend(
        attack_total=inputs["attack_total"],
        target=d.target,
        dice=dice,
        triggers=(trigger,),
        **d.options,
    )
    done = result.units[0]
    state, why = context.state, Explanation(list(result.explanation))
    if done.outcome is Outcome.ELIMINATED:
        counter = state.units[d.unit_id]
        kind = counters.unit_type(
            require_table(context.counters), counter.nationality, counter.name
        )
        state, steps = victory.eliminate_unit(state, vp_value=kind.vp, unit_id=d.unit_id)
        why.extend(steps)
    elif done.outcome is not Outcome.NO_EFFECT:
        status = UnitStatus.BROKEN if done.unit.broken else None
        state, steps = set_unit_status(
            state, unit_id=d.unit_id, status=status, suppressed=done.unit.suppressed
        )
        why.extend(steps)
    words = OUTCOME_WORDS[done.outcome]
    return Done(
        state,
        why,
        msg("Defense roll for %(unit)s: %(result)s", unit=d.unit.name, result=words),
        (msg("%(total)s: %(result)s", total=done.total, result=words),),
    )


UNIT_DEFENSE = Procedure(
    key="unit_defense",
    title=msg("Defense roll of a registered unit"),
    rule="O20.3.4",
    fields=(
        Field("attack_total", msg("Attack Total"), low=2, high=80),
        Field("unit", msg("Unit"), "choice", choices=unit_choices),
        Field(
            "terrain", msg("Terrain of its hex"), "choice", choices=TERRAINS, default="open_ground"
        ),
        Field(
            "cover",
            msg("Cover of module terrain (instead of the terrain's)"),
            low=-10,
            high=10,
            required=False,
        ),
        Field(
            "fortification",
            msg("Fortification in its hex"),
            "choice",
            choices=FORTIFICATIONS,
            default="",
            required=False,
        ),
        Field("road", msg("A Road in its hex"), "bool", default=False),
        Field(
            "hexside",
            msg("Hexside the attack crossed entering the hex"),
            "choice",
            choices=HEXSIDES,
            default="",
            required=False,
        ),
        Field("vs_mortar", msg("The attack is a mortar's or Artillery's"), "bool", default=False),
        Field(
            "zero_cover",
            msg("The attack is a Flamethrower's or a Molotov's"),
            "choice",
            choices=ZERO_CHOICES,
            default="",
            required=False,
        ),
        Field(
            "leaders",
            msg("Other Leaders in its hex (ids, “;” apart)"),
            "text",
            required=False,
            max_length=100,
        ),
        Field(
            "figures",
            msg("Friendly figures in its hex, itself included"),
            low=1,
            high=40,
            required=False,
            help=msg("For overstacking, when the table plays it."),
        ),
        Field("moving", msg("It is activated for Move (a tie breaks it)"), "bool", default=False),
        Field(
            "concealment",
            msg("Concealment played: the Attack Total drops by the Cover"),
            "bool",
            default=False,
        ),
        TRIGGER,
    ),
    run=_unit_defense,
    odds=_defense_odds,
    rolls=1,
    help=msg("Morale from the counter table and the registry; the result goes on the registry."),
)
