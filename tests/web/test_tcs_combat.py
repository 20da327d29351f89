"""TCS fire and morale in the turn, through the services: a fire attack resolved on the
operation's charts, applied by the target's owner with the morale check it forces, and what
follows (retreat, surrender, battalion morale), with the site's dice and entered dice.

FICTIONAL TEST DATA: the charts are the fixtures of tests/rules/tcs (invented except the cells
the seed's examples give: Fire Table column 14-16 roll 65 → 3 [T41]; Morale Table column 9 roll
46 → SYR [T60]).
"""

import pytest
from django.core.exceptions import ValidationError

from campaigns.models import LogEntry
from campaigns.models.tcs import TcsCombat, TcsFormation, TcsUnit
from campaigns.services import tcs as svc
from campaigns.services.tcs.charts import tcs_charts_update
from campaigns.tcs.combat_lines import parse_firer_lines, parse_firers, parse_targets
from rules.tcs.fire_tables import Terrain
from rules.tcs.morale_check import Modifiers
from tests.rules.tcs.test_fire import CHARTS_DATA, FIRE
from tests.rules.tcs.test_morale_check import FICTIONAL_DATA
from tests.web.tcs_turn_fixtures import hx_card
from tests.web.test_tcs_pages import bloody_110

pytestmark = pytest.mark.django_db

SHIFTS = {k: CHARTS_DATA[k] for k in ("terrain_posture", "area_range", "stacking")}
# T41 [11.1.f]: AF 11 at range 4 against a 5-step platoon in Move mode in the open and a towed
# AT gun (6 steps for stacking): column 11-13, +2 −1 +0 → 14-16
T41_FIRERS = "1-123/1; infantry; 4; 5; 4\n1-123/2; infantry; 4; 5; 4\nMortar; mortar; 3; 2; 4"
T41_TARGETS = "Platoon; 5; A; move\nAT gun; 1; B-0; move; towed"


def playing(user, other_user, *, charts=True):
    op = bloody_110(user, other_user)
    svc.tcs_operation_start(campaign=op, actor=user)
    if charts:
        tcs_charts_update(campaign=op, actor=user, chart="morale", data=FICTIONAL_DATA)
        tcs_charts_update(campaign=op, actor=user, chart="fire", data=FIRE)
        tcs_charts_update(campaign=op, actor=user, chart="shifts", data=SHIFTS)
    op.refresh_from_db()
    return op


def t41_order(**extra):
    fields = {
        "kind": "area",
        "firers": parse_firers(T41_FIRERS),
        "targets": parse_targets(T41_TARGETS),
        "terrain": Terrain.OPEN,
    }
    return svc.FireOrder(**(fields | extra))


def unit(op, code):
    return TcsUnit.objects.get(campaign=op, code=code)


def test_T41_area_fire_on_the_charts_with_entered_dice_waits_for_the_owner(user, other_user):
    op = playing(user, other_user)
    germans, americans = op.sides.order_by("order")
    combat = svc.tcs_fire_resolve(side=germans, actor=user, order=t41_order(), rolls=[65])
    assert combat.status == TcsCombat.Status.OPEN and combat.target_side == americans
    r = combat.result
    assert (r["steps"], r["check"], r["roll"]) == (3, True, 65)
    assert r["split"] == {"first_step": "Platoon", "defender": 1, "attacker": 1}
    rules = [s["rule"] for s in r["explanation"]]
    assert {"11.0", "11.3.a", "11.3.c", "11.3.e", "10.0.f", "17.0.b"} <= set(rules)
    public = LogEntry.objects.filter(
        campaign=op, private_to__isnull=True, data__tcs__combat=combat.pk
    )
    assert public.filter(kind=LogEntry.Kind.ROLL).count() == 1


