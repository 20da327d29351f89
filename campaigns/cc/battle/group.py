"""A Fire Attack computed from the counters [O20.3.1–O20.3.3, T88, 10.3, F106, A33, V18]: the
printed values come from the battle's counter table, the markers from the registry (mode
"full") or the players' words (mode "light"); the players say only what the map shows. The
registered Weapons the roll breaks or uses up change on the registry [1.9.1.2, A41, 11.4, 11.6].
Each defender then rolls (`defense.UNIT_DEFENSE`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from campaigns.cc.battle.fields import Field
from campaigns.cc.battle.fire import ATTACK_TRIGGER, TARGET_MORALE
from campaigns.cc.battle.keywords import keywords
from campaigns.cc.battle.melee_cards import URBAN_SNIPER_FIRE, fire_sniper, spend_urban_sniper
from campaigns.cc.battle.spec import Context, Done, Odds, Procedure
from rules.cc.battle import clock
from rules.cc.battle.fire import (
    ACTION_RULES,
    Attack,
    AttackResult,
    FireAction,
    FireKind,
    OpFire,
    Piece,
    Target,
    TargetUnit,
    attack_roll,
    defense_odds,
    fire_power,
)
from rules.cc.battle.registered import (
    label,
    on_map,
    registered_unit,
    registered_weapon,
    require_table,
    table_unit,
    table_weapon,
    weapons_break,
    weapons_used_up,
)
from rules.cc.battle.rolls import TRIGGER_LABELS, Trigger, distribution
from rules.cc.battle.state import BattleMode, BattleState
from rules.cc.battle.units import LEADERS, UnitKind
from rules.cc.battle.values import (
    OUTCOME_WORDS,
    SINGLE_USE,
    Outcome,
    Printed,
    Unit,
    WeaponKind,
    current_values,
    weapon_values,
)
from rules.cc.battle.weapons import is_doubles
from rules.cc.common import Posture
from rules.dice import TWO_D6, DiceSource, Distribution
from rules.errors import RuleError
from rules.explain import DecisionRequired, Explanation
from rules.i18n import Msg, msg

FLAGS = ("broken", "suppressed", "veteran", "higher", "lower", "wire", "water")
WEAPON_KINDS = {k.value: k for k in WeaponKind if k is not WeaponKind.OTHER}
MARKERS = ("broken", "suppressed", "veteran")
SHOWN_RULES = {"O20.3.1.2", "T88.2", "10.3.3", *(rule for rule, _name in ACTION_RULES.values())}
ACTION_FIELDS = {
    FireAction.SUSTAINED_FIRE: "sustained_fire",
    FireAction.HAND_GRENADES: "hand_grenades",
    FireAction.CROSSFIRE: "crossfire",
    FireAction.MARKSMANSHIP: "marksmanship",
    FireAction.BORE_SIGHTING: "bore_sighting",
    FireAction.ENFILADE: "enfilade",
}
FIRE_KINDS: tuple[tuple[str, Msg], ...] = (
    (FireKind.FIRE.value, msg("a Fire order")),
    (FireKind.OP_FIRE.value, msg("Op Fire, during the opponent's Move")),
    (FireKind.ASSAULT_FIRE.value, msg("Assault Fire (units activated for Move)")),
)
FIRE_KIND_VALUES = [value for value, _words in FIRE_KINDS]


@dataclass
class _Options:
    """What a line says beyond the piece and its distance."""

    flags: set[str] = field(default_factory=set)
    hindrances: list[int] = field(default_factory=list)
    leaders: list[str] = field(default_factory=list)
    weapon: str = ""
    kind: WeaponKind = WeaponKind.OTHER
    hex: str = ""


@dataclass
class _Group:
    """The attack as the rules take it, and how the players named its pieces."""

    attack: Attack
    names: dict[str, str]  # what the player typed (id or counter name) -> the piece's name
    weapons: dict[str, str]  # a registered Weapon's piece name -> its id


def _line_error(n: int, text: Msg) -> RuleError:
    return RuleError(msg("line %(n)s: %(problem)s", n=n, problem=text), rule="O20.3.1")


def _options(parts: list[str], n: int) -> _Options:
    found = _Options()
    for part in parts:
        word, rest = keywords(part)
        if word in FLAGS and not rest:
            found.flags.add(word)
        elif word in WEAPON_KINDS and not rest:
            found.kind = WEAPON_KINDS[word]
        elif word == "hindrance" and rest.isdecimal() and int(rest) <= 10:
            found.hindrances.append(int(rest))
        elif word == "leader" and rest:
            found.leaders.append(rest)
        elif word in ("weapon", "hex") and rest:
            setattr(found, word, rest)
        else:
            raise _line_error(n, msg("“%(part)s” is not understood", part=part))
    if {"higher", "lower"} <= found.flags:
        raise _line_error(n, msg("the target is either higher or lower than this firer"))
    return found


def leader_command(who: str, nationality: str, context: Context) -> int:
    """A stacked Leader's current Command: typed, or the table's for the counter named (its
    registry id when tracked with every unit, its broken side's when it is broken)."""
    table, state = require_table(context.counters), context.state
    if who.isdecimal() and who not in state.units:
        return int(who)
    if state.mode is BattleMode.FULL:
        leader = registered_unit(state, table, who)
    else:
        leader = table_unit(table, nationality, who)
    if leader.kind not in LEADERS:
        raise RuleError(msg("%(name)s is not a Leader", name=leader.name), rule="3.3.1.2")
    return leader.command


def _piece(line: str, n: int, context: Context, taken: set[str]) -> tuple[Piece, str, str]:
    """One firing piece: (the piece, what names it, the registered Weapon's id or "")."""
    state, table = context.state, require_table(context.counters)
    full = state.mode is BattleMode.FULL
    parts = [p.strip() for p in line.split(";")]
    head = 1 if full else 2
    if len(parts) <= head or not parts[head].isdecimal():
        words = msg("id; distance") if full else msg("nationality; counter; distance")
        raise _line_error(n, msg("write %(form)s, then any options", form=words))
    distance, options = int(parts[head]), _options(parts[head + 1 :], n)
    where = {
        "distance": distance,
        "hex": options.hex,
        "level": 1 if "lower" in options.flags else -1 if "higher" in options.flags else 0,
        "hindrances": tuple(options.hindrances),
        "wire": "wire" in options.flags,
        "water": "water" in options.flags,
    }
    if full:
        return _registered_piece(parts[0], n, context, options, where)
    nationality, name = parts[0], parts[1]
    carried = options.weapon
    shown = _unique(carried or name, taken)
    unit = table_unit(
        table,
        nationality,
        name,
        label=name if carried else shown,
        **{m: m in options.flags for m in MARKERS},
    )
    weapon = None
    if carried:
        weapon = table_weapon(table, nationality, carried, label=shown, kind=options.kind)
    commands = tuple(leader_command(who, nationality, context) for who in options.leaders)
    piece = Piece(unit=unit, weapon=weapon, leader_commands=commands, **where)
    return piece, carried or name, ""


def _registered_piece(
    who: str, n: int, context: Context, options: _Options, where: dict
) -> tuple[Piece, str, str]:
    state, table = context.state, require_table(context.counters)
    counter = on_map(state, who)
    if counter.side is not context.side:
        raise _line_error(
            n,
            msg(
                "%(name)s belongs to the %(side)s",
                name=label(counter),
                side=state.sides[counter.side],
            ),
        )
    if options.weapon or options.flags & set(MARKERS):
        raise _line_error(
            n, msg("the registry says its markers and Weapon: name a Weapon by its id on its line")
        )
    nationality = counter.nationality
    commands = tuple(leader_command(leader, nationality, context) for leader in options.leaders)
    if counter.kind is UnitKind.WEAPON:
        weapon, carrier = registered_weapon(state, table, who, options.kind)
        piece = Piece(unit=carrier, weapon=weapon, leader_commands=commands, **where)
        return piece, who, who
    unit = registered_unit(state, table, who)
    return Piece(unit=unit, leader_commands=commands, **where), who, ""


def _unique(name: str, taken: set[str]) -> str:
    shown, k = name, 1
    while shown in taken:
        k += 1
        shown = f"{name} ({k})"
    taken.add(shown)
    return shown


def _target(inputs: Mapping[str, Any]) -> Target:
    """The target hex as the FP needs it: only whether a unit there is moving is read
    [A30, A33.1]; each defender's own values enter with its Defense roll."""
    nobody = Printed(0, 0, 0, 0)
    unit = Unit("", UnitKind.SQUAD, nobody, nobody)
    return Target((TargetUnit(unit, moving=bool(inputs.get("target_moving"))),))


def _group(inputs: Mapping[str, Any], context: Context) -> _Group:
    pieces, names, weapons, taken = [], {}, {}, set()
    for n, line in enumerate(inputs["pieces"].splitlines(), start=1):
        if not line.strip():
            continue
        piece, who, weapon_id = _piece(line, n, context, taken)
        if any(p.name == piece.name for p in pieces):
            raise _line_error(n, msg("%(name)s already fires in this attack", name=piece.name))
        pieces.append(piece)
        names[who] = piece.name
        if weapon_id:
            weapons[piece.name] = weapon_id
    base = (inputs.get("base") or "").strip()
    if base and base not in names:
        raise RuleError(msg("%(name)s is not firing", name=base), rule="O20.3.1.2")
    holder = context.state.initiative
    if inputs.get("v18") and holder is not context.side:
        raise RuleError(
            msg(
                "only its holder gives the Initiative card: the %(side)s hold it",
                side=context.state.sides[holder],
            ),
            rule="V18",
        )
    kind = FireKind(inputs.get("kind") or FireKind.FIRE)
    mp = inputs.get("mp_announced")
    attack = Attack(
        pieces=tuple(pieces),
        target=_target(inputs),
        actions=tuple(a for a, key in ACTION_FIELDS.items() for _ in range(inputs.get(key) or 0)),
        kind=kind,
        op_fire=OpFire(mp) if kind is FireKind.OP_FIRE and mp else None,
        base=names.get(base, ""),
        scenario_defender=context.state.postures[context.side] is Posture.DEFEND,
        v18_initiative=bool(inputs.get("v18")),
    )
    return _Group(attack, names, weapons)


def _fp_words(group: _Group, context: Context) -> tuple[int, Msg]:
    """The locked FP and why, in a few words: each piece, then the steps that change it."""
    veteran = context.state.readings.veteran_weapons
    power = fire_power(attack=group.attack, veteran_weapons=veteran)
    if not power.allowed:
        raise RuleError(
            msg("final FP %(fp)s: this shot cannot be made", fp=power.fp), rule="10.3.2.1"
        )
    pieces = []
    for p in group.attack.pieces:
        if p.weapon is None:
            fp = current_values(unit=p.unit, leader_commands=p.leader_commands, wire=p.wire).fp
        else:
            fp = weapon_values(
                weapon=p.weapon,
                carrier=p.unit,
                leader_commands=p.leader_commands,
                veteran_weapons=veteran,
            ).fp
        pieces.append(msg("%(name)s FP %(fp)s", name=p.name, fp=fp))
    steps = [
        msg("%(step)s → %(fp)s", step=s.text, fp=s.value)
        for s in power.explanation
        if s.rule in SHOWN_RULES and s.value is not None
    ]
    return power.fp, msg(
        "FP %(fp)s: %(pieces)s; %(steps)s", fp=power.fp, pieces=pieces, steps=steps
    )


def _group_odds(inputs: Mapping[str, Any], context: Context) -> list[Odds]:
    fp, words = _fp_words(_group(inputs, context), context)
    rows = [Odds(words, Fraction(1))]
    sniper = fire_sniper(inputs, context)
    if sniper:
        fp += sniper
        rows.append(Odds(msg("Urban Sniper: +%(n)s to the roll", n=sniper), Fraction(1)))
    if inputs.get("sustained_fire"):
        doubles = Distribution.of(TWO_D6, read=is_doubles).p_exactly(1)
        rows.append(Odds(msg("doubles: each Sustained Fire breaks an MG or mortar"), doubles))
    morale = inputs.get("target_morale")
    if morale is None:
        totals = ((fp + n, distribution().p_at_least(n)) for n in (7, 9, 11))
        return [
            *rows,
            *(Odds(msg("Attack Total %(total)s or more", total=t), p) for t, p in totals),
        ]
    readings = context.state.readings
    odds = defense_odds(attack_fp=fp, morale=morale, v19=readings.v19, pacific=pacific(context))
    found = {
        Outcome.NO_EFFECT: odds.no_effect,
        Outcome.SUPPRESSED: odds.suppressed,
        Outcome.BROKEN: odds.broken,
        Outcome.ELIMINATED: odds.eliminated,
    }
    return [*rows, *(Odds(OUTCOME_WORDS[k], p) for k, p in found.items() if p)]


def pacific(context: Context) -> bool:
    """PA-O27.3.4 is played in the Pacific module's battles."""
    return context.state.melee_rules == "pacific"


def _breaks(
    group: _Group, result: AttackResult, context: Context
) -> tuple[BattleState, Explanation]:
    """The registered Weapons the roll broke or used up, applied to the registry."""
    state, why = context.state, Explanation()
    used = {p.weapon.name for p in group.attack.pieces if p.weapon and p.weapon.kind in SINGLE_USE}
    gone = set(result.weapons_eliminated) - used
    hits = {
        group.weapons[n]: 2 if n in gone else 1
        for n in (*result.weapons_broken, *gone)
        if n in group.weapons and n not in used
    }
    if hits:
        state, steps = weapons_break(state, hits, rule="11.4")
        why.extend(steps)
    spent = tuple(group.weapons[n] for n in sorted(used) if n in group.weapons)
    if spent:
        state, steps = weapons_used_up(state, spent)
        why.extend(steps)
    return state, why


def _group_fire(inputs: Mapping[str, Any], dice: DiceSource, context: Context) -> Done:
    group = _group(inputs, context)
    fp, words = _fp_words(group, context)
    chosen = [c.strip() for c in (inputs.get("sustained_choice") or "").split(";") if c.strip()]
    try:
        result = attack_roll(
            attack=group.attack,
            dice=dice,
            trigger=Trigger(inputs.get("trigger") or Trigger.NONE),
            sustained_fire_choice=[group.names.get(c, c) for c in chosen],
            veteran_weapons=context.state.readings.veteran_weapons,
            urban_sniper=fire_sniper(inputs, context),
        )
    except DecisionRequired as need:
        options = list(need.decision.options)
        raise RuleError(
            msg("%(question)s: %(options)s", question=need.decision.prompt, options=options),
            rule=need.decision.rule,
        ) from None
    state, why = _breaks(group, result, context)
    if inputs.get("urban_sniper"):
        state = spend_urban_sniper(state, context.side, why)
    if group.attack.v18_initiative:
        state, passed = clock.pass_initiative(state, reroll=False)
        why.extend(passed)
    explanation = Explanation([*result.explanation, *why])
    shown = [msg("Attack Total %(total)s", total=result.total), words]
    if result.roll.trigger is not Trigger.NONE:
        shown.append(TRIGGER_LABELS[result.roll.trigger])
    return Done(
        state,
        explanation,
        msg("Fire Attack with FP %(fp)s: Attack Total %(total)s", fp=fp, total=result.total),
        tuple(shown),
    )


ACTION_HELP = {
    FireAction.SUSTAINED_FIRE: msg("Sustained Fire played (+2 each)"),
    FireAction.HAND_GRENADES: msg("Hand Grenades played (+2 each)"),
    FireAction.CROSSFIRE: msg("Crossfire played (+2 each)"),
    FireAction.MARKSMANSHIP: msg("Marksmanship played (+2 each)"),
    FireAction.BORE_SIGHTING: msg("Bore Sighting played (+2 each)"),
    FireAction.ENFILADE: msg("Enfilade played (+1 per extra piece)"),
}

GROUP_FIRE = Procedure(
    key="group_fire",
    title=msg("Fire Attack from the counters"),
    rule="O20.3",
    fields=(
        Field(
            "pieces",
            msg("Firing pieces, one a line"),
            "lines",
            max_length=2000,
            help=msg(
                "Tracked with every unit: “id; distance”. Otherwise: “nationality; counter; "
                "distance”. Then, separated by “;”, any of: broken, suppressed, veteran (its "
                "markers, light only), weapon NAME (its carried Weapon fires, light only), mg, "
                "mortar, flamethrower, molotov, satchel (the Weapon's kind), higher or lower "
                "(the target against this firer), hindrance N (the largest on its line of "
                "sight), leader ID, NAME or COMMAND (stacked with it), wire, water, hex NAME."
            ),
        ),
        Field(
            "kind",
            msg("Kind of fire"),
            "choice",
            choices=FIRE_KINDS,
            default="fire",
            required=False,
        ),
        Field(
            "mp_announced",
            msg("Op Fire: MP the mover announced"),
            low=1,
            high=30,
            required=False,
        ),
        Field("target_moving", msg("A unit in the target hex is moving"), "bool", default=False),
        Field(
            "v18",
            msg("Hand over the Initiative card: +1 per firing hex beyond the first (V18)"),
            "bool",
            default=False,
            help=msg("Only when the table plays V18; give each line its hex."),
        ),
        *(
            Field(key, ACTION_HELP[action], low=0, high=3, default=0, required=False)
            for action, key in ACTION_FIELDS.items()
        ),
        Field(
            "base",
            msg("Piece whose FP is the base (id or counter)"),
            "text",
            required=False,
            max_length=80,
            help=msg("Leave empty for the highest FP."),
        ),
        Field(
            "sustained_choice",
            msg("Sustained Fire on doubles: the Weapons that break"),
            "text",
            required=False,
            max_length=200,
            help=msg("Only when several MGs or mortars fire: one per Sustained Fire, “;” apart."),
        ),
        TARGET_MORALE,
        URBAN_SNIPER_FIRE,
        replace(ATTACK_TRIGGER, help=msg("Jammed! breaks every firing Weapon; the attack stands.")),
    ),
    run=_group_fire,
    odds=_group_odds,
    rolls=1,
    help=msg("The FP comes from the counter table; then each defender rolls its Defense."),
)
