"""Minefields in play [21] through the services and the side's page: markers placed at
set-up and from a Prepared Defense sheet's granted count [21.1], T76 [21.0.b] (foot units
AF 18 with the stacking shift only, 2d6 per vehicle step, 8+ destroys it) applied to the
side's own units with the check it forces, breaches made and failed [21.3].

FICTIONAL TEST DATA: the charts are tests/rules/tcs fixtures, invented except the seed's
cells (Fire Table roll 65 → 3 on the 14-16 column [T41]; Morale Table 9 / 46 → SYR [T60]).
"""

from __future__ import annotations

import secrets

import pytest
from django.core.exceptions import ValidationError

from campaigns.models import Campaign
from campaigns.models.tcs import OpSheetRecord, TcsCombat, TcsUnit
from campaigns.selectors.tcs_minefields import markers
from campaigns.services import tcs as svc
from campaigns.services.tcs.charts import tcs_charts_update
from campaigns.services.tcs.minefields import Entry
from rules.dice import RollRecord, kind
from tests.rules.tcs.test_fire import CHARTS_DATA, FIRE
from tests.rules.tcs.test_morale_check import FICTIONAL_DATA
from tests.web.tcs_turn_fixtures import hx_card
from tests.web.test_api_tcs_play import ScriptedDice
from tests.web.test_tcs_pages import bloody_110

pytestmark = pytest.mark.django_db

SHIFTS = {k: CHARTS_DATA[k] for k in ("terrain_posture", "area_range", "stacking")}


class MineDice(ScriptedDice):
    """The site's dice from the test's script; a 2d6 is scripted as its two faces."""

    def roll(self, kind_, *, purpose, rule=""):
        spec = kind(kind_)
        if spec.name != "2d6":
            return super().roll(kind_, purpose=purpose, rule=rule)
        faces = spec.check_faces(ScriptedDice.script.popleft())
        record = RollRecord(spec.name, purpose, rule, faces, spec.value(faces), "server")
        self.history.append(record)
        return record


@pytest.fixture
def scripted(monkeypatch):
    monkeypatch.setattr("campaigns.services.tcs.common.ServerDice", MineDice)
    ScriptedDice.script.clear()
    return ScriptedDice.script


def mined(user, other_user, *, charts=True, hex_="1510"):
    """Bloody 110 with a set-up minefield laid by the Germans, then started."""
    op = bloody_110(user, other_user)
    germans, _americans = op.sides.order_by("order")
    svc.tcs_minefield_place(side=germans, actor=user, hex_=hex_)
    svc.tcs_operation_start(campaign=op, actor=user)
    if charts:
        tcs_charts_update(campaign=op, actor=user, chart="morale", data=FICTIONAL_DATA)
        tcs_charts_update(campaign=op, actor=user, chart="fire", data=FIRE)
        tcs_charts_update(campaign=op, actor=user, chart="shifts", data=SHIFTS)
    op.refresh_from_db()
    return op


def unit(op, code):
    return TcsUnit.objects.get(campaign=op, code=code)


def breach(side, actor, units, **more):
    """A breach attempt on minefield 1 by units that began adjacent and idle [21.3.a]."""
    return svc.tcs_minefield_breach(
        side=side, actor=actor, minefield_id=1, units=units, began_adjacent=True, idle=True, **more
    )


def page_url(op, side):
    return f"/campaigns/{op.pk}/tcs/sides/{side.pk}/minefields/"


# --- placement [21.1] -----------------------------------------------------------------------


def test_21_1_set_up_minefield_is_public_and_refused_where_the_enemy_may_deploy(user, other_user):
    op = mined(user, other_user, charts=False)
    assert markers(op) == [
        {
            "hex": "1510",
            "breached": False,
            "source": "pregame",
            "id": 1,
            "side": markers(op)[0]["side"],
        }
    ]
    germans, _americans = op.sides.order_by("order")
    with pytest.raises(ValidationError, match=r"\[21\.1\].*before play"):
        svc.tcs_minefield_place(side=germans, actor=user, hex_="1711")
    fresh = bloody_110(user, other_user)
    g2, _a2 = fresh.sides.order_by("order")
    with pytest.raises(ValidationError, match=r"\[21\.1\].*enemy may deploy"):
        svc.tcs_minefield_place(side=g2, actor=user, hex_="1711", enemy_may_deploy=True)
    svc.tcs_minefield_place(side=g2, actor=user, hex_="1711")
    with pytest.raises(ValidationError, match=r"\[21\.1\].*already holds"):
        svc.tcs_minefield_place(side=g2, actor=user, hex_="1711")


