"""Command coherence, actions and reactions (Section V; officers XI.6; command rules III).

Each unit makes one action (in its own phase, needing command coherence) or one reaction
per turn; what it may order also depends on its morale state (XI.2 table). Distances are
measured by the players and passed in; the engine checks the rules about them.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Literal

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.m1936.army import quality_effects
from rules.m1936.data import Quality
from rules.m1936.units import (
    NORMAL,
    PANICKED,
    PINNED,
    PROLONGED,
    PROLONGED_RULE,
    RETREATING,
    STATE_RULE,
    UnitStatus,
)
from rules.serial import Serializable

COHERENCE_RULE = "M36-V.2"
ACTION_RULE = "M36-V.3"
REACTION_RULE = "M36-V.4"
INFLUENCE_RULE = "M36-XI.6"
INFLUENCE_CM = 20
LOW_LEADERSHIP_CM = 15
RADIO_CM = 20
CHAIN_CM = 20

MOVE, FIRE, PROLONGED_ACTION = "move", "fire", "prolonged"
REACTION_FIRE, GO_TO_GROUND = "reaction_fire", "cuerpo_a_tierra"
VOLUNTARY_RETREAT, FORCED_RETREAT, WITHDRAW = "voluntary_retreat", "forced_retreat", "withdraw"
REACTIONS = (REACTION_FIRE, GO_TO_GROUND)


@dataclass(frozen=True)
class CommandOptions(Serializable):
    """Readings of Section V the rulebook leaves open (each in the decisions file)."""

    command_rules: tuple[str, ...] = ("Mando",)
    chain_blocked_by: Literal["suppression", "pinned"] = "suppression"
    pinned_may_reorganise: bool = False
    disciplina_needs_comisario: bool = True
    prolonged_base_turns: int = 1
    forced_retreat_needs_command: bool = False


DEFAULT_OPTIONS = CommandOptions()


def gives_command(
    officer_rules: Collection[str], options: CommandOptions = DEFAULT_OPTIONS
) -> bool:
    """Whether an officer's rules let units act in his coherence (V.2: the Mando rule)."""
    wanted = {r.casefold() for r in options.command_rules}
    return any(r.casefold() in wanted for r in officer_rules)


def influence_cm(officer_rules: Collection[str]) -> tuple[int, Explanation]:
    """Area of influence: 20 cm, 15 with Bajo Liderazgo (XI.6), +20 with Comunicación (III)."""
    exp = Explanation()
    rules = {r.casefold() for r in officer_rules}
    low = "bajo liderazgo" in rules
    cm = exp.add(
        INFLUENCE_RULE,
        msg("officer's area of influence") if not low else msg("Bajo Liderazgo: smaller area"),
        LOW_LEADERSHIP_CM if low else INFLUENCE_CM,
    )
    if "comunicación" in rules:
        cm += exp.add("M36-III Comunicación", msg("Comunicación: +20 cm"), RADIO_CM)
    return cm, exp


def blocks_chain(u: UnitStatus, options: CommandOptions = DEFAULT_OPTIONS) -> bool:
    """A link that is suppressed or fleeing breaks a chain of command (V.2); only infantry links."""
    if (
        u.kind not in ("infantry", "individual")
        or u.state in (PANICKED, RETREATING)
        or u.out_of_play
    ):
        return True
    return u.suppression > 0 if options.chain_blocked_by == "suppression" else u.state != NORMAL


def in_command(
    unit_key: str,
    *,
    officer_distances: dict[str, float],
    links: list[tuple[str, str, float]],
    blocked: Collection[str],
    influence_cm: float = INFLUENCE_CM,
) -> tuple[bool, Explanation]:
    """V.2 (T33): within `influence_cm` of an officer giving command, or linked to one by a
    chain of infantry units less than 20 cm apart, none in `blocked` (see `blocks_chain`).

    `officer_distances`: each unit's distance to the officer; `links`: (unit, unit, cm)
    between infantry units (either order)."""
    exp = Explanation()
    direct = officer_distances.get(unit_key)
    if direct is not None and direct <= influence_cm:
        return exp.add(COHERENCE_RULE, msg("within the officer's area"), True), exp
    reached = {k for k, d in officer_distances.items() if d <= influence_cm and k not in blocked}
    exp.add(COHERENCE_RULE, msg("links in the officer's area"), sorted(reached))
    near = [(a, b) for a, b, cm in links if cm < CHAIN_CM]
    frontier = set(reached)
    while frontier:
        grown = set()
        for a, b in near:
            for x, y in ((a, b), (b, a)):
                if x in frontier and y == unit_key:
                    exp.add(
                        COHERENCE_RULE, msg("linked by a chain of units under 20 cm apart"), True
                    )
                    return True, exp
                if x in frontier and y not in reached and y not in blocked:
                    grown.add(y)
        reached |= grown
        frontier = grown
    return exp.add(COHERENCE_RULE, msg("no chain of command reaches the unit"), False), exp


def allowed_orders(u: UnitStatus) -> tuple[str, ...]:
    """Orders allowed by the morale state (XI.2 table; retreat XI.3; vehicle crews XI.5)."""
    if u.out_of_play:
        return ()
    if u.state == PANICKED:
        return (FORCED_RETREAT,)
    if u.state == RETREATING:
        return (VOLUNTARY_RETREAT,)
    if u.state == PINNED:
        return (WITHDRAW,) if u.kind == "vehicle" else (GO_TO_GROUND, VOLUNTARY_RETREAT)
    if u.kind == "vehicle":
        return (MOVE, FIRE, PROLONGED_ACTION, REACTION_FIRE)
    return (MOVE, FIRE, PROLONGED_ACTION, REACTION_FIRE, GO_TO_GROUND)