def test_fire_applied_forces_the_check_T60_syr_then_surrender_counts_for_the_battalion(
    user, other_user
):
    op = playing(user, other_user)
    germans, americans = op.sides.order_by("order")
    platoon = unit(op, "2-9/1")
    svc.tcs_unit_state(unit=platoon, actor=other_user, morale=4)
    combat = svc.tcs_fire_resolve(side=germans, actor=user, order=t41_order(), rolls=[65])
    # morale 4 + 3 steps lost + battalion 0 + unassigned 2 [6.3.b] = 9; roll 46 → SYR [T60]
    combat = svc.tcs_fire_apply(
        combat=combat,
        actor=other_user,
        losses={platoon: 3},
        units=[platoon],
        check=svc.Check(roll=46),
    )
    check = combat.applied["check"]
    assert (check["total"], check["roll"], check["result"]) == (9, 46, "syr")
    assert check["retreat_hexes"] == 3
    platoon.refresh_from_db()
    assert platoon.steps_lost == 3 and platoon.morale_state != "normal"
    with pytest.raises(ValidationError, match="already applied"):
        svc.tcs_fire_apply(combat=combat, actor=other_user, losses={platoon: 3}, units=[platoon])
    # a later check: 4 + 3 + 0 + 2 = 9, roll 66 → Surrender: the platoon is gone [17.6]
    svc.tcs_morale_check(
        side=americans, actor=other_user, units=[platoon], check=svc.Check(cause="other", roll=66)
    )
    platoon.refresh_from_db()
    assert platoon.eliminated
    battalion = TcsFormation.objects.get(campaign=op, code="2-9")
    assert battalion.state["value"] == 1  # a platoon destroyed [17.1.a]


def test_the_firer_never_reads_the_owners_total(user, other_user):
    op = playing(user, other_user)
    germans, _americans = op.sides.order_by("order")
    platoon = unit(op, "2-9/1")
    svc.tcs_unit_state(unit=platoon, actor=other_user, morale=4)
    combat = svc.tcs_fire_resolve(side=germans, actor=user, order=t41_order(), rolls=[65])
    svc.tcs_fire_apply(
        combat=combat,
        actor=other_user,
        losses={platoon: 3},
        units=[platoon],
        check=svc.Check(roll=46),
    )
    public = LogEntry.objects.filter(campaign=op, private_to__isnull=True)
    texts = " ".join(e.summary for e in public)
    assert "2-9/1" not in texts and "morale total" not in texts
    assert "SYR" in texts


def test_only_the_target_owner_applies(user, other_user):
    op = playing(user, other_user)
    germans, _americans = op.sides.order_by("order")
    combat = svc.tcs_fire_resolve(side=germans, actor=user, order=t41_order(), rolls=[65])
    with pytest.raises(ValidationError):
        svc.tcs_fire_apply(
            combat=combat, actor=user, losses={unit(op, "2-9/1"): 3}, units=[unit(op, "2-9/1")]
        )


def test_losses_must_match_the_result(user, other_user):
    op = playing(user, other_user)
    germans, _americans = op.sides.order_by("order")
    platoon = unit(op, "2-9/1")
    combat = svc.tcs_fire_resolve(side=germans, actor=user, order=t41_order(), rolls=[65])
    with pytest.raises(ValidationError, match="exactly 3"):
        svc.tcs_fire_apply(combat=combat, actor=other_user, losses={platoon: 2}, units=[platoon])
    platoon.refresh_from_db()
    assert platoon.steps_lost == 0


def test_missing_chart_value_is_asked_on_its_field(user, other_user):
    op = playing(user, other_user)
    tcs_charts_update(campaign=op, actor=user, chart="shifts", data=None)
    germans, _americans = op.sides.order_by("order")
    with pytest.raises(ValidationError) as info:
        svc.tcs_fire_resolve(side=germans, actor=user, order=t41_order(), rolls=[65])
    assert "terrain_shift" in info.value.message_dict
    order = t41_order(read={"terrain_shift": 2, "range_shift": -1, "stacking_shift": 0})
    combat = svc.tcs_fire_resolve(side=germans, actor=user, order=order, rolls=[65])
    assert combat.result["steps"] == 3


def test_site_dice_roll_once(user, other_user):
    op = playing(user, other_user)
    germans, _americans = op.sides.order_by("order")
    combat = svc.tcs_fire_resolve(side=germans, actor=user, order=t41_order())
    assert 11 <= combat.result["roll"] <= 66


def test_no_morale_table_asks_for_the_roll_and_the_result_read(user, other_user):
    op = playing(user, other_user, charts=False)
    _germans, americans = op.sides.order_by("order")
    platoon = unit(op, "2-9/1")
    svc.tcs_unit_state(unit=platoon, actor=other_user, morale=4)
    with pytest.raises(ValidationError, match="no Morale Table"):
        svc.tcs_morale_check(side=americans, actor=other_user, units=[platoon], check=svc.Check())
    combat = svc.tcs_morale_check(
        side=americans,
        actor=other_user,
        units=[platoon],
        check=svc.Check(roll=33, result="suppressed", modifiers=Modifiers(night=1)),
    )
    assert combat.result["result"] == "suppressed"
    platoon.refresh_from_db()
    assert platoon.morale_state == "suppressed"