def test_21_1_a_prepared_defense_sheet_places_only_its_granted_count(user, other_user):
    op = mined(user, other_user, charts=False)
    germans, americans = op.sides.order_by("order")
    sheet = OpSheetRecord.objects.create(
        campaign=op, side=germans, code="PD1", prepared_defense=[{"minefields": 1}]
    )
    with pytest.raises(ValidationError, match=r"\[21\.1\].*more than 4 hexes"):
        svc.tcs_minefield_place(
            side=germans, actor=user, hex_="2001", sheet=sheet, far_from_enemy=True
        )
    with pytest.raises(ValidationError, match=r"\[21\.1\].*closer than 5"):
        svc.tcs_minefield_place(
            side=germans, actor=user, hex_="2001", sheet=sheet, near_platoons=True
        )
    row = svc.tcs_minefield_place(
        side=germans,
        actor=user,
        hex_="2001",
        sheet=sheet,
        near_platoons=True,
        far_from_enemy=True,
    )
    assert row["source"] == f"sheet:{sheet.pk}"
    with pytest.raises(
        ValidationError, match=r"\[21\.1\].*granted 1 minefield\(s\): all are placed"
    ):
        svc.tcs_minefield_place(
            side=germans,
            actor=user,
            hex_="2002",
            sheet=sheet,
            near_platoons=True,
            far_from_enemy=True,
        )
    # another side's sheet is refused; the other side cannot place for the Germans
    with pytest.raises(ValidationError, match="this side's sheets"):
        svc.tcs_minefield_place(side=americans, actor=other_user, hex_="2003", sheet=sheet)
    with pytest.raises(ValidationError):
        svc.tcs_minefield_place(side=germans, actor=other_user, hex_="2004", sheet=sheet)
    assert len(markers(Campaign.objects.get(pk=op.pk))) == 2


# --- T76 [21.0.b] ---------------------------------------------------------------------------


def test_T76_21_0_b_foot_and_vehicles_through_the_services_with_entered_dice(user, other_user):
    op = mined(user, other_user)
    _germans, americans = op.sides.order_by("order")
    platoon, tank = unit(op, "2-9/1"), unit(op, "Sherman/1")
    svc.tcs_unit_state(unit=platoon, actor=other_user, morale=4)
    combat = svc.tcs_minefield_attack(
        side=americans,
        actor=other_user,
        minefield_id=1,
        entry=Entry(units={"2-9/1": "foot", "Sherman/1": "vehicle"}),
        check=svc.Check(cause="minefield", roll=46),
        rolls=[65, 8, 7, 5],
    )
    r = combat.result
    assert (r["column"], r["cell"], r["steps"], r["check"]) == (11, 3, 3, True)
    assert r["vehicle_rolls"] == {"Sherman/1": [8, 7, 5]}
    assert r["vehicle_losses"] == {"Sherman/1": 1}
    assert {"21.2", "21.0.b", "9.3.b", "11.3.e"} <= {s["rule"] for s in r["explanation"]}
    platoon.refresh_from_db()
    tank.refresh_from_db()
    assert platoon.steps_lost == 3 and tank.steps_lost == 1
    # 4 + 3 lost + battalion 0 + unassigned 2 = 9, roll 46 → SYR [T60]
    assert combat.applied["check"]["result"] == "syr"
    assert platoon.morale_state != "normal"


