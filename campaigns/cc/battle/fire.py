"""A Fire Attack resolved in its two rolls on totals the players read off the table: the
attack roll on the fire group's FP [O20.3.1–O20.3.3], then each defender's Defense roll
against the Attack Total [O20.3.4]."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from campaigns.cc.battle.fields import Field
from campaigns.cc.battle.melee_cards import URBAN_SNIPER_FIRE, fire_sniper, spend_urban_sniper
from campaigns.cc.battle.rolls import KIND, TRIGGER, UNIT
from campaigns.cc.battle.spec import Context, Done, Odds, Procedure
from rules.cc.battle.fire import defense_odds
from rules.cc.battle.rolls import TRIGGER_LABELS, Trigger, distribution, roll
from rules.cc.battle.values import OUTCOME_WORDS, Outcome, outcome
from rules.dice import DiceSource
from rules.explain import Explanation
from rules.i18n import msg

ATTACK_TRIGGER_VALUES = [
    t.value for t in (Trigger.NONE, Trigger.EVENT, Trigger.JAMMED, Trigger.SNIPER, Trigger.TIME)
]
ATTACK_TRIGGERS = tuple((t, TRIGGER_LABELS[Trigger(t)]) for t in ATTACK_TRIGGER_VALUES)
ATTACK_TRIGGER = replace(TRIGGER, choices=ATTACK_TRIGGERS)
TARGET_MORALE = Field(
    "target_morale",
    msg("For the odds: a defender's Morale"),
    low=1,
    high=20,
    required=False,
    help=msg("Optional: the odds of each result against that unit, both rolls enumerated."),
)


def _attack(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    fp, sniper = inputs["fp"], fire_sniper(inputs, context)
    trigger = Trigger(inputs.get("trigger") or Trigger.NONE)
    rolled = roll(dice, purpose=msg("Fire Attack roll"), rule="O20.3.3", trigger=trigger)
    total = fp + rolled.value + sniper
    why, state = Explanation(), context.state
    if sniper:
        state = spend_urban_sniper(state, context.side, why)
    words = (
        msg(
            "Attack Total: FP %(fp)s + roll %(roll)s + Urban Sniper %(n)s = %(total)s",
            fp=fp,
            roll=rolled.value,
            n=sniper,
            total=total,
        )
        if sniper
        else msg(
            "Attack Total: FP %(fp)s + roll %(roll)s = %(total)s",
            fp=fp,
            roll=rolled.value,
            total=total,
        )
    )
    why.add("O20.3.3", words, total, roll=rolled.record)
    if trigger is Trigger.JAMMED:
        why.add("1.9.1.2", msg("Jammed!: every firing Weapon breaks; the attack stands"))
    elif trigger is not Trigger.NONE:
        why.add(
            "1.9.1",
            msg("%(trigger)s: resolve it before any Defense roll", trigger=TRIGGER_LABELS[trigger]),
        )
    return Done(
        state,
        why,
        msg("Fire Attack with FP %(fp)s: Attack Total %(total)s", fp=fp, total=total),
        (msg("Attack Total %(total)s", total=total),),
    )


def _attack_odds(inputs: Mapping[str, Any], context: Context) -> list[Odds]:
    morale, fp = inputs.get("target_morale"), inputs["fp"] + fire_sniper(inputs, context)
    if morale is None:
        return [
            Odds(msg("Attack Total %(total)s or more", total=fp + n), p)
            for n in (7, 9, 11)
            if (p := distribution().p_at_least(n))
        ]
    odds = defense_odds(attack_fp=fp, morale=morale)
    return [
        Odds(OUTCOME_WORDS[Outcome.NO_EFFECT], odds.no_effect),
        Odds(OUTCOME_WORDS[Outcome.SUPPRESSED], odds.suppressed),
        Odds(OUTCOME_WORDS[Outcome.BROKEN], odds.broken),
    ]


ATTACK = Procedure(
    key="attack",
    title=msg("Fire Attack roll"),
    rule="O20.3.3",
    fields=(
        Field(
            "fp",
            msg("FP of the fire group"),
            low=1,
            high=60,
            help=msg(
                "The base piece's FP +1 per other piece, Leaders' Command, elevation, the "
                "largest hindrance and Actions, as locked before the roll."
            ),
        ),
        TARGET_MORALE,
        ATTACK_TRIGGER,
        URBAN_SNIPER_FIRE,
    ),
    run=_attack,
    odds=_attack_odds,
    rolls=1,
    help=msg("Then each unit in the target hex makes its Defense roll against the total."),
)


def _defense(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    name, morale, attack = inputs["unit"].strip(), inputs["morale"], inputs["attack_total"]
    trigger = Trigger(inputs.get("trigger") or Trigger.NONE)
    rolled = roll(
        dice, purpose=msg("Defense roll for %(unit)s", unit=name), rule="O20.3.4", trigger=trigger
    )
    total = morale + rolled.value
    result = _outcome(inputs, context, total)
    why = Explanation()
    why.add(
        "O20.3.4",
        msg(
            "Defense Total: Morale %(morale)s + roll %(roll)s = %(total)s against %(attack)s",
            morale=morale,
            roll=rolled.value,
            total=total,
            attack=attack,
        ),
        total,
        roll=rolled.record,
    )
    why.add("O20.3.4", msg("%(unit)s: %(result)s", unit=name, result=OUTCOME_WORDS[result]))
    return Done(
        context.state,
        why,
        msg("Defense roll for %(unit)s: %(result)s", unit=name, result=OUTCOME_WORDS[result]),
        (msg("%(total)s: %(result)s", total=total, result=OUTCOME_WORDS[result]),),
    )


def _outcome(inputs: Mapping[str, Any], context: Context, defense_total: int) -> Outcome:
    return outcome(
        attack=inputs["attack_total"],
        defense=defense_total,
        broken=bool(inputs.get("broken")),
        suppressed=bool(inputs.get("suppressed")),
        moving=bool(inputs.get("moving")),
        v19=context.state.readings.v19,
    )


def _defense_odds(inputs: Mapping[str, Any], context: Context) -> list[Odds]:
    found: dict[Outcome, Any] = {}
    for value, p in distribution(modifier=inputs["morale"]).probs:
        key = _outcome(inputs, context, value)
        found[key] = found.get(key, 0) + p
    return [Odds(OUTCOME_WORDS[k], found[k]) for k in Outcome if k in found]


DEFENSE = Procedure(
    key="defense",
    title=msg("Defense roll"),
    rule="O20.3.4",
    fields=(
        Field("attack_total", msg("Attack Total"), low=2, high=80),
        UNIT,
        KIND,
        Field(
            "morale",
            msg("Its current Morale, with the best Cover"),
            low=1,
            high=20,
            help=msg("The side it shows, Leaders, Cover (never added), markers: locked now."),
        ),
        Field("broken", msg("It is broken (a break eliminates it)"), "bool", default=False),
        Field("suppressed", msg("It is Suppressed"), "bool", default=False),
        Field("moving", msg("It is activated for Move (a tie breaks it)"), "bool", default=False),
        TRIGGER,
    ),
    run=_defense,
    odds=_defense_odds,
    rolls=1,
    help=msg("Higher than the Attack Total: no effect; equal: Suppressed; lower: broken."),
)
