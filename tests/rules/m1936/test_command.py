"""Command coherence, actions and reactions (M36-V.2–V.5, XI.6, III command rules; T33)."""

from dataclasses import replace

import pytest

from rules.errors import RuleError
from rules.m1936.command import (
    FORCED_RETREAT,
    GO_TO_GROUND,
    VOLUNTARY_RETREAT,
    WITHDRAW,
    CommandOptions,
    allowed_orders,
    blocks_chain,
    can_act,
    can_react,
    gives_command,
    granted_fanatico,
    in_command,
    influence_cm,
    mark_acted,
    mark_reacted,
    start_prolonged,
)
from rules.m1936.data import Faction, catalogue
from rules.m1936.units import new_status, take_fire, take_vehicle_damage

NAT, REP = Faction.NACIONALES, Faction.REPUBLICANOS


def unit(name="Sección Infantería de Línea", quality="Regulares", faction=NAT):
    profile = catalogue().profile(faction, name)
    cap = 0 if profile.category.value == "tank" else 6
    return new_status(key=name, name=name, profile=profile, quality=quality, casualty_capacity=cap)


@pytest.mark.parametrize(
    ("blocked", "expected"), [(set(), True), ({"link"}, False)], ids=["linked", "link-suppressed"]
)
def test_T33_M36_V_2_chain_of_command(blocked, expected):
    ok, exp = in_command(
        "far",
        officer_distances={"far": 25, "link": 15},
        links=[("link", "far", 15)],
        blocked=blocked,
    )
    assert ok is expected and len(exp) >= 1


def test_M36_V_2_distances_at_the_limits():
    assert in_command("u", officer_distances={"u": 20}, links=[], blocked=set())[0]
    assert not in_command("u", officer_distances={"u": 20.5}, links=[], blocked=set())[0]
    ring = {"a": 10, "u": 45}
    assert not in_command("u", officer_distances=ring, links=[("a", "u", 20)], blocked=set())[0]
    long_chain = [("a", "b", 19), ("b", "c", 19), ("c", "u", 19.9)]
    assert in_command("u", officer_distances=ring, links=long_chain, blocked=set())[0]
    assert not in_command("u", officer_distances=ring, links=long_chain, blocked={"b"})[0]
    assert in_command("u", officer_distances={"u": 38}, links=[], blocked=set(), influence_cm=40)[0]


def test_M36_XI_6_area_of_influence():
    assert influence_cm(["Líder"])[0] == 20
    assert influence_cm(["Bajo Liderazgo"])[0] == 15
    assert influence_cm(["Mando", "Comunicación"])[0] == 40
    assert influence_cm(["Bajo Liderazgo", "Comunicación"])[0] == 35


def test_M36_V_2_only_mando_gives_command_by_default():
    officer = catalogue().profile(NAT, "Oficial")
    assert not gives_command(officer.rule_levels())
    assert gives_command(["Mando"])
    assert gives_command(officer.rule_levels(), CommandOptions(command_rules=("Mando", "Líder")))


def test_M36_V_2_suppressed_or_fleeing_links_block():
    u = unit()
    assert not blocks_chain(u)
    pinned = take_fire(u, suppression=6, casualties=0).unit
    assert blocks_chain(pinned)
    lightly = take_fire(u, suppression=1, casualties=0).unit
    assert blocks_chain(lightly) and not blocks_chain(
        lightly, CommandOptions(chain_blocked_by="pinned")
    )
    assert blocks_chain(unit("Panzer I Ausf A/B"))


def test_M36_XI_2_allowed_orders_table():
    u = unit()
    assert "fire" in allowed_orders(u) and "move" in allowed_orders(u)
    pinned = take_fire(u, suppression=6, casualties=0).unit
    assert allowed_orders(pinned) == (GO_TO_GROUND, VOLUNTARY_RETREAT)
    panicked = take_fire(u, suppression=10, casualties=0).unit
    assert allowed_orders(panicked) == (FORCED_RETREAT,)
    crew = take_vehicle_damage(unit("Panzer I Ausf A/B"), crew_suppression=7, pe_loss=0).unit
    assert allowed_orders(crew) == (WITHDRAW,)


def test_M36_V_3_act_needs_phase_command_and_no_marker():
    u = unit()
    assert can_act(u, phase_owner=True, in_command=True)[0]
    assert not can_act(u, phase_owner=False, in_command=True)[0]
    assert not can_act(u, phase_owner=True, in_command=False)[0]
    assert not can_act(mark_acted(u), phase_owner=True, in_command=True)[0]
    assert not can_act(mark_reacted(u), phase_owner=True, in_command=True)[0]
    panicked = take_fire(u, suppression=10, casualties=0).unit
    assert can_act(panicked, phase_owner=True, in_command=False)[0]
    strict = CommandOptions(forced_retreat_needs_command=True)
    assert not can_act(panicked, phase_owner=True, in_command=False, options=strict)[0]


def test_M36_V_4_reactions():
    u = unit()
    assert can_react(u)[0]
    assert mark_reacted(u, to_ground=True).prone
    pinned = take_fire(u, suppression=6, casualties=0).unit
    assert can_react(pinned)[0]
    panicked = take_fire(u, suppression=10, casualties=0).unit
    assert not can_react(panicked)[0]
    assert not can_react(mark_acted(u))[0]
    with pytest.raises(RuleError):
        mark_reacted(mark_reacted(u))
    with pytest.raises(RuleError):
        mark_acted(mark_acted(u))


def test_M36_V_5_prolonged_actions():
    u, exp = start_prolonged(unit(quality="Verdes"), "Atrincherarse")
    assert (u.prolonged, u.prolonged_turns_left, u.acted) == ("Atrincherarse", 2, True)
    assert [s.value for s in exp if s.rule == "M36-II"] == [1]
    assert start_prolonged(unit(quality="Élite"), "Observación")[0].prolonged_turns_left == 1
    pinned = take_fire(unit(), suppression=6, casualties=0).unit
    with pytest.raises(RuleError):
        start_prolonged(pinned, "Reorganización")
    lenient = CommandOptions(pinned_may_reorganise=True)
    assert start_prolonged(pinned, "Reorganización", options=lenient)[0].prolonged
    with pytest.raises(RuleError):
        start_prolonged(unit(), "Reagrupamiento")
    officer = start_prolonged(unit("Oficial"), "Reagrupamiento")[0]
    assert officer.prolonged == "Reagrupamiento"
    with pytest.raises(RuleError):
        start_prolonged(unit(), "Cavar")


def test_M36_III_Disciplina_Comisario_Disciplina_Ferrea():
    comisario_unit = unit("Sección Milicia PCE/PSUC", faction=REP)
    plain = unit("Sección Milicia UGT/PSOE", faction=REP)
    assert granted_fanatico(comisario_unit, disciplina_in_area=True)[0]
    assert not granted_fanatico(plain, disciplina_in_area=True)[0]
    loose = CommandOptions(disciplina_needs_comisario=False)
    assert granted_fanatico(plain, disciplina_in_area=True, options=loose)[0]
    assert granted_fanatico(plain, disciplina_ferrea_short_range=True)[0]
    assert not granted_fanatico(replace(plain, rules=("Comisario",)))[0]