def test_21_3_d_through_a_breach_no_attack_but_retreat_is_attacked(user, other_user):
    op = mined(user, other_user)
    _germans, americans = op.sides.order_by("order")
    rows = markers(op)
    rows[0]["breached"] = True
    op.tables = {**op.tables, "tcs_minefields": rows}
    op.save(update_fields=["tables"])
    combat = svc.tcs_minefield_attack(
        side=americans,
        actor=other_user,
        minefield_id=1,
        entry=Entry(units={"Sherman/2": "vehicle"}),
        rolls=[],
    )
    assert combat.result["attacked"] is False
    assert [s["rule"] for s in combat.result["explanation"]][:2] == ["21.2", "21.3.d"]
    retreat = svc.tcs_minefield_attack(
        side=americans,
        actor=other_user,
        minefield_id=1,
        entry=Entry(units={"Sherman/2": "vehicle"}, retreat=True),
        rolls=[2, 3, 4],
    )
    assert retreat.result["attacked"] and retreat.result["vehicle_losses"] == {"Sherman/2": 0}


def test_refusals_name_the_rule_and_change_nothing(user, other_user):
    op = mined(user, other_user, charts=False)
    germans, americans = op.sides.order_by("order")
    with pytest.raises(ValidationError, match=r"\[21\.0\.b\].*Fire Table result"):
        svc.tcs_minefield_attack(
            side=americans,
            actor=other_user,
            minefield_id=1,
            entry=Entry(units={"2-9/1": "foot"}, stacking_shift=0),
            rolls=[],
        )
    with pytest.raises(ValidationError, match="units of this side"):
        svc.tcs_minefield_attack(
            side=americans, actor=other_user, minefield_id=1, entry=Entry(units={"1-123/1": "foot"})
        )
    with pytest.raises(ValidationError):  # the Germans may not act for the Americans
        svc.tcs_minefield_attack(
            side=americans, actor=user, minefield_id=1, entry=Entry(units={"2-9/1": "foot"})
        )
    with pytest.raises(ValidationError, match=r"\[21\.3\.a\].*dismounted"):
        breach(
            germans,
            user,
            ["1-123/1"],
            dismounted=False,
        )
    with pytest.raises(ValidationError, match=r"\[3\.1\.a\].*only infantry"):
        breach(
            americans,
            other_user,
            ["Sherman/1"],
        )
    assert not TcsCombat.objects.exists()


# --- breaching [21.3] ------------------------------------------------------------------------


def test_21_3_c_breach_made_on_no_effect_flips_the_marker(user, other_user):
    op = mined(user, other_user)
    _germans, americans = op.sides.order_by("order")
    combat = breach(
        americans,
        other_user,
        ["2-9/2"],
        rolls=[11],
    )
    assert combat.result["made"] and combat.result["cell"] == "-"
    assert combat.result["column"] == 8  # the 9-10 column, no stacking shift for 5 steps
    op.refresh_from_db()
    assert markers(op)[0]["breached"] is True
    with pytest.raises(ValidationError, match=r"\[21\.3\.c\].*already breached"):
        breach(
            americans,
            other_user,
            ["2-9/2"],
            rolls=[11],
        )


def test_21_3_c_breach_fails_when_the_breacher_ends_suppressed(user, other_user):
    op = mined(user, other_user, charts=False)
    _germans, americans = op.sides.order_by("order")
    svc.tcs_unit_state(unit=unit(op, "2-9/2"), actor=other_user, morale=4)
    combat = breach(
        americans,
        other_user,
        ["2-9/2"],
        entry=Entry(units={}, stacking_shift=0, result="MC"),
        check=svc.Check(cause="minefield", result="suppressed"),
    )
    assert combat.result["made"] is False
    assert combat.applied["check"]["result"] == "suppressed"
    assert unit(op, "2-9/2").morale_state == "suppressed"
    op.refresh_from_db()
    assert markers(op)[0]["breached"] is False


