"""Artillery on the site, through the services and the page [18.0–18.10, 19, 26.2]: the
Artillery Adjustment Table as an operation chart, batteries and ammunition (the 2-0x ÷4
helper), missions (table or result read off the chart), smoke and illumination markers with
the Clean-up Phase, the barrage's check taken as from artillery in the Air & Artillery Phase
[17.4.l], and the page's privacy.

FICTIONAL TEST DATA: the Artillery Adjustment Table (tests/web/test_api_tcs_artillery.py) is
invented; the Fire and Morale Tables are tests/rules/tcs fixtures (T41, T60 cells are the
seed's).
"""

import pytest
from django.core.exceptions import ValidationError

from campaigns.models import LogEntry
from campaigns.models.tcs import MoraleState, TcsCombat
from campaigns.selectors.tcs_artillery import adjustment_table, ammo_record, markers
from campaigns.services import tcs as svc
from campaigns.services.tcs.charts import chart_from_csv, tcs_charts_update
from campaigns.tcs.chart_grids import GRIDS
from campaigns.tcs.combat_lines import parse_targets
from rules.tcs.ammo import Battery
from rules.tcs.artillery import Shoot
from rules.tcs.fire_tables import Terrain
from rules.tcs.smoke import MarkerKind
from tests.web.tcs_turn_fixtures import hx_card
from tests.web.test_api_tcs_artillery import FICTIONAL_ADJUSTMENT
from tests.web.test_tcs_combat import playing, unit

pytestmark = pytest.mark.django_db


def page_url(op, side):
    return f"/campaigns/{op.pk}/tcs/sides/{side.pk}/artillery/"


def armed(user, other_user, *, table=True):
    op = playing(user, other_user)
    if table:
        tcs_charts_update(campaign=op, actor=user, chart="adjustment", data=FICTIONAL_ADJUSTMENT)
    germans, americans = op.sides.order_by("order")
    for name in ("1/105", "2/105"):
        svc.tcs_artillery_battery_save(
            side=germans,
            actor=user,
            battery=Battery(name, "105mm", 105, good_af=8, bad_af=4, adjustment=3),
        )
    for kind in ("he", "smoke", "illum"):
        svc.tcs_artillery_stock_set(
            side=germans, actor=user, ammo_type=kind, calibre="105mm", volleys=4
        )
    op.refresh_from_db()
    return op, germans, americans


def order(**extra):
    return svc.MissionOrder(**({"batteries": ["1/105"], "kind": "he", "hex": "0512"} | extra))


def test_18_7_a_adjustment_table_is_an_operation_chart_checked_cell_by_cell(user, other_user):
    op = playing(user, other_user)
    stored = tcs_charts_update(
        campaign=op, actor=user, chart="adjustment", data=FICTIONAL_ADJUSTMENT
    )
    assert stored["adjustment"]["rows"][1]["results"] == ["scatter", "scatter"]
    op.refresh_from_db()
    assert adjustment_table(op).result(3, 46) is Shoot.GOOD_SHOOT
    bad = {**FICTIONAL_ADJUSTMENT, "rows": FICTIONAL_ADJUSTMENT["rows"][:3]}
    with pytest.raises(ValidationError, match="61"):
        tcs_charts_update(campaign=op, actor=user, chart="adjustment", data=bad)
    csv = "rolls,≤2,3+\n11-36,No Shoot,Scatter\n41-66,Bad Shoot,Good Shoot\n"
    assert chart_from_csv("adjustment", csv)["rows"][1]["results"] == ["bad_shoot", "good_shoot"]
    grid = GRIDS["adjustment"]
    shown = grid.unpack(stored["adjustment"])["adjustment"]
    assert shown.columns == ["≤2", "3+"] and shown.cells[0] == ["no_shoot", "no_shoot"]


def test_18_2_legacy_allocation_divided_by_four_and_illum_unchanged(user, other_user):
    op = playing(user, other_user)
    germans = op.sides.order_by("order").first()
    svc.tcs_artillery_stock_set(
        side=germans, actor=user, ammo_type="he", calibre="150mm", volleys=30, legacy=True
    )
    svc.tcs_artillery_stock_set(
        side=germans, actor=user, ammo_type="illum", calibre="150mm", volleys=3, legacy=True
    )
    stocks = {s.type.value: s.initial for s in ammo_record(germans).stocks}
    assert stocks == {"he": 8, "illum": 3}  # 30 / 4 = 7.5 → 8 (standard rounding)