def test_recovery_once_per_phase_17_7(user, other_user):
    op = playing(user, other_user)
    _germans, americans = op.sides.order_by("order")
    platoon = unit(op, "2-9/1")
    svc.tcs_unit_state(
        unit=platoon, actor=other_user, morale_state="paralyzed", reason="as on the map"
    )
    svc.tcs_recover(side=americans, actor=other_user, units=[platoon])
    platoon.refresh_from_db()
    assert platoon.morale_state == "suppressed"
    with pytest.raises(ValidationError, match=r"17\.7\.d"):
        svc.tcs_recover(side=americans, actor=other_user, units=[platoon])


def test_move_mode_ends_dug_in_6_16_c(user, other_user):
    op = playing(user, other_user)
    platoon = unit(op, "2-9/1")
    TcsUnit.objects.filter(pk=platoon.pk).update(dug_in=True)
    platoon = svc.tcs_unit_state(unit=unit(op, "2-9/1"), actor=other_user, mode="move")
    assert (platoon.mode, platoon.dug_in) == ("move", False)


# --- the resolve page ------------------------------------------------------------------------


def page_url(op, side):
    return f"/campaigns/{op.pk}/tcs/sides/{side.pk}/resolve/"


def test_page_fire_then_owner_applies_with_entered_dice(client, user, other_user):
    op = playing(user, other_user)
    germans, americans = op.sides.order_by("order")
    svc.tcs_unit_state(unit=unit(op, "2-9/1"), actor=other_user, morale=4)
    client.force_login(user)
    assert "Resolve fire and morale" in client.get(f"/campaigns/{op.pk}/tcs/").text
    page = client.get(page_url(op, germans))
    assert page.status_code == 200 and "Nothing to apply" in page.text
    preview = client.post(
        f"{page_url(op, germans)}preview/",
        {
            "fire-kind": "area",
            "fire-firers": T41_FIRERS,
            "fire-targets": T41_TARGETS,
            "fire-terrain": "open",
            "fire-spotted": "on",
            "fire-dice": "server",
        },
    )
    assert "14-16" in preview.text and "%" in preview.text
    response = hx_card(
        client,
        page_url(op, germans),
        "fire",
        kind="area",
        firers=T41_FIRERS,
        targets=T41_TARGETS,
        terrain="open",
        spotted="on",
        dice="entered",
        rolls="65",
    )
    assert response.status_code == 200 and "Fire resolved" in response.text
    combat = TcsCombat.objects.get(campaign=op)
    assert combat.result["steps"] == 3
    # the Americans' page: the result to apply; the Germans may not open it
    assert client.get(page_url(op, americans)).status_code == 404
    client.force_login(other_user)
    page = client.get(page_url(op, americans))
    assert "3 step losses" in page.text
    platoon = unit(op, "2-9/1")
    response = client.post(
        page_url(op, americans),
        {
            "action": "apply",
            "combat": combat.pk,
            f"apply-{combat.pk}-loss_{platoon.pk}": "3",
            f"apply-{combat.pk}-units": [platoon.pk],
            f"apply-{combat.pk}-dice": "entered",
            f"apply-{combat.pk}-roll": "46",
        },
        follow=True,
    )
    assert "morale check: SYR" in response.text
    platoon.refresh_from_db()
    assert platoon.steps_lost == 3


def test_page_bad_input_is_named_and_changes_nothing(client, user, other_user):
    op = playing(user, other_user)
    germans, _americans = op.sides.order_by("order")
    client.force_login(user)
    response = hx_card(
        client,
        page_url(op, germans),
        "fire",
        kind="area",
        firers="A; tank; 4; 5; 4",
        targets=T41_TARGETS,
        terrain="open",
        dice="entered",
        rolls="67",
    )
    assert response.status_code == 200 and "not a kind of firer" in response.text
    assert not TcsCombat.objects.exists()


@pytest.mark.parametrize(("reading", "total"), [(False, 4), (True, 6)])
def test_6_3_b_units_on_a_move_sheet_and_the_reading(user, other_user, reading, total):
    op = bloody_110(user, other_user)
    _germans, americans = op.sides.order_by("order")
    svc.tcs_sheet_draw(side=americans, actor=other_user, code="M", missions={"2-9/1": "move"})
    svc.tcs_operation_start(campaign=op, actor=user)
    tcs_charts_update(campaign=op, actor=user, chart="morale", data=FICTIONAL_DATA)
    svc.tcs_options_update(
        campaign=op, actor=user, values={"move_defense_units_unassigned_for_morale": reading}
    )
    platoon = unit(op, "2-9/1")
    svc.tcs_unit_state(unit=platoon, actor=other_user, morale=4)
    combat = svc.tcs_morale_check(
        side=americans, actor=other_user, units=[platoon], check=svc.Check(roll=11)
    )
    assert combat.result["total"] == total


