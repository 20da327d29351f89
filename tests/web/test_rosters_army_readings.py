"""The 1936 army-list readings (`ArmyOptions`) as a roster's options: set on the house-rules
page or through the API, stored under `house_rules["army"]`, logged as a RosterChange and used
wherever the list is priced or checked (builder, budget, print card, battle create/join)."""

from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import Roster, SkirmishBattle
from campaigns.rosters.card import card
from campaigns.rosters.engine import m36_army_options, report
from campaigns.services.rosters import roster_create, roster_edit, roster_house_rules_set
from campaigns.services.skirmish import skirmish_create, skirmish_join
from rules.m1936.army import ArmyOptions
from rules.m1936.data import Faction, catalogue
from tests.web.roster_helpers import DEFENDER_UNITS, m1936_list

pytestmark = pytest.mark.django_db

LINE = "Sección Infantería de Línea"  # base cost 75


def veterans(owner, *units, role="Atacante", defender_points=None):
    """A Veteranos Nacionales list (75 × 1.30 = 97.5 for a line section)."""
    roster = roster_create(
        owner=owner,
        system="m1936",
        name="Veteranos",
        faction="Nacionales",
        role=role,
        quality="Veteranos",
        size=None if defender_points else "Pequeña",
        defender_points=defender_points,
    )
    for profile in units:
        roster = roster_edit(
            roster=roster, actor=owner, edit={"op": "add_unit", "profile": profile}
        )
    return roster


def validation(roster) -> dict:
    roster = Roster.objects.get(pk=roster.pk)
    return report(roster.system, roster.data, roster.house_rules)


def post_readings(client, roster, **fields):
    return client.post(
        f"/api/v1/rosters/{roster.pk}/house-rules/", fields, content_type="application/json"
    )


def test_T3_M36_II_rounding_half_up_by_default_and_down_on_the_page(client, user):
    roster = veterans(user, LINE)
    assert validation(roster)["entries"][0]["cost"] == 98  # 97.5 rounded half up
    assert m36_army_options(roster.house_rules) == ArmyOptions()
    client.force_login(user)
    page = client.get(roster.get_absolute_url()).content.decode()
    assert "Army-list readings" in page and "Rounding of quality costs [M36-II]" in page
    response = client.post(reverse("roster-house-rules", args=[roster.pk]), {"rounding": "down"})
    assert response.status_code == 302
    roster.refresh_from_db()
    assert roster.house_rules["army"] == {"rounding": "down"}
    assert roster.house_rules["carry_casualties"] is False
    assert validation(roster)["entries"][0]["cost"] == 97
    page = client.get(roster.get_absolute_url()).content.decode()
    assert "97 pts" in page and '<option value="down" selected>' in page
    change = roster.changes.filter(kind="house_rules").get()
    assert change.rule == "M36-II"
    assert "Rounding of quality costs [M36-II]: always down" in change.summary
    assert change.before["house_rules"].get("army") is None
    # the print card prices the list with the same reading
    assert card(roster.system, roster.data, roster.house_rules)["rows"][0]["cost"] == 97


def test_M36_III_modifiers_box_switches_the_default_reading_off(client, user):
    roster = veterans(user, LINE)
    client.force_login(user)
    url = reverse("roster-house-rules", args=[roster.pk])
    client.post(url, {"no_rule_quality_modifiers": "on", "carry_casualties": "on"})
    roster.refresh_from_db()
    assert roster.house_rules["army"] == {"apply_rule_quality_modifiers": False}
    assert roster.house_rules["carry_casualties"] is True
    page = client.get(roster.get_absolute_url()).content.decode()
    assert 'id="id_no_rule_quality_modifiers" checked>' in page
    change = roster.changes.filter(kind="house_rules").get()
    assert "Quality modifiers of Líder, Observar and Cavar [M36-III]: off" in change.summary