def test_18_7_without_a_table_the_result_read_off_the_chart_is_asked(user, other_user):
    _op, germans, _americans = armed(user, other_user, table=False)
    with pytest.raises(ValidationError) as exc:
        svc.tcs_artillery_mission(side=germans, actor=user, order=order(), rolls=[46])
    assert "shoot" in exc.value.message_dict
    assert ammo_record(germans).stocks[0].remaining == 4  # refused: nothing crossed off
    combat = svc.tcs_artillery_mission(
        side=germans, actor=user, order=order(shoot="good_shoot"), rolls=[]
    )
    assert combat.result["factors"]["zone_af"] == 16


def test_18_4_b_observer_in_move_mode_is_refused_and_no_los_is_no_shoot(user, other_user):
    _op, germans, _americans = armed(user, other_user)
    with pytest.raises(ValidationError, match=r"18\.4\.b"):
        svc.tcs_artillery_mission(side=germans, actor=user, order=order(fire_mode=False))
    combat = svc.tcs_artillery_mission(side=germans, actor=user, order=order(los=False))
    assert combat.result["refund"] is True and combat.result["shoot"] == "no_shoot"
    assert ammo_record(germans).stocks[0].remaining == 4


def test_19_2_smoke_and_illum_markers_cleaned_up(user, other_user):
    op, germans, _americans = armed(user, other_user)
    svc.tcs_artillery_mission(
        side=germans, actor=user, order=order(kind="smoke", hex="0610"), rolls=[46]
    )
    svc.tcs_artillery_mission(side=germans, actor=user, order=order(kind="illum", hex="0812"))
    op.refresh_from_db()
    placed = {(m.kind.value, m.hex, m.level) for m in markers(op).markers}
    assert placed == {("smoke", "0610", 2), ("illum", "0812", 1)}
    svc.tcs_markers_clean_up(campaign=op, actor=user)
    op.refresh_from_db()
    assert [(m.kind.value, m.level) for m in markers(op).markers] == [("smoke", 1)]
    svc.tcs_markers_clean_up(campaign=op, actor=other_user)
    op.refresh_from_db()
    assert markers(op).markers == []


def test_17_4_l_barrage_check_from_artillery_may_take_paralyzed_for_syr(user, other_user):
    op, germans, _americans = armed(user, other_user)
    platoon = unit(op, "2-9/1")
    svc.tcs_unit_state(unit=platoon, actor=other_user, morale=4)
    mission = svc.tcs_artillery_mission(side=germans, actor=user, order=order(), rolls=[46])
    attack = svc.tcs_artillery_attack(
        side=germans,
        actor=user,
        order=svc.AttackOrder(
            missions=[(mission.pk, True)],
            targets=parse_targets("2-9/1; 5; A; move"),
            terrain=Terrain.OPEN,
        ),
        rolls=[65],
    )
    assert attack.status == TcsCombat.Status.OPEN and attack.result["steps"] == 3
    # 4 + 3 lost + 0 + unassigned 2 = 9, roll 46 → SYR [T60]: the owner is asked [17.4.l]
    with pytest.raises(ValidationError) as exc:
        svc.tcs_fire_apply(
            combat=attack,
            actor=other_user,
            losses={platoon: 3},
            units=[platoon],
            check=svc.Check(roll=46),
        )
    assert "syr_as_paralyzed" in exc.value.message_dict
    done = svc.tcs_fire_apply(
        combat=attack,
        actor=other_user,
        losses={platoon: 3},
        units=[platoon],
        check=svc.Check(roll=46, syr_as_paralyzed=True),
    )
    assert done.status == TcsCombat.Status.APPLIED
    platoon.refresh_from_db()
    assert platoon.morale_state == MoraleState.PARALYZED


