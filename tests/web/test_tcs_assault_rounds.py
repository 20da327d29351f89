"""Assault rounds on the site [22.0 steps 5–6, 23.0]: the side firing first resolved alone and
the other side's losses taken before its survivors fire, the minefield attack on the
assaulters, point fire and AT rolls inside the round, and the operation's reading of the
overrun escalation (`overrun_escalates`).

FICTIONAL TEST DATA: the charts are the tests/rules/tcs fixtures (invented except the seed's
cells quoted there).
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from campaigns.models import LogEntry
from campaigns.models.tcs import TcsUnit
from campaigns.services import tcs as svc
from campaigns.services.tcs import assault as sa
from campaigns.services.tcs import assault_fire as af
from campaigns.services.tcs.charts import tcs_charts_update
from campaigns.services.tcs.combat import Check
from campaigns.services.tcs.opsheets import tcs_sheet_draw
from campaigns.tcs.combat_lines import parse_firers, parse_targets
from tests.rules.tcs.test_fire import CHARTS_DATA, FIRE
from tests.rules.tcs.test_morale_check import FICTIONAL_DATA
from tests.web.test_tcs_assault import (
    ATT_FIRERS,
    ATT_TARGETS,
    DEF_FIRERS,
    DEF_TARGETS,
    SHIFTS,
    answer,
    declare,
    fire,
    page,
    ready,
    to_round,
    unit,
)
from tests.web.test_tcs_pages import bloody_110

pytestmark = pytest.mark.django_db


def to_mines(op, germans, americans, user, other_user):
    """Declared, Final overwatch without effect, entered, no artillery zone: step 5."""
    c = declare(op, germans, user)
    c = answer(c, americans, other_user, units=[unit(op, "2-9/1")], attacker_result="none")
    c = answer(c, germans, user)
    return answer(c, americans, other_user, attacker_result="none")


def test_22_0_step_6_first_fire_losses_taken_before_the_other_side_fires(user, other_user):
    op, germans, americans = ready(user, other_user)
    TcsUnit.objects.filter(campaign=op, code="2-9/1").update(morale_state="paralyzed")
    c = to_round(op, germans, americans, user, other_user)
    c = answer(c, germans, user, fire=fire(ATT_FIRERS, ATT_TARGETS, 51))
    c = answer(c, americans, other_user, fire=fire("", DEF_TARGETS, None))
    shot = sa.describe(c, "defender")["fire"][0]
    assert shot["attacker"]["steps"] == 1 and "defender" not in shot  # fired alone
    seen = sa.describe(c, "defender")
    assert (seen["stage"], seen["form"], seen["rule"]) == ("6:early", "losses", "22.0")
    with pytest.raises(ValidationError, match="exactly 1"):
        answer(c, americans, other_user, losses={})
    c = answer(c, americans, other_user, losses={unit(op, "2-9/1"): 1})
    assert unit(op, "2-9/1").steps_left == 4
    assert sa.describe(c, "defender")["form"] == "fire"  # its survivors fire now
    c = answer(c, americans, other_user, fire=fire("2-9/1; infantry; 4; 4; 0", "", 11))
    shot = sa.describe(c, "attacker")["fire"][0]
    assert (shot["attacker"]["cell"], shot["defender"]["cell"]) == (1, "MC")
    c = answer(c, germans, user, losses={}, check=Check(roll=11))
    # the defender's step is not asked twice; its check is still due
    c = answer(c, americans, other_user, losses={}, check=Check(roll=11))
    part = c.applied["defender"]
    assert [p["losses"] for p in part][1] == [] and part[1]["check"]["result"]
    assert unit(op, "2-9/1").steps_left == 4


def test_22_0_step_6_second_side_eliminated_units_do_not_fire(user, other_user):
    op, germans, americans = ready(user, other_user)
    TcsUnit.objects.filter(campaign=op, code="2-9/1").update(morale_state="paralyzed")
    c = to_round(op, germans, americans, user, other_user)
    c = answer(c, germans, user, fire=fire(ATT_FIRERS, ATT_TARGETS, 51))
    c = answer(c, americans, other_user, fire=fire("", DEF_TARGETS, None))
    TcsUnit.objects.filter(campaign=op, code="2-9/1").update(steps_lost=4)
    c = answer(c, americans, other_user, losses={unit(op, "2-9/1"): 1})
    assert unit(op, "2-9/1").eliminated
    assert sa.whose(c) == {"attacker"}  # nothing left to fire


def test_22_0_step_5_minefield_attacks_the_assaulters_even_through_a_breach(user, other_user):
    op, germans, americans = ready(user, other_user)
    c = to_mines(op, germans, americans, user, other_user)
    assert sa.describe(c, "defender")["form"] == "mine"
    c = answer(c, americans, other_user, minefield=True, breached=True)
    seen = sa.describe(c, "attacker")
    assert (seen["stage"], seen["form"], seen["rule"]) == ("5:mine", "mine_own", "21.0.b")
    # AF 18 on 10 foot steps, stacking +2 (FICTIONAL table): roll 11 → 1 step, then a check
    c = answer(
        c,
        germans,
        user,
        rolls=[11],
        first_step_choice="1-123/1",
        losses={unit(op, "1-123/1"): 1},
        check=Check(roll=66),
    )
    mine = c.applied["attacker"][0]
    assert (mine["mine"]["steps"], mine["check"]["result"]) == (1, "syr")
    assert unit(op, "1-123/1").steps_left == 4
    state = sa.state_of(c)
    assert (state.step, state.ended, state.winner) == (8, "repulsed", "defender")
    assert LogEntry.objects.filter(
        campaign=op, rule="22.0", summary__contains="cannot use the breach"
    ).exists()


def test_22_0_step_5_minefield_without_a_break_goes_on_and_no_minefield_skips(user, other_user):
    op, germans, americans = ready(user, other_user)
    c = to_mines(op, germans, americans, user, other_user)
    c = answer(c, americans, other_user, minefield=True)
    c = answer(
        c,
        germans,
        user,
        rolls=[11],
        first_step_choice="1-123/2",
        losses={unit(op, "1-123/2"): 1},
        check=Check(roll=11),
    )
    assert c.applied["attacker"][0]["check"]["result"] == "none"
    assert (sa.state_of(c).step, sa.stage_of(c)) == (6, "6:fire")
    op2, g2, a2 = ready(user, other_user)
    c2 = to_mines(op2, g2, a2, user, other_user)
    c2 = answer(c2, a2, other_user, minefield=False)
    assert sa.state_of(c2).step == 6 and not c2.applied


def test_22_0_step_6_point_fire_and_at_rolls_become_the_other_sides_losses(user, other_user):
    op, germans, americans = ready(user, other_user)
    more = {k: CHARTS_DATA[k] for k in ("point_range", "differential")}
    tcs_charts_update(campaign=op, actor=user, chart="shifts", data={**SHIFTS, **more})
    c = to_round(op, germans, americans, user, other_user)
    f = fire("1-123/1; infantry; 4; 5; 0", ATT_TARGETS, 11)
    point = parse_firers("1-123/2; infantry; 4; 5; 0; p; printed 2")
    f["point"] = {"firers": point, "targets": parse_targets(DEF_TARGETS), "roll": 66}
    f["at"] = {"steps": 2, "target_steps": 2, "value": 7, "rolls": [9, 2]}
    both = dict(f, point=dict(f["point"], firers=parse_firers(ATT_FIRERS)))
    with pytest.raises(ValidationError, match="not both"):
        answer(c, germans, user, fire=both)
    c = answer(c, germans, user, fire=f)
    c = answer(c, americans, other_user, fire=fire(DEF_FIRERS, DEF_TARGETS, 11))
    shot = sa.describe(c, "attacker")["fire"][0]["attacker"]
    # point fire 3 kills, AT 9 ≥ 7 a kill and an unmodified 2 the attacking step [16.1.e]
    assert (shot["point_kills"], shot["at_kills"], shot["at_own_losses"]) == (3, 1, 1)
    assert shot["steps"] == 4
    with pytest.raises(ValidationError, match="exactly 1"):
        answer(c, germans, user, losses={}, check=Check(roll=11))
    c = answer(c, germans, user, losses={unit(op, "1-123/1"): 1}, check=Check(roll=11))
    with pytest.raises(ValidationError, match="exactly 4"):
        answer(c, americans, other_user, losses={unit(op, "2-9/1"): 1}, check=Check(roll=11))
    c = answer(c, americans, other_user, losses={unit(op, "2-9/1"): 4}, check=Check(roll=11))
    assert (unit(op, "1-123/1").steps_left, unit(op, "2-9/1").steps_left) == (4, 1)


def _overrun_round(op, germans, americans, user, other_user):
    c = svc.tcs_assault_declare(
        side=americans,
        actor=other_user,
        units=[unit(op, "Sherman/1")],
        overrun=True,
        enter_cost=1,
        leave_cost=1,
        mp=8,
    )
    c = answer(c, germans, user, units=[unit(op, "1-123/3")], attacker_result="none")
    c = answer(c, americans, other_user)
    c = answer(c, germans, user, attacker_result="none")
    c = answer(c, germans, user, minefield=False)
    c = answer(
        c,
        americans,
        other_user,
        fire=fire("Sherman/1; vehicle; 4; 3; 0", "Sherman/1; 3; A; move", 11),
    )
    c = answer(c, germans, user, fire=fire("", "1-123/3; 5; A; fire", None))
    return answer(c, americans, other_user, losses={})


@pytest.mark.parametrize("escalates", [True, False])
def test_23_0_overrun_checks_escalate_as_the_operation_reads(
    user, other_user, monkeypatch, escalates
):
    op = bloody_110(user, other_user)
    germans, americans = op.sides.order_by("order")
    tcs_sheet_draw(side=americans, actor=other_user, code="Tanks", missions={"Sherman/1": "attack"})
    svc.tcs_operation_start(campaign=op, actor=user)
    for chart, data in (("morale", FICTIONAL_DATA), ("fire", FIRE), ("shifts", SHIFTS)):
        tcs_charts_update(campaign=op, actor=user, chart=chart, data=data)
    op.options = {**op.options, "tcs_options": {"overrun_escalates": escalates}}
    op.save(update_fields=["options"])
    TcsUnit.objects.filter(campaign=op, code="Sherman/1").update(mode="move")
    TcsUnit.objects.filter(campaign=op, code="1-123/3").update(morale=3)
    seen = []
    real = af.check_and_apply

    def spy(campaign, side, engine, codes, check, **kw):
        seen.append(check.in_assault)
        return real(campaign, side, engine, codes, check, **kw)

    monkeypatch.setattr(af, "check_and_apply", spy)
    c = _overrun_round(op, germans, americans, user, other_user)
    c = answer(c, germans, user, losses={}, check=Check(roll=11))
    assert seen == [escalates] and sa.state_of(c).step == 8


def test_page_minefield_and_the_side_firing_second(client, user, other_user):
    op, germans, americans = ready(user, other_user)
    TcsUnit.objects.filter(campaign=op, code="2-9/1").update(morale_state="paralyzed")
    c = to_mines(op, germans, americans, user, other_user)
    client.force_login(other_user)
    shown = client.get(page(op, americans)).text
    assert f'name="a{c.pk}-minefield"' in shown and f'name="a{c.pk}-breached"' in shown
    client.post(
        page(op, americans),
        {"action": "answer", "combat": c.pk, f"a{c.pk}-stage": "5", f"a{c.pk}-minefield": "on"},
        HTTP_HX_REQUEST="true",
    )
    client.force_login(user)
    shown = client.get(page(op, germans)).text
    assert f'name="a{c.pk}-rolls"' in shown and f'name="a{c.pk}-stacking_shift"' in shown
    loss = f"a{c.pk}-loss_{unit(op, '1-123/1').pk}"
    response = client.post(
        page(op, germans),
        {
            "action": "answer",
            "combat": c.pk,
            f"a{c.pk}-stage": "5:mine",
            f"a{c.pk}-fire_dice": "entered",
            f"a{c.pk}-rolls": "11",
            f"a{c.pk}-first_step_choice": "1-123/1",
            loss: "1",
            f"a{c.pk}-dice": "entered",
            f"a{c.pk}-roll": "11",
        },
        HTTP_HX_REQUEST="true",
    )
    assert "Minefield: 1 step(s)" in response.text
    c.refresh_from_db()
    assert sa.stage_of(c) == "6:fire" and unit(op, "1-123/1").steps_left == 4
    assert f'name="a{c.pk}-point_firers"' in response.text  # P-firers: point or area fire
    client.force_login(other_user)
    shown = client.get(page(op, americans)).text  # the attacker fires first: targets only
    assert f'name="a{c.pk}-targets"' in shown and f'name="a{c.pk}-firers"' not in shown


def test_22_0_step_6_the_side_firing_second_may_not_fire_early(user, other_user):
    op, germans, americans = ready(user, other_user)
    TcsUnit.objects.filter(campaign=op, code="2-9/1").update(morale_state="paralyzed")
    c = to_round(op, germans, americans, user, other_user)
    with pytest.raises(ValidationError, match="fires first"):
        answer(c, americans, other_user, fire=fire(DEF_FIRERS, DEF_TARGETS, 11))
    c.refresh_from_db()
    assert "fire_in" not in c.result or "defender" not in c.result["fire_in"]
