"""The Combat Commander engines speak in message ids (issue 17, findings 6, 8 and 33).

Every explanation step, decision prompt and rules error the engines produce is a message
(`rules.i18n.Msg`), so the site can draw it in the reader's language; the sides are named as
the site names them (Germans, Soviets, Americans); the white die's compass direction is given
in words [2.2.2]; and a Divisional Reserve result that would bring nothing is never offered.
The Spanish texts are the catalogue's (`/tmp/es_cctext.json`, merged into locale/).
"""

from __future__ import annotations

import pytest
from django.utils import translation

from campaigns.i18n import say
from rules.cc import gastadores as gs
from rules.cc import normandy as no
from rules.cc import stalingrad as st
from rules.cc.campaign_steps import COMPASS_EDGE
from rules.cc.common import Faction, Posture
from rules.dice import EnteredDice
from rules.errors import RuleError
from rules.i18n import Msg
from tests.rules.cc.campaign_helpers import NORMANDY_TABLES, done
from tests.rules.cc.campaign_helpers import STALINGRAD_TABLES as TABLES
from tests.rules.cc.test_stalingrad_rules import after_battle, conclude

G, R = Faction.AXIS, Faction.ALLIES


def _spanish(value) -> str:
    with translation.override("es"):
        return say(value)


def _stalingrad_battle_one():
    """Forces, support and the post-battle sequence of a Stalingrad battle 1, all steps."""
    state = st.new_campaign()
    forces = st.prepare_forces(
        state, TABLES, EnteredDice([(4, 1)]), {"purchase.axis": ["C"], "purchase.allies": []}
    )
    support = st.prepare_support(
        done(forces), TABLES, {"rs7.vp_axis": -2, "rs9.cost": 0, "fortify.axis": 2}
    )
    support = st.prepare_support(
        done(forces), TABLES, {**support.state.pending.choices, "fortify.allies": 1}
    )
    return forces, support


def test_every_stalingrad_step_and_prompt_is_a_message_naming_the_sides_as_the_site_does():
    forces, support = _stalingrad_battle_one()
    steps = [*forces.explanation, *support.explanation]
    assert steps and all(isinstance(s.text, Msg) for s in steps)
    english = [str(s.text) for s in steps]
    assert "Soviets: troop quality Line" in english
    assert not any("German " in t.split(":")[0] or "Russian" in t for t in english)

    asked = st.prepare_forces(st.new_campaign(), TABLES, EnteredDice([(4, 1)]))
    assert isinstance(asked.decision.prompt, Msg)
    assert str(asked.decision.prompt).startswith("Germans: secretly choose any number")


def test_the_white_die_gives_the_friendly_edge_in_words():
    forces, _support = _stalingrad_battle_one()
    edge = next(s for s in forces.explanation if s.value == 4 and s.rule == "ST-C1.1")
    assert str(edge.text) == (
        "Soviet friendly edge: the bottom edge of the map (compass direction of the white die)"
    )
    assert _spanish(edge.text) == (
        "borde amigo soviético: el borde inferior del mapa (dirección de brújula del dado blanco)"
    )
    # 2.2.2: 1 to the top of the map, 4 to the bottom, 2 and 3 right, 5 and 6 left
    assert [str(COMPASS_EDGE[n]) for n in (1, 2, 3, 5, 6)] == [
        "the top edge of the map",
        "the right edge of the map",
        "the right edge of the map",
        "the left edge of the map",
        "the left edge of the map",
    ]


def test_engine_explanations_render_in_spanish():
    forces, support = _stalingrad_battle_one()
    texts = {str(s.text): s.text for s in [*forces.explanation, *support.explanation]}
    assert _spanish(texts["Soviets: troop quality Line"]) == "Soviéticos: calidad de tropa Línea"
    assert _spanish(texts["spread of devastation: 2 Rubble markers from each Fate deck"]) == (
        "propagación de la devastación: 2 marcadores de Escombros de cada Mazo de Destino"
    )
    assert _spanish(texts["Germans reveal C; they leave the pool"]) == (
        "los Alemanes revelan C; salen de la reserva"
    )
    assert _spanish(texts["Germans spend 2 Fortification Points (no VP)"]) == (
        "los Alemanes gastan 2 Puntos de Fortificación (sin PV)"
    )
    assert _spanish(texts["Soviets spend 1 Fortification Point (no VP)"]) == (
        "los Soviéticos gastan 1 Punto de Fortificación (sin PV)"
    )


def test_a_decision_prompt_and_a_rules_error_render_in_spanish():
    asked = st.prepare_forces(st.new_campaign(), TABLES, EnteredDice([(4, 1)]))
    assert _spanish(asked.decision.prompt) == (
        "Alemanes: elegid en secreto cuántas Patrullas de la reserva compráis (0 o más); las "
        "dos elecciones se revelan a la vez"
    )
    with pytest.raises(RuleError) as err:
        st.prepare_forces(
            st.new_campaign(), TABLES, EnteredDice([(4, 1)]), {"purchase.axis": ["A"]}
        )
    assert isinstance(err.value.message, Msg)
    assert _spanish(err.value.message) == "no está entre las opciones: A"


def test_normandy_and_gastadores_steps_are_messages_too():
    out = no.prepare_forces(
        no.new_campaign(),
        NORMANDY_TABLES,
        EnteredDice([(6, 2)]),
        {"purchase.allies": [], "purchase.axis": []},
    )
    texts = [s.text for s in out.explanation]
    assert all(isinstance(t, Msg) for t in texts)
    assert "Americans: troop quality Line" in map(str, texts)
    asked = gs.record_result(
        gs.new_campaign(), gs.ScenarioResult("33", G, gs.WinMethod.VP, 5), EnteredDice([(1, 1)])
    )
    assert all(isinstance(s.text, Msg) for s in asked.explanation)
    assert _spanish(asked.decision.prompt) == (
        "Alemanes: elegid el siguiente escenario, o ceded la elección y tirad en vuestra Tabla "
        "de Recursos"
    )


def test_a_divisional_result_that_brings_nothing_is_never_offered():
    # Germans roll 9 → F and 10 → Pionier; Pionier is still in their pool, so only F can come
    state = after_battle(1, "O", G, Posture.RECON)
    state.pool[G] = ["C", "D", "Pionier"]
    out = conclude(state, G, EnteredDice([(1, 2), (4, 5), (4, 6)]), {"quality": "none"})
    assert out.decision is None
    assert done(out).pool[G] == ["C", "D", "Pionier", "F"]
    # both free: the Germans choose between the two, each of which brings a Patrol
    state = after_battle(1, "O", G, Posture.RECON)
    state.pool[G] = ["C", "D"]
    out = conclude(state, G, EnteredDice([(1, 2), (4, 5), (4, 6)]), {"quality": "none"})
    assert out.decision.key == "divisional.axis" and out.decision.options == ("F", "Pionier")
    assert str(out.decision.prompt) == "Germans: keep one of the two Divisional Reserve results"