def test_page_private_to_the_side_and_posts_a_battery_and_a_mission(client, user, other_user):
    op, germans, _americans = armed(user, other_user)
    client.force_login(other_user)
    assert client.get(page_url(op, germans)).status_code == 404
    client.force_login(user)
    resolve = client.get(f"/campaigns/{op.pk}/tcs/sides/{germans.pk}/resolve/")
    assert page_url(op, germans) in resolve.text
    page = client.get(page_url(op, germans))
    assert page.status_code == 200 and "1/105" in page.text
    response = hx_card(
        client,
        page_url(op, germans),
        "battery",
        name="3/150",
        calibre="150mm",
        good_af="10",
        bad_af="5",
    )
    assert response.status_code == 200 and "Battery saved" in response.text
    response = hx_card(
        client,
        page_url(op, germans),
        "mission",
        batteries=["2/105"],
        kind="smoke",
        hex="0409",
        observer_fire_mode="on",
        observer_unmarked="on",
        observer_los="on",
        observer_visible="on",
        dice="entered",
        rolls="46",
    )
    assert "Mission fired" in response.text and "0409" in response.text
    response = client.post(
        page_url(op, germans),
        {"action": "mission", "mission-batteries": ["2/105"], "mission-kind": "he"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and "This field is required" in response.text
    assert [b.name for b in ammo_record(germans).batteries] == ["1/105", "2/105", "3/150"]


# --- readings [18.2.c, 18.9.b] ---------------------------------------------------------------


@pytest.mark.parametrize("per_battery, left", [(False, 1), (True, 2)])
def test_18_2_c_battalion_fire_costs_three_volleys_or_one_per_battery(
    user, other_user, per_battery, left
):
    op, germans, _americans = armed(user, other_user)
    svc.tcs_options_update(
        campaign=op, actor=user, values={"battalion_fire_per_battery": per_battery}
    )
    combat = svc.tcs_artillery_mission(
        side=germans,
        actor=user,
        order=order(batteries=["1/105", "2/105"], battalion=True, shoot="good_shoot"),
        rolls=[],
    )
    assert combat.result["factors"]["volleys"] == 4 - left
    assert combat.result["factors"]["zone_hexes"] == 7
    he = next(s for s in ammo_record(germans).stocks if s.type.value == "he")
    assert he.remaining == left


def _point_attack(user, germans, rolls, kill_number, battery="1/105"):
    mission = svc.tcs_artillery_mission(
        side=germans, actor=user, order=order(batteries=[battery], shoot="good_shoot"), rolls=[]
    )
    return svc.tcs_artillery_attack(
        side=germans,
        actor=user,
        order=svc.AttackOrder(
            missions=[(mission.pk, True)],
            targets=parse_targets("2-9/1; 5; A; move"),
            terrain=Terrain.OPEN,
            p_steps=1,
            kill_number=kill_number,
        ),
        rolls=rolls,
    )


def test_18_9_b_point_fire_two_dice_summed_by_default(user, other_user):
    op, germans, _americans = armed(user, other_user)
    assert svc.options_for(op).artillery_point_dice_summed is True
    with pytest.raises(ValidationError) as exc:  # 13 is no total of two dice
        _point_attack(user, germans, [65, 13], 13)
    assert "rolls" in exc.value.message_dict
    combat = _point_attack(user, germans, [65, 12], 12, "2/105")
    assert combat.result["point_kills"] == 1 and combat.result["steps"] == 4


def test_18_9_b_point_fire_read_as_d66_when_the_reading_is_off(user, other_user):
    op, germans, _americans = armed(user, other_user)
    svc.tcs_options_update(campaign=op, actor=user, values={"artillery_point_dice_summed": False})
    combat = _point_attack(user, germans, [65, 13], 13)
    assert combat.result["point_kills"] == 1
    missed = _point_attack(user, germans, [65, 12], 13, "2/105")
    assert missed.result["point_kills"] == 0


# --- a battery deleted, a marker removed by hand ------------------------------------------------


def test_battery_deleted_and_logged_refused_once_it_fired_this_turn(user, other_user):
    op, germans, _americans = armed(user, other_user)
    svc.tcs_artillery_mission(side=germans, actor=user, order=order(shoot="good_shoot"), rolls=[])
    with pytest.raises(ValidationError, match=r"18\.1\.b"):
        svc.tcs_artillery_battery_delete(side=germans, actor=user, name="1/105")
    with pytest.raises(ValidationError):
        svc.tcs_artillery_battery_delete(side=germans, actor=user, name="9/999")
    svc.tcs_artillery_battery_delete(side=germans, actor=user, name="2/105")
    assert [b.name for b in ammo_record(germans).batteries] == ["1/105"]
    entry = LogEntry.objects.filter(campaign=op).order_by("-id").first()
    assert "2/105" in str(entry.summary) and entry.private_to_id == germans.pk


def test_19_marker_removed_by_hand_with_its_reason(user, other_user):
    op, germans, _americans = armed(user, other_user)
    svc.tcs_artillery_mission(
        side=germans, actor=user, order=order(kind="smoke", hex="0610"), rolls=[46]
    )
    with pytest.raises(ValidationError) as exc:
        svc.tcs_marker_remove(side=germans, actor=user, index=0, hex_="0610", reason=" ")
    assert "reason" in exc.value.message_dict
    with pytest.raises(ValidationError) as exc:
        svc.tcs_marker_remove(side=germans, actor=user, index=0, hex_="0999", reason="typo")
    assert "marker" in exc.value.message_dict
    svc.tcs_marker_remove(side=germans, actor=user, index=0, hex_="0610", reason="wrong hex")
    op.refresh_from_db()
    assert markers(op).markers == []
    entry = LogEntry.objects.filter(campaign=op).order_by("-id").first()
    assert "wrong hex" in str(entry.summary) and entry.private_to_id is None


# --- mortar and IG rounds [24.3.c, 24.5.a] ----------------------------------------------------


def mortar(**extra):
    fields = {"kind": MarkerKind.SMOKE, "hex": "0610", "mortar": True, "calibre_mm": 81}
    return svc.MortarRound(**(fields | extra))


def test_24_3_c_mortar_smoke_fills_its_hex_until_the_owners_next_action_phase(user, other_user):
    op, germans, americans = armed(user, other_user)
    with pytest.raises(ValidationError) as exc:
        svc.tcs_mortar_round(side=germans, actor=user, order=mortar(), rolls=[5])
    assert "success_from" in exc.value.message_dict  # the chart is not in the seed
    assert not svc.tcs_mortar_round(
        side=germans, actor=user, order=mortar(success_from=4), rolls=[2]
    )
    assert not _placed(op)
    placed = svc.tcs_mortar_round(side=germans, actor=user, order=mortar(success_from=4), rolls=[5])
    assert placed is True
    assert _placed(op) == [("smoke", "0610", 1, "mortar_ig")]
    svc.tcs_markers_clean_up(campaign=op, actor=user)
    assert _placed(op) == [("smoke", "0610", 1, "mortar_ig")]  # not a Clean-up marker [19.2]
    svc.tcs_markers_action_phase(side=americans, actor=other_user)
    assert len(_placed(op)) == 1
    svc.tcs_markers_action_phase(side=germans, actor=user)
    assert _placed(op) == []


def _placed(op):
    op.refresh_from_db()
    return [(m.kind.value, m.hex, m.level, m.source.value) for m in markers(op).markers]


def test_24_5_a_ig_rounds_calibre_result_read_off_the_chart_and_illum(user, other_user):
    op, germans, _americans = armed(user, other_user)
    with pytest.raises(ValidationError, match=r"24\.5\.a") as exc:
        svc.tcs_mortar_round(side=germans, actor=user, order=mortar(mortar=False, calibre_mm=75))
    assert "calibre_mm" in exc.value.message_dict
    with pytest.raises(ValidationError, match=r"24\.3\.c"):
        svc.tcs_mortar_round(side=germans, actor=user, order=mortar(calibre_mm=60))
    ig = mortar(mortar=False, calibre_mm=150, hex="0711", succeeded=True)
    assert svc.tcs_mortar_round(side=germans, actor=user, order=ig, rolls=[]) is True
    illum = mortar(kind=MarkerKind.ILLUM, hex="0812")
    assert svc.tcs_mortar_round(side=germans, actor=user, order=illum) is True
    assert _placed(op) == [("smoke", "0711", 1, "mortar_ig"), ("illum", "0812", 1, "mortar_ig")]
    assert markers(op).markers[1].radius == 3  # [26.2.b]


def test_page_mortar_round_battery_deletion_confirmed_and_marker_removed(client, user, other_user):
    op, germans, _americans = armed(user, other_user)
    client.force_login(user)
    url = page_url(op, germans)
    page = client.get(url)
    assert "Mortar or IG smoke or illumination round" in page.text
    assert "Delete a battery" in page.text and "Remove a marker by hand" not in page.text
    response = hx_card(
        client,
        url,
        "mortar",
        kind="smoke",
        weapon="mortar",
        calibre_mm="81",
        hex="0610",
        success_from="4",
        dice="entered",
        rolls="5",
    )
    assert "Smoke placed in 0610 only" in response.text
    assert "Remove a marker by hand" in response.text
    response = client.post(
        url,
        {"action": "delete_battery", "delete_battery-name": "2/105"},
        HTTP_HX_REQUEST="true",
    )
    assert "This field is required" in response.text
    assert len(ammo_record(germans).batteries) == 2
    response = hx_card(
        client,
        url,
        "delete_battery",
        name="2/105",
        confirm="on",
    )
    assert "Battery deleted" in response.text
    assert [b.name for b in ammo_record(germans).batteries] == ["1/105"]
    response = hx_card(
        client,
        url,
        "remove_marker",
        marker="0:0610",
        reason="fired by mistake",
    )
    assert "Marker removed" in response.text
    assert _placed(op) == []