def test_T3_M36_II_rounding_through_the_api_and_the_attackers_budget(client, user):
    # agreed budget: the defender has 75, the attacker 112.5 → 113 half up, 112 down, 113 up
    roster = veterans(user, LINE, defender_points=75)
    client.force_login(user)
    assert client.get(f"/api/v1/rosters/{roster.pk}/").json()["validation"]["budget"] == 113
    response = post_readings(client, roster, army={"rounding": "down"})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["house_rules"]["army"] == {"rounding": "down"}
    assert body["validation"]["budget"] == 112 and body["validation"]["spent"] == 97
    response = post_readings(client, roster, army={"rounding": "up"})
    assert response.json()["validation"]["budget"] == 113
    assert response.json()["validation"]["spent"] == 98
    # back to the defaults: nothing is stored and the history says so
    response = post_readings(client, roster, army={"rounding": "half_up"})
    assert "army" not in response.json()["house_rules"]
    last = Roster.objects.get(pk=roster.pk).changes.order_by("-seq").first()
    assert last.rule == "M36-II" and "the rulebook's defaults" in last.summary


def test_M36_II_quality_on_upgrades_reading_prices_them(client, user):
    roster = veterans(user, LINE)
    roster = roster_edit(
        roster=roster, actor=user, edit={"op": "add_upgrade", "entry": 1, "upgrade": "Subfusiles"}
    )
    upgrade = catalogue().upgrade(Faction.NACIONALES, "Subfusiles").cost
    assert validation(roster)["entries"][0]["cost"] == 98 + upgrade  # flat price by default
    client.force_login(user)
    post_readings(client, roster, army={"quality_applies_to_upgrades": True})
    scaled = Fraction((75 + upgrade) * 130, 100)
    assert validation(roster)["entries"][0]["cost"] == int(scaled + Fraction(1, 2))


def test_per_unit_quality_off_refuses_a_units_own_quality_on_accepts_it(client, user):
    roster = m1936_list(user, LINE)  # Regulares: 75
    client.force_login(user)
    edit = {"op": "quality", "entry": 1, "quality": "Veteranos"}
    refused = client.post(
        f"/api/v1/rosters/{roster.pk}/edit/", edit, content_type="application/json"
    )
    assert refused.status_code == 400 and "quality" in refused.json()
    assert Roster.objects.get(pk=roster.pk).data["entries"][0].get("quality") is None
    page = client.get(f"{roster.get_absolute_url()}?entry=1").content.decode()
    assert 'name="quality"' not in page  # the builder offers no quality without the reading
    post_readings(client, roster, army={"per_unit_quality": True})
    page = client.get(f"{roster.get_absolute_url()}?entry=1").content.decode()
    assert 'value="quality"' in page
    accepted = client.post(
        f"/api/v1/rosters/{roster.pk}/edit/", edit, content_type="application/json"
    )
    assert accepted.status_code == 200, accepted.json()
    assert accepted.json()["validation"]["valid"] is True
    assert accepted.json()["validation"]["spent"] == 98  # pays its own quality's +30 %
    # switching the reading off again: the unit's own quality is a violation
    post_readings(client, roster, army={})
    rep = validation(roster)
    assert not rep["valid"] and "only through Veteranía" in rep["entries"][0]["violations"][0]


def test_fog_of_war_token_limit_refuses_a_16th_unit(client, user):
    roster = m1936_list(user, *["Oficial"] * 16)
    assert not any(v["rule"] == "M36-XIV.1" for v in validation(roster)["violations"])
    client.force_login(user)
    response = post_readings(client, roster, army={"fog_of_war_token_limit": True})
    fog = [v for v in response.json()["validation"]["violations"] if v["rule"] == "M36-XIV.1"]
    assert len(fog) == 1 and "1 to 15" in fog[0]["message"]
    roster = roster_edit(roster=roster, actor=user, edit={"op": "remove_unit", "entry": 16})
    assert not any(v["rule"] == "M36-XIV.1" for v in validation(roster)["violations"])