def _marked(u: UnitStatus, exp: Explanation, rule: str) -> bool:
    if u.acted or u.reacted:
        exp.add(rule, msg("already acted or reacted this turn"), False)
        return True
    return False


def can_act(
    u: UnitStatus,
    *,
    phase_owner: bool,
    in_command: bool,
    options: CommandOptions = DEFAULT_OPTIONS,
) -> tuple[bool, Explanation]:
    """One action a turn, in its own phase, in command coherence (V.2–3); Panicked units
    retreat without it unless `options.forced_retreat_needs_command`."""
    exp = Explanation()
    actions = [o for o in allowed_orders(u) if o not in REACTIONS]
    if not phase_owner:
        return exp.add(ACTION_RULE, msg("units act only in their own phase"), False), exp
    if _marked(u, exp, ACTION_RULE):
        return False, exp
    if not actions:
        return exp.add(STATE_RULE, msg("%(state)s: no action allowed", state=u.state), False), exp
    needs = actions != [FORCED_RETREAT] or options.forced_retreat_needs_command
    if needs and not in_command:
        return exp.add(COHERENCE_RULE, msg("not in command coherence: may only react"), False), exp
    return exp.add(ACTION_RULE, msg("may act"), True), exp


def can_react(u: UnitStatus) -> tuple[bool, Explanation]:
    """Any unmarked unit may react, in coherence or not (V.4), if its state allows a reaction."""
    exp = Explanation()
    if _marked(u, exp, REACTION_RULE):
        return False, exp
    if not any(o in REACTIONS for o in allowed_orders(u)):
        return exp.add(STATE_RULE, msg("%(state)s: no reaction allowed", state=u.state), False), exp
    return exp.add(REACTION_RULE, msg("may react"), True), exp


def mark_acted(u: UnitStatus) -> UnitStatus:
    """The "accionada" marker after an action (V.3)."""
    if u.acted or u.reacted:
        raise RuleError(
            msg("%(name)s already acted or reacted this turn", name=u.name), rule=ACTION_RULE
        )
    return replace(u, acted=True)


def mark_reacted(u: UnitStatus, *, to_ground: bool = False) -> UnitStatus:
    """The "reaccionada" marker (V.4); Cuerpo a tierra makes the unit prone until phase end."""
    ok, _ = can_react(u)
    if not ok or (to_ground and GO_TO_GROUND not in allowed_orders(u)):
        raise RuleError(msg("%(name)s cannot react now", name=u.name), rule=REACTION_RULE)
    return replace(u, reacted=True, prone=u.prone or to_ground)


def start_prolonged(
    u: UnitStatus, action: str, *, options: CommandOptions = DEFAULT_OPTIONS
) -> tuple[UnitStatus, Explanation]:
    """Begin a prolonged action (V.5): it takes the unit's action for the turn; it lasts
    `options.prolonged_base_turns` ± the quality's turns (II), at least one turn."""
    exp = Explanation()
    if action not in PROLONGED:
        raise RuleError(
            msg("unknown prolonged action %(action)s", action=str(action)), rule=PROLONGED_RULE
        )
    if action == "Reagrupamiento" and not u.has_rule("Líder"):
        raise RuleError(msg("only an officer with Líder regroups"), rule="M36-III Líder")
    allowed = u.state == NORMAL or (
        u.state == PINNED and action == "Reorganización" and options.pinned_may_reorganise
    )
    if not allowed:
        raise RuleError(
            msg(
                "%(state)s %(name)s cannot start %(action)s",
                state=u.state,
                name=u.name,
                action=action,
            ),
            rule=STATE_RULE,
        )
    u = mark_acted(u)
    base = exp.add(
        PROLONGED_RULE, msg("prolonged action base length (turns)"), options.prolonged_base_turns
    )
    extra = exp.add(
        "M36-II",
        msg("quality modifies the length"),
        quality_effects(Quality(u.quality)).prolonged_turns,
    )
    turns = exp.add(PROLONGED_RULE, msg("turns to complete (at least 1)"), max(1, base + extra))
    return replace(u, prolonged=action, prolonged_turns_left=turns), exp


def granted_fanatico(
    u: UnitStatus,
    *,
    disciplina_in_area: bool = False,
    disciplina_ferrea_short_range: bool = False,
    options: CommandOptions = DEFAULT_OPTIONS,
) -> tuple[bool, Explanation]:
    """Fanático granted by an officer: Disciplina in its command area (to Comisario units
    by default), Disciplina Férrea at short range (III). Pass the key to `end_of_turn`."""
    exp = Explanation()
    if disciplina_ferrea_short_range:
        return exp.add(
            "M36-III Disciplina Férrea", msg("Disciplina Férrea at short range"), True
        ), exp
    if disciplina_in_area and (u.has_rule("Comisario") or not options.disciplina_needs_comisario):
        return exp.add(
            "M36-III Disciplina", msg("Disciplina in the officer's command area"), True
        ), exp
    if disciplina_in_area:
        exp.add(
            "M36-III Comisario", msg("only units with Comisario benefit from Disciplina"), False
        )
        return False, exp
    return exp.add("M36-III Disciplina", msg("no officer grants Fanático"), False), exp
