"""Assaults and overruns on the site [22.0, 23.0]: both sides answer their own steps, the
fire and the morale checks are applied to each side's own units, refusals name their rule.

FICTIONAL TEST DATA: the charts are the tests/rules/tcs fixtures (invented except the seed's
cells quoted there).
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import LogEntry
from campaigns.models.tcs import TcsCombat, TcsUnit
from campaigns.services import tcs as svc
from campaigns.services.tcs import assault as sa
from campaigns.services.tcs.charts import tcs_charts_update
from campaigns.services.tcs.combat import Check
from campaigns.services.tcs.opsheets import tcs_sheet_draw
from campaigns.tcs.combat_lines import parse_firers, parse_targets
from tests.rules.tcs.test_fire import CHARTS_DATA, FIRE
from tests.rules.tcs.test_morale_check import FICTIONAL_DATA
from tests.web.tcs_turn_fixtures import hx_card
from tests.web.test_tcs_pages import bloody_110

pytestmark = pytest.mark.django_db
SHIFTS = {k: CHARTS_DATA[k] for k in ("terrain_posture", "area_range", "stacking")}
ATT_FIRERS = "1-123/1; infantry; 4; 5; 0\n1-123/2; infantry; 4; 5; 0"
ATT_TARGETS = "1-123/1; 5; A; move\n1-123/2; 5; A; move"
DEF_FIRERS = "2-9/1; infantry; 4; 5; 0"
DEF_TARGETS = "2-9/1; 5; A; fire"


def unit(op, code):
    return TcsUnit.objects.get(campaign=op, code=code)


def ready(user, other_user, *, charts=True):
    """Bloody 110 in play: the German 1st battalion's platoons on an attack sheet (assigned)
    and in Move mode; the American 2-9/1 printed morale 4."""
    op = bloody_110(user, other_user)
    germans, americans = op.sides.order_by("order")
    tcs_sheet_draw(
        side=germans, actor=user, code="Hill", missions={"1-123/1": "attack", "1-123/2": "attack"}
    )
    svc.tcs_operation_start(campaign=op, actor=user)
    if charts:
        tcs_charts_update(campaign=op, actor=user, chart="morale", data=FICTIONAL_DATA)
        tcs_charts_update(campaign=op, actor=user, chart="fire", data=FIRE)
        tcs_charts_update(campaign=op, actor=user, chart="shifts", data=SHIFTS)
    TcsUnit.objects.filter(campaign=op, code__startswith="1-123/").update(mode="move", morale=3)
    TcsUnit.objects.filter(campaign=op, code="2-9/1").update(morale=4)
    op.refresh_from_db()
    return op, germans, americans


def declare(op, germans, user, codes=("1-123/1", "1-123/2"), **kw):
    units = [unit(op, c) for c in codes]
    return svc.tcs_assault_declare(side=germans, actor=user, units=units, enter_cost=1, **kw)


def answer(combat, side, user, **ans):
    combat.refresh_from_db()
    return svc.tcs_assault_answer(
        combat=combat, side=side, actor=user, stage=sa.stage_of(combat), answer=ans
    )


def fire(firers, targets, roll):
    return {
        "firers": parse_firers(firers) if firers else [],
        "targets": parse_targets(targets) if targets else [],
        "other": (),
        "roll": roll,
        "terrain_shift": None,
    }


def to_round(op, germans, americans, user, other_user, **kw):
    """Declared, Final overwatch without effect, entered, no artillery zone, no minefield."""
    c = declare(op, germans, user, **kw)
    c = answer(c, americans, other_user, units=[unit(op, "2-9/1")], attacker_result="none")
    c = answer(c, germans, user)
    c = answer(c, americans, other_user, attacker_result="none")
    return answer(c, americans, other_user, attacker_result="none")


def test_22_0_whole_assault_T64_paralyzed_defender_retreats_losing_half(user, other_user):
    op, germans, americans = ready(user, other_user)
    TcsUnit.objects.filter(campaign=op, code="2-9/1").update(morale_state="paralyzed")
    c = to_round(op, germans, americans, user, other_user)
    seen = sa.describe(c, "attacker")
    assert (seen["step"], seen["round"], seen["whose"]) == (6, 1, "both")
    # no attacker unit broken, a defender Paralyzed: the attacker fires first [22.0 step 6]
    assert seen["fire_order"] == ["attacker", "defender"]
    c = answer(c, germans, user, fire=fire(ATT_FIRERS, ATT_TARGETS, 11))
    assert sa.whose(c) == {"defender"}
    # the defender writes its units as targets; the attacker's fire is resolved alone
    assert sa.describe(c, "defender")["form"] == "targets"
    c = answer(c, americans, other_user, fire=fire("", DEF_TARGETS, None))
    shot = sa.describe(c, "attacker")["fire"][0]
    assert shot["attacker"]["cell"] == "MC" and "defender" not in shot
    # no step lost: the defender's surviving units declare and fire now
    assert (sa.stage_of(c), sa.whose(c)) == ("6:second", {"defender"})
    c = answer(c, americans, other_user, fire=fire(DEF_FIRERS, "", 11))
    shot = sa.describe(c, "attacker")["fire"][0]
    assert (shot["attacker"]["cell"], shot["defender"]["cell"]) == ("MC", "MC")
    # the attacker checks first: morale 3 + 0 → ≤3, roll 11 → no effect (FICTIONAL table)
    c = answer(c, germans, user, losses={}, check=Check(roll=11))
    assert c.applied["attacker"][0]["check"]["result"] == "none"
    # the defender: 4 + 2 unassigned = 6, roll 31 → Suppressed; Paralyzed + Suppressed in an
    # assault → it retreats losing ceil(5/2) = 3 steps [22.0.c, T64]
    c = answer(c, americans, other_user, losses={}, check=Check(roll=31))
    check = c.applied["defender"][0]["check"]
    assert check["result"] == "syr" and check["losses"][0]["steps"] == 3
    assert unit(op, "2-9/1").steps_left == 2
    state = sa.state_of(c)
    assert (state.step, state.defenders) == (7, {})
    c = answer(c, germans, user)
    state = sa.state_of(c)
    assert (state.step, state.winner, c.status) == (8, "attacker", TcsCombat.Status.DONE)
    rules = set(LogEntry.objects.filter(campaign=op).values_list("rule", flat=True))
    assert {"22.0", "22.0.h", "22.0.i", "17.2"} <= rules
    # the totals are private to each side; the results are public
    for entry in LogEntry.objects.filter(campaign=op, summary__contains="total"):
        assert entry.private_to_id is not None


def test_22_0_step_2_syr_stops_the_assault_attacker_returns(user, other_user):
    op, germans, americans = ready(user, other_user)
    c = declare(op, germans, user)
    c = answer(c, americans, other_user, units=[unit(op, "2-9/1")], attacker_result="syr")
    state = sa.state_of(c)
    assert (state.step, state.ended, state.winner) == (8, "repulsed", "defender")
    assert c.status == TcsCombat.Status.DONE
    assert LogEntry.objects.filter(
        campaign=op, rule="22.0.i", summary__contains="start hex", private_to__isnull=True
    ).exists()


def test_22_0_voluntary_retreat_ends_at_step_7(user, other_user):
    op, germans, americans = ready(user, other_user)
    c = declare(op, germans, user)
    c = answer(c, americans, other_user, units=[unit(op, "2-9/1")], choice="retreat")
    assert sa.state_of(c).step == 7
    c = answer(c, germans, user)
    assert (sa.state_of(c).winner, c.status) == ("attacker", TcsCombat.Status.DONE)


def test_23_0_overrun_lasts_one_round(user, other_user):
    op = bloody_110(user, other_user)
    germans, americans = op.sides.order_by("order")
    tcs_sheet_draw(side=americans, actor=other_user, code="Tanks", missions={"Sherman/1": "attack"})
    svc.tcs_operation_start(campaign=op, actor=user)
    for chart, data in (("morale", FICTIONAL_DATA), ("fire", FIRE), ("shifts", SHIFTS)):
        tcs_charts_update(campaign=op, actor=user, chart=chart, data=data)
    TcsUnit.objects.filter(campaign=op, code="Sherman/1").update(mode="move")
    TcsUnit.objects.filter(campaign=op, code="1-123/3").update(morale=3)
    c = svc.tcs_assault_declare(
        side=americans,
        actor=other_user,
        units=[unit(op, "Sherman/1")],
        overrun=True,
        enter_cost=1,
        leave_cost=1,
        mp=8,
    )
    assert sa.describe(c, "defender")["form"] == "hex"
    with pytest.raises(ValidationError, match=r"23\.0\.f"):
        answer(c, germans, user, units=[unit(op, "1-123/3")], choice="retreat")
    c = answer(c, germans, user, units=[unit(op, "1-123/3")], attacker_result="none")
    assert sa.state_of(c).step == 3
    c = answer(c, americans, other_user)  # the defenders keep their markers [23.0.g]
    assert sa.state_of(c).step == 4
    c = answer(c, germans, user, attacker_result="none")
    c = answer(c, germans, user, attacker_result="none")
    c = answer(
        c,
        americans,
        other_user,
        fire=fire("Sherman/1; vehicle; 4; 3; 0", "Sherman/1; 3; A; move", 11),
    )
    c = answer(c, germans, user, fire=fire("", "1-123/3; 5; A; fire", None))
    c = answer(c, americans, other_user, losses={})
    c = answer(c, germans, user, losses={}, check=Check(roll=11))
    state = sa.state_of(c)
    assert (state.step, state.round, c.status) == (8, 1, TcsCombat.Status.DONE)
    assert LogEntry.objects.filter(campaign=op, rule="23.0.h").exists()


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        ({"adjacent": False}, "[22.0]"),
        ({"mode": "fire"}, "[22.0.a]"),
        ({"codes": ("1-123/3",)}, "[22.0.j]"),
        ({"overrun": True}, "[23.0.a]"),
    ],
)
def test_refusals_are_named_by_rule(user, other_user, change, rule):
    op, germans, _americans = ready(user, other_user)
    if change.pop("mode", None):
        TcsUnit.objects.filter(campaign=op, code="1-123/1").update(mode="fire")
    with pytest.raises(ValidationError) as exc:
        declare(op, germans, user, **change)
    assert rule in str(exc.value)
    assert not TcsCombat.objects.filter(campaign=op).exists()


def test_a_repeat_of_the_same_answer_applies_once(user, other_user):
    op, germans, americans = ready(user, other_user)
    c = to_round(op, germans, americans, user, other_user)
    stage = sa.stage_of(c)
    c = answer(c, germans, user, fire=fire(ATT_FIRERS, ATT_TARGETS, 11))
    with pytest.raises(ValidationError, match="already answered"):
        svc.tcs_assault_answer(
            combat=c,
            side=germans,
            actor=user,
            stage=stage,
            answer={"fire": fire(ATT_FIRERS, ATT_TARGETS, 11)},
        )
    c.refresh_from_db()
    assert list(c.result["fire_in"]) == ["attacker"]


def test_the_other_side_answers_only_its_own_steps(user, other_user):
    op, germans, americans = ready(user, other_user)
    c = declare(op, germans, user)
    with pytest.raises(ValidationError):
        answer(c, germans, user, units=[unit(op, "1-123/1")], attacker_result="none")
    with pytest.raises(ValidationError):
        svc.tcs_assault_answer(
            combat=c, side=americans, actor=user, stage="2", answer={"units": []}
        )


# --- the page -------------------------------------------------------------------------------


def page(op, side):
    return reverse("tcs-assault", args=[op.pk, side.pk])


def test_page_declare_and_answer_with_privacy(client, user, other_user, django_user_model):
    op, germans, americans = ready(user, other_user)
    client.force_login(user)
    assert page(op, germans) in client.get(reverse("tcs-resolve", args=[op.pk, germans.pk])).text
    ids = [str(unit(op, c).pk) for c in ("1-123/1", "1-123/2")]
    response = client.post(
        page(op, germans),
        {
            "action": "declare",
            "declare-units": ids,
            "declare-terrain": "open",
            "declare-enter_cost": "1",
            "declare-adjacent": "on",
            "declare-in_stack_at_start": "on",
        },
        follow=True,
    )
    assert response.status_code == 200
    c = TcsCombat.objects.get(campaign=op, kind="assault")
    assert "Whose move: defender" in response.text
    client.force_login(other_user)
    shown = client.get(page(op, americans)).text
    assert "Final overwatch" in shown and f'name="a{c.pk}-units"' in shown
    response = client.post(
        page(op, americans),
        {
            "action": "answer",
            "combat": c.pk,
            f"a{c.pk}-stage": "2",
            f"a{c.pk}-units": [unit(op, "2-9/1").pk],
            f"a{c.pk}-choice": "overwatch",
            f"a{c.pk}-attacker_result": "suppressed",
        },
        follow=True,
    )
    c.refresh_from_db()
    assert c.status == TcsCombat.Status.DONE and sa.state_of(c).ended == "repulsed"
    assert client.get(page(op, germans)).status_code == 404  # not his side
    stranger = django_user_model.objects.create_user("stranger", password="x")
    client.force_login(stranger)
    assert client.get(page(op, americans)).status_code == 404


def test_page_bad_declaration_names_the_rule(client, user, other_user):
    op, germans, _americans = ready(user, other_user)
    client.force_login(user)
    response = hx_card(
        client,
        page(op, germans),
        "declare",
        units=[unit(op, "1-123/3").pk],
        terrain="open",
        enter_cost="1",
        adjacent="on",
        in_stack_at_start="on",
    )
    assert "22.0.j" in response.text
    assert not TcsCombat.objects.filter(campaign=op).exists()


def test_page_shows_each_step_form_and_only_your_own_totals(client, user, other_user):
    op, germans, americans = ready(user, other_user)
    c = to_round(op, germans, americans, user, other_user)
    client.force_login(user)
    shown = client.get(page(op, germans)).text
    assert f'name="a{c.pk}-firers"' in shown and f'name="a{c.pk}-targets"' in shown
    response = client.post(
        page(op, germans),
        {
            "action": "answer",
            "combat": c.pk,
            f"a{c.pk}-stage": "6:fire",
            f"a{c.pk}-firers": ATT_FIRERS,
            f"a{c.pk}-targets": ATT_TARGETS,
            f"a{c.pk}-fire_dice": "entered",
            f"a{c.pk}-fire_roll": "11",
        },
        HTTP_HX_REQUEST="true",
    )
    assert "Waiting for the other side" in response.text
    c = answer(c, americans, other_user, fire=fire(DEF_FIRERS, DEF_TARGETS, 11))
    shown = client.get(page(op, germans)).text
    assert f'name="a{c.pk}-dice"' in shown and "Morale Check" in shown
    c = answer(c, germans, user, losses={}, check=Check(roll=11))
    client.force_login(other_user)
    shown = client.get(page(op, americans)).text
    assert "(total 3)" not in shown  # the attacker's total stays his
    client.force_login(user)
    assert "(total 3)" in client.get(page(op, germans)).text