def test_battle_create_and_join_check_the_roster_with_its_readings(user, other_user):
    defender = m1936_list(
        other_user, *DEFENDER_UNITS, faction="Republicanos", role="Defensor", name="Brigada"
    )
    roster_house_rules_set(
        roster=defender, actor=other_user, options={"army": {"per_unit_quality": True}}
    )
    defender = roster_edit(
        roster=defender,
        actor=other_user,
        edit={"op": "quality", "entry": 3, "quality": "Veteranos"},
    )
    roster_house_rules_set(roster=defender, actor=other_user, options={})
    attacker = m1936_list(user, "Oficial")
    battle = skirmish_create(creator=user, roster=attacker, role="attacker", opponent=other_user)
    with pytest.raises(ValidationError, match="not valid yet"):
        skirmish_join(battle=battle, actor=other_user, roster=defender)
    assert SkirmishBattle.objects.get(pk=battle.pk).sides.get(index=1).roster is None
    roster_house_rules_set(
        roster=defender, actor=other_user, options={"army": {"per_unit_quality": True}}
    )
    skirmish_join(battle=battle, actor=other_user, roster=Roster.objects.get(pk=defender.pk))
    side = SkirmishBattle.objects.get(pk=battle.pk).sides.get(index=1)
    assert side.roster_id == defender.pk
    # the fielded list keeps the readings it was checked with; the other side has none
    assert m36_army_options(side.snapshot) == ArmyOptions(per_unit_quality=True)
    assert "army" not in SkirmishBattle.objects.get(pk=battle.pk).sides.get(index=0).snapshot
    # the creator's roster is checked the same way
    many = m1936_list(user, *["Oficial"] * 16, name="Many")
    roster_house_rules_set(
        roster=many, actor=user, options={"army": {"fog_of_war_token_limit": True}}
    )
    with pytest.raises(ValidationError, match="not valid yet"):
        skirmish_create(creator=user, roster=many, role="attacker", opponent=other_user)
    assert not SkirmishBattle.objects.filter(sides__roster=many).exists()


@pytest.mark.parametrize(
    ("army", "field"),
    [
        ({"rounding": "nearest"}, "rounding"),
        ({"per_unit_quality": "yes"}, "per_unit_quality"),
        ({"fog_of_war_token_limit": 1}, "fog_of_war_token_limit"),
        ({"colour": True}, "colour"),
        ("down", "army"),
    ],
)
def test_bad_readings_are_a_400_naming_the_field_and_change_nothing(client, user, army, field):
    roster = veterans(user, LINE)
    roster_house_rules_set(roster=roster, actor=user, options={"army": {"rounding": "down"}})
    before = (Roster.objects.get(pk=roster.pk).house_rules, roster.changes.count())
    client.force_login(user)
    response = post_readings(client, roster, army=army)
    assert response.status_code == 400 and field in response.json()
    assert (Roster.objects.get(pk=roster.pk).house_rules, roster.changes.count()) == before


def test_a_bad_rounding_on_the_page_names_the_field_and_changes_nothing(client, user):
    roster = veterans(user, LINE)
    client.force_login(user)
    response = client.post(
        reverse("roster-house-rules", args=[roster.pk]), {"rounding": "nearest"}, follow=True
    )
    assert "Rounding of quality costs [M36-II]" in response.content.decode()
    assert Roster.objects.get(pk=roster.pk).house_rules == {}
    assert not roster.changes.filter(kind="house_rules").exists()


def test_the_schema_documents_the_readings():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    body = schema["paths"]["/api/v1/rosters/{id}/house-rules/"]["post"]["requestBody"]
    ref = body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    army = schema["components"]["schemas"][ref]["properties"]["army"]
    readings = schema["components"]["schemas"][army["allOf"][0]["$ref"].rsplit("/", 1)[1]]
    assert set(readings["properties"]) == set(ArmyOptions().to_dict())