def test_13_1_an_sfa_refuses_fired_and_moved_firers_and_names_each(user, other_user):
    op = playing(user, other_user)
    germans, _americans = op.sides.order_by("order")
    lines = "1-123/1; infantry; 4; 5; 4; fired\n1-123/2; infantry; 4; 5; 4; moved\nMortar; mortar; 3; 2; 4"
    order = svc.FireOrder(
        kind="area",
        firers=[f for f, _s in parse_firer_lines(lines)],
        states=[s for _f, s in parse_firer_lines(lines)],
        targets=parse_targets(T41_TARGETS),
        terrain=Terrain.OPEN,
        action="sfa",
    )
    with pytest.raises(ValidationError) as info:
        svc.tcs_fire_resolve(side=germans, actor=user, order=order, rolls=[65])
    text = " ".join(info.value.message_dict["firers"])
    assert "1-123/1" in text and "13.1.b" in text and "1-123/2" in text and "20.0.a" in text
    assert not TcsCombat.objects.exists()


def test_13_1_i_an_sfa_marks_the_firers_fired_and_allows_overwatch(user, other_user):
    op = playing(user, other_user)
    germans, _americans = op.sides.order_by("order")
    lines = parse_firer_lines(T41_FIRERS)
    order = t41_order(states=[s for _f, s in lines], action="sfa")
    combat = svc.tcs_fire_resolve(side=germans, actor=user, order=order, rolls=[65])
    rules = [s["rule"] for s in combat.result["explanation"]]
    assert rules[:2] == ["13.1.i", "13.1.d"] and combat.result["steps"] == 3


def test_15_3_a_suppressed_units_never_overwatch(user, other_user):
    op = playing(user, other_user)
    germans, _americans = op.sides.order_by("order")
    lines = parse_firer_lines("MG; mg; 2; 2; 3; suppressed")
    order = t41_order(
        firers=[f for f, _s in lines], states=[s for _f, s in lines], action="overwatch"
    )
    with pytest.raises(ValidationError, match=r"15\.3\.a"):
        svc.tcs_fire_resolve(side=germans, actor=user, order=order, rolls=[65])


def test_the_resolve_page_and_panel_stay_bounded_as_the_operation_grows(
    client, user, other_user, django_assert_max_num_queries
):
    """Reads are bounded in queries and rows: the latest window, the open results."""
    op = playing(user, other_user)
    germans, americans = op.sides.order_by("order")
    client.force_login(other_user)

    def queries():
        with django_assert_max_num_queries(60) as ctx:
            page = client.get(page_url(op, americans))
        assert page.status_code == 200
        return len(ctx.captured_queries), page.text.count("<details><summary>")

    svc.tcs_fire_resolve(side=germans, actor=user, order=t41_order(), rolls=[65])
    few = queries()
    for _ in range(25):
        svc.tcs_fire_resolve(side=germans, actor=user, order=t41_order(), rolls=[11])
    many = queries()
    assert many[0] == few[0]
    assert many[1] <= 10 + few[1]  # the "Latest" list is a fixed window


def test_firer_lines_read_every_word_in_english_and_spanish():
    (firer, state), (mg, mg_state) = parse_firer_lines(
        "1-123/1; infantería; 4; 3; 1; max 5; fired; at; pfas 2; hex 0512\n"
        "MG; ametralladora; 2; 2; 4; movida; suprimida; switched"
    )
    assert (firer.kind, firer.steps, firer.max_steps) == ("infantry", 3, 5)
    assert (state.fired_marker, state.made_at_roll, state.pfas, state.hex) == (
        True,
        True,
        2,
        "0512",
    )
    assert (mg.kind, mg_state.moved, mg_state.suppressed, mg_state.fire_mode_since_start) == (
        "mg",
        True,
        True,
        False,
    )
    (target,) = parse_targets("Platoon; 5; B-1; atrincherada; pdef 2; transportada")
    assert (target.type, target.posture, target.p_defense, target.carried) == (
        "B-1",
        "dug_in",
        2,
        True,
    )
    with pytest.raises(ValidationError, match="not understood"):
        parse_firer_lines("A; infantry; 4; 5; 3; sideways")