# --- the page --------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["entered", "server"])
def test_T76_21_0_b_through_the_page(client, user, other_user, scripted, mode):
    op = mined(user, other_user)
    germans, americans = op.sides.order_by("order")
    platoon, tank = unit(op, "2-9/1"), unit(op, "Sherman/1")
    svc.tcs_unit_state(unit=platoon, actor=other_user, morale=4)
    client.force_login(other_user)
    page = client.get(page_url(op, americans))
    assert page.status_code == 200 and "1510" in page.text
    assert client.get(f"/campaigns/{op.pk}/tcs/sides/{americans.pk}/resolve/").text.count(
        page_url(op, americans)
    )
    form = {
        "enter-minefield": "1",
        f"enter-move_{platoon.pk}": "foot",
        f"enter-move_{tank.pk}": "vehicle",
        "enter-dice": mode,
    }
    shown = client.post(f"{page_url(op, americans)}preview/", form)
    # each step dies on 8+ (15/36 = 5/12): all three (5/12)³ = 125/1728 [21.0.b]
    assert "%" in shown.text and "125/1728" in shown.text and "True" not in shown.text
    if mode == "entered":
        form |= {"enter-rolls": "65 8 7 5", "enter-roll": "46"}
    else:
        scripted.extend([65, (4, 4), (3, 4), (1, 4), 46])
    token = {"idempotency_token": f"mines-{mode}-{op.pk}-{secrets.token_hex(4)}"}
    response = client.post(
        page_url(op, americans), {"action": "enter", **form, **token}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and "morale check: SYR" in response.text
    again = client.post(
        page_url(op, americans), {"action": "enter", **form, **token}, HTTP_HX_REQUEST="true"
    )
    assert again.status_code == 200
    assert TcsCombat.objects.filter(kind="minefield").count() == 1  # applied once
    platoon.refresh_from_db()
    tank.refresh_from_db()
    assert (platoon.steps_lost, tank.steps_lost) == (3, 1)
    assert not scripted
    # the Germans cannot open the Americans' page nor act there
    client.force_login(user)
    assert client.get(page_url(op, americans)).status_code == 404
    assert client.post(page_url(op, americans), {"action": "enter", **form}).status_code == 404
    assert client.get(page_url(op, germans)).status_code == 200


def test_page_refusal_is_named_on_the_form(client, user, other_user):
    op = mined(user, other_user, charts=False)
    _germans, americans = op.sides.order_by("order")
    client.force_login(other_user)
    tank = unit(op, "Sherman/1")
    response = hx_card(
        client,
        page_url(op, americans),
        "breach",
        minefield="1",
        units=[tank.pk],
        began_adjacent="on",
        idle="on",
        dismounted="on",
        dice="server",
    )
    assert response.status_code == 200 and "[3.1.a]" in response.text
    assert not TcsCombat.objects.exists()


@pytest.mark.parametrize("every_unit, made", [(False, True), (True, False)])
def test_21_3_c_breach_with_one_breacher_eliminated_by_the_reading(
    user, other_user, every_unit, made
):
    op = mined(user, other_user, charts=False)
    _germans, americans = op.sides.order_by("order")
    svc.tcs_options_update(campaign=op, actor=user, values={"breach_needs_every_unit": every_unit})
    for code in ("2-9/1", "2-9/2"):
        svc.tcs_unit_state(unit=unit(op, code), actor=other_user, morale=4)
    TcsUnit.objects.filter(campaign=op, code="2-9/1").update(steps_lost=4)
    combat = breach(
        americans,
        other_user,
        ["2-9/1", "2-9/2"],
        entry=Entry(units={}, stacking_shift=0, result=2, losses={"2-9/2": 1, "2-9/1": 1}),
        check=svc.Check(cause="minefield", result="none"),
    )
    assert unit(op, "2-9/1").eliminated and unit(op, "2-9/2").steps_lost == 1
    assert combat.result["made"] is made
    op.refresh_from_db()
    assert markers(op)[0]["breached"] is made


def test_phone_forms_show_only_the_minefield_checks_fields(client, user, other_user):
    op = mined(user, other_user)
    _germans, americans = op.sides.order_by("order")
    client.force_login(other_user)
    page = client.get(page_url(op, americans)).text
    for shown in ("enter-roll", "enter-result", "enter-night", "enter-terrain_modifier"):
        assert f'name="{shown}"' in page
    for name in ("crossfire", "in_assault", "assault_choice", "artillery_air_phase", "syr_as_"):
        assert f'name="enter-{name}' not in page and f'name="breach-{name}' not in page
    assert 'name="breach-night"' in page
