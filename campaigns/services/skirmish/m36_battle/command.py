"""Orders to a unit of mine in a "1936" battle (V, XI): move (marks the action), prolonged
actions (Atrincherarse, Observación, Reorganización; Reagrupamiento by a Líder), Cuerpo a
tierra as a reaction, voluntary retreat and its end, and the command coherence check (V.2)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.models import SkirmishBattle, SkirmishEvent
from campaigns.rosters.engine import M1936
from campaigns.services.skirmish.common import engine_errors, log_event, playing
from campaigns.services.skirmish.m36_battle import state as st
from rules.explain import Explanation
from rules.i18n import msg
from rules.m1936 import command as cmd
from rules.m1936.turn import Phase
from rules.m1936.units import PROLONGED, begin_retreat, end_retreat

MOVE, TO_GROUND, RETREAT, END_RETREAT = "move", "cuerpo_a_tierra", "retreat", "end_retreat"
ORDERS = (MOVE, *PROLONGED, TO_GROUND, RETREAT, END_RETREAT)
ORDER_WORDS = {
    MOVE: msg("moves"),
    "Atrincherarse": msg("starts Atrincherarse"),
    "Observación": msg("starts Observación"),
    "Reorganización": msg("starts Reorganización"),
    "Reagrupamiento": msg("starts Reagrupamiento"),
    TO_GROUND: msg("goes Cuerpo a tierra"),
    RETREAT: msg("retreats voluntarily"),
    END_RETREAT: msg("reaches cover: the retreat ends"),
}
ORDER_RULES = {MOVE: cmd.ACTION_RULE, TO_GROUND: cmd.REACTION_RULE, RETREAT: "M36-XI.3"}


def _refuse(field: str, exp: Explanation) -> None:
    step = exp.steps[-1]
    raise ValidationError({field: [f"[{step.rule}] {say(step.text)}"]})


def m36_order(
    *, battle: SkirmishBattle, actor, unit: str, order: str, in_command: bool
) -> SkirmishEvent:
    """One order to a unit of mine; actions need my phase and coherence (V.2–3), Cuerpo a
    tierra is a reaction of an unmarked unit (V.4)."""
    if order not in ORDERS:
        raise ValidationError({"order": [_("Choose an order.")]})
    with playing(battle, actor, M1936) as (battle, side):
        st.require_set_up(side, "unit")
        if (battle.play or {}).get("broken") is not None:
            raise ValidationError({"__all__": [_("A side has broken: the battle is over (XI.7).")]})
        o = st.options(battle)
        units = st.units_of(side)
        u = st.unit_of(units, unit, "unit")
        turn = st.turn_of(battle)
        exp = Explanation()
        with engine_errors("order"):
            if order == TO_GROUND:
                ok, exp = cmd.can_react(u)
                if not ok:
                    _refuse("unit", exp)
                u = cmd.mark_reacted(u, to_ground=True)
            elif order == END_RETREAT:
                u = end_retreat(u)
            else:
                if turn.phase is Phase.END:
                    raise ValidationError(
                        {"order": [_("Units act in the attack or defence phase.")]}
                    )
                owner = st.attacker_index(list(battle.sides.all()))
                acting = owner if turn.phase is Phase.ATTACK else 1 - owner
                if order == RETREAT:
                    u = begin_retreat(u)
                    exp.add("M36-XI.3", msg("voluntary retreat to cover"), True)
                ok, check = cmd.can_act(
                    u, phase_owner=acting == side.index, in_command=in_command, options=o.command
                )
                exp.extend(check)
                if not ok:
                    _refuse("unit", exp)
                if order in PROLONGED:
                    u, started = cmd.start_prolonged(u, order, options=o.command)
                    exp.extend(started)
                else:
                    u = cmd.mark_acted(u)
        units[unit] = u
        st.save_units(side, units)
        return log_event(
            battle,
            kind=SkirmishEvent.Kind.EVENT,
            summary=msg("%(u)s %(o)s", u=st.shown(u, own=False), o=ORDER_WORDS[order]),
            actor=actor,
            rule=ORDER_RULES.get(order, "M36-V.5"),
            data={"explanation": exp.as_list(), "unit": unit, "order": order},
            private_to=side if not u.revealed else None,
        )


def m36_command_check(
    *,
    battle: SkirmishBattle,
    actor,
    unit: str,
    officer: str,
    officer_distances: dict[str, float],
    links: list[tuple[str, str, float]],
) -> SkirmishEvent:
    """Whether `unit` is in `officer`'s command coherence (V.2, T33), from the distances the
    players measured; the officer must have the rule the battle's reading names."""
    with playing(battle, actor, M1936) as (battle, side):
        st.require_set_up(side, "unit")
        o = st.options(battle)
        units = st.units_of(side)
        target = st.unit_of(units, unit, "unit")
        chief = st.unit_of(units, officer, "officer")
        for key in [*officer_distances, *(k for a, b, _cm in links for k in (a, b))]:
            st.unit_of(units, key, "links")
        exp = Explanation()
        if not cmd.gives_command(chief.rules, o.command):
            exp.add(cmd.COHERENCE_RULE, msg("the officer gives no command (reading)"), False)
            ok = False
        else:
            cm, area = cmd.influence_cm(chief.rules)
            exp.extend(area)
            blocked = [k for k, u in units.items() if cmd.blocks_chain(u, o.command)]
            ok, chain = cmd.in_command(
                unit,
                officer_distances=officer_distances,
                links=links,
                blocked=blocked,
                influence_cm=cm,
            )
            exp.extend(chain)
        return log_event(
            battle,
            kind=SkirmishEvent.Kind.RULE,
            summary=msg(
                "%(u)s: %(r)s",
                u=target.name,
                r=msg("in command coherence") if ok else msg("not in command coherence"),
            ),
            actor=actor,
            rule=cmd.COHERENCE_RULE,
            data={"explanation": exp.as_list(), "in_command": ok},
            private_to=side,
        )
