"""Unit lines typed in the rulebook's Spanish: "Fusileros; 2; desorganizada; pv 2" reads as
"Rifles; 2; broken; vp 2", so a Spanish table never has to type English keywords."""

from __future__ import annotations

import pytest

from campaigns.cc.battle.keywords import keyword, keywords
from rules.i18n import Msg
from tests.web.test_cc_battle_support import act, state, tracked  # noqa: F401
from tests.web.test_cc_campaign_flow import stalingrad  # noqa: F401


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("Desorganizada", "broken"),
        ("aturdida", "suppressed"),
        ("Pelotón", "squad"),
        ("peloton", "squad"),
        ("LÍDER", "leader"),
        ("estorbo", "hindrance"),
        ("fuera", "off"),
        ("broken", "broken"),
        ("Rifles", "rifles"),
    ],
)
def test_a_spanish_word_stands_for_its_keyword_accents_optional(typed, meant):
    assert keyword(typed) == meant


def test_a_part_with_a_value_keeps_its_value():
    assert keywords("pv 2") == ("vp", "2")
    assert keywords("Líder L1") == ("leader", "L1")


@pytest.mark.django_db
def test_F103_2_a_spanish_mines_line_breaks_and_scores(tracked, user):  # noqa: F811
    inputs = {"fp": "8", "side": "allies", "units": "Fusileros; 2; desorganizada; pv 2"}
    done = act(tracked, user, "mines", inputs, "6 6; 1 1")
    assert str(Msg.from_dict(done.result["shown"][0])) == "Fusileros: 4, eliminated"
    assert state(tracked).vp_axis == 2


@pytest.mark.django_db
def test_O23_3_a_spanish_retreat_path_off_the_edge(tracked, other_user):  # noqa: F811
    inputs = {
        "unit": "Fusileros",
        "hexes": 2,
        "start_distance": 1,
        "vp_value": 2,
        "path": "C3; 0\nfuera; fuera",
    }
    act(tracked, other_user, "retreat", inputs)
    assert state(tracked).vp_axis == 2
