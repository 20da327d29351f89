"""Rosters on the site: live builders, history and undo, house rules after a battle."""

from decimal import Decimal

import pytest
from django.urls import reverse

from campaigns.models import Roster
from campaigns.rosters.engine import m36_report, pb_report
from campaigns.services.rosters import roster_create, roster_edit

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def grenadier(user):
    return roster_create(
        owner=user, system="parabellum", name="Kampfgruppe", squad_type="GER/grenadier"
    )


@pytest.fixture
def nacionales(user):
    return roster_create(
        owner=user,
        system="m1936",
        name="Columna",
        faction="Nacionales",
        role="Atacante",
        quality="Regulares",
        size="Pequeña",
    )


def edit(client, roster, **data):
    return client.post(reverse("roster-edit", args=[roster.pk]), data, headers=HX)


def test_create_parabellum_roster_from_the_page(client, user):
    client.force_login(user)
    response = client.post(
        reverse("roster-new"),
        {"system": "parabellum", "name": "Easy", "squad_type": "USA/rifleman"},
        follow=True,
    )
    roster = Roster.objects.get(name="Easy")
    assert roster.data["squad_type"] == "USA/rifleman"
    assert "PM left: 10 of 10" in response.text and 'aria-live="polite"' in response.text
    assert roster.changes.get().kind == "created"


def test_create_with_bad_input_names_the_field_and_creates_nothing(client, user):
    client.force_login(user)
    response = client.post(reverse("roster-new"), {"system": "parabellum", "name": "X"})
    assert response.status_code == 400 and "Choose one of the squad types." in response.text
    response = client.post(
        reverse("roster-new"),
        {
            "system": "m1936",
            "name": "Y",
            "faction": "Nacionales",
            "role": "Atacante",
            "quality": "Regulares",
        },
    )
    assert response.status_code == 400 and "game size or an agreed defender budget" in response.text
    assert not Roster.objects.exists()


def test_D1_live_builder_shows_points_left_and_starting_po(client, user, grenadier):
    """Digest D-1: Grenadier, 4.0 PM spent with one recruit → PO floor(10 − 4) + 1 = 7."""
    client.force_login(user)
    edits = [
        ("rifleman-1", "weapon", "assault_rifle"),
        ("rifleman-2", "weapon", "assault_rifle"),
        ("rifleman-3", "extras", "panzerfaust"),
        ("rifleman-4", "extras", "panzerfaust"),
        ("officer", "experience", "veteran"),
        ("nco", "experience", "veteran"),
        ("rifleman-3", "specialist", "radio"),
        ("rifleman-4", "specialist", "medic"),
        ("rifleman-5", "experience", "recruit"),
    ]
    for soldier, field, value in edits:
        response = edit(client, grenadier, soldier_id=soldier, field=field, value=value)
        assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="builder"')  # the partial only
    assert "PM left: 6.0 of 10 · starting PO: 7" in response.text
    assert "Valid: ready to field." in response.text
    assert grenadier.changes.count() == 1 + len(edits)


def test_builder_shows_violations_live_and_refuses_unknown_values(client, user, grenadier):
    client.force_login(user)
    # a third specialist breaks §8.2.3: saved (the builder shows it) …
    for sid, kind in [("rifleman-1", "radio"), ("rifleman-2", "medic")]:
        edit(client, grenadier, soldier_id=sid, field="specialist", value=kind)
    response = edit(client, grenadier, soldier_id="rifleman-3", field="specialist", value="medic")
    assert "only one medic is allowed" in response.text
    # … but a value the list does not offer is refused and nothing changes
    before = Roster.objects.get(pk=grenadier.pk).data
    response = edit(client, grenadier, soldier_id="rifleman-4", field="weapon", value="bazooka")
    assert response.status_code == 400 and "bazooka is not a choice" in response.text
    response = edit(client, grenadier, soldier_id="nobody", field="weapon", value="rifle")
    assert response.status_code == 400 and "No soldier nobody" in response.text
    assert Roster.objects.get(pk=grenadier.pk).data == before


def test_only_the_owner_edits(client, other_user, grenadier):
    client.force_login(other_user)
    assert (
        edit(client, grenadier, soldier_id="nco", field="experience", value="veteran").status_code
        == 404
    )
    assert client.get(grenadier.get_absolute_url()).status_code == 404  # not in a campaign


def test_1936_builder_budget_and_upgrades(client, user, nacionales):
    """Pequeña attacker: 1200 points; Oficial 60 (Regulares ±0 %) + Veteranos 5 → 1135 left."""
    client.force_login(user)
    response = edit(client, nacionales, op="add_unit", profile="Oficial")
    assert "points left: 1140 of 1200" in response.text
    response = edit(client, nacionales, op="add_upgrade", entry="1", upgrade="Veteranos")
    assert "points left: 1135 of 1200" in response.text
    assert "Add an upgrade to unit 1" in response.text  # the upgrade picker stays open
    response = edit(client, nacionales, op="add_unit", profile="Panzer IV")
    assert response.status_code == 400 and "no unit called Panzer IV" in response.text
    response = edit(client, nacionales, op="remove_unit", entry="7")
    assert response.status_code == 400 and "no unit number 7" in response.text
    assert Roster.objects.get(pk=nacionales.pk).data["entries"] == [
        {"profile": "Oficial", "upgrades": ["Veteranos"], "quality": None, "label": ""}
    ]


def test_1936_defender_budget_with_attacker_bonus(user):
    attacker = roster_create(
        owner=user,
        system="m1936",
        name="A",
        faction="Republicanos",
        role="Atacante",
        quality="Verdes",
        defender_points=1001,
    )
    assert m36_report(attacker.data)["budget"] == 1502  # 1001 × 1.5 = 1501.5, half up


def test_undo_restores_the_previous_state_with_a_trace(client, user, grenadier):
    client.force_login(user)
    roster_edit(
        roster=grenadier,
        actor=user,
        edit={"soldier_id": "nco", "field": "experience", "value": "veteran"},
    )
    change = grenadier.changes.get(seq=2)
    page = client.get(reverse("roster-revert", args=[grenadier.pk, 2]))
    assert "Undo change #2?" in page.text  # confirmation first
    client.post(reverse("roster-revert", args=[grenadier.pk, 2]))
    grenadier.refresh_from_db()
    nco = next(s for s in grenadier.data["soldiers"] if s["id"] == "nco")
    assert nco["experience"] == "regular"
    last = grenadier.changes.order_by("-seq").first()
    assert last.kind == "correction" and last.reverts == change


def test_archive_asks_first_and_keeps_history(client, user, grenadier):
    client.force_login(user)
    assert (
        "Archive “Kampfgruppe”?" in client.get(reverse("roster-archive", args=[grenadier.pk])).text
    )
    client.post(reverse("roster-archive", args=[grenadier.pk]))
    grenadier.refresh_from_db()
    assert grenadier.archived_at is not None
    response = edit(client, grenadier, soldier_id="nco", field="experience", value="veteran")
    assert response.status_code == 400 and "archived; restore it first" in response.text
    assert grenadier.changes.filter(kind="archived").exists()


def test_house_rules_are_labelled_and_off_by_default(client, user, grenadier):
    client.force_login(user)
    page = client.get(grenadier.get_absolute_url()).text
    assert "None of these is in the rulebook" in page
    assert (
        'name="casualties_carry_over"' in page
        and "checked" not in page.split("hr-h")[1].split("</form>")[0]
    )
    client.post(
        reverse("roster-house-rules", args=[grenadier.pk]),
        {
            "casualties_carry_over": "on",
            "recovery_target": "11",
            "battles_to_regular": "1",
            "battles_to_veteran": "3",
        },
    )
    grenadier.refresh_from_db()
    assert grenadier.house_rules["casualties_carry_over"] is True
    assert grenadier.changes.filter(kind="house_rules").get().rule == "HR"


def test_roster_page_and_history_queries_are_bounded(
    client, user, grenadier, django_assert_max_num_queries
):
    client.force_login(user)
    for i in range(12):
        value = "veteran" if i % 2 == 0 else "regular"
        roster_edit(
            roster=grenadier,
            actor=user,
            edit={"soldier_id": "nco", "field": "experience", "value": value},
        )
    with django_assert_max_num_queries(12):
        client.get(grenadier.get_absolute_url())
    with django_assert_max_num_queries(10):
        client.get(reverse("roster-history", args=[grenadier.pk]))
    with django_assert_max_num_queries(10):
        client.get(f"/api/v1/rosters/{grenadier.pk}/history/")


def test_api_roster_create_and_edit(client, user):
    client.force_login(user)
    response = client.post(
        "/api/v1/rosters/",
        {"system": "parabellum", "name": "Api", "squad_type": "GBR/commando"},
        content_type="application/json",
    )
    assert response.status_code == 201
    pk = response.json()["id"]
    response = client.post(
        f"/api/v1/rosters/{pk}/edit/",
        {"soldier_id": "officer", "field": "experience", "value": "veteran"},
        content_type="application/json",
    )
    # Digest D-3: Commando 6.5 PM with one veteran → 6.0 left, 6 PO
    assert response.json()["validation"]["pm_left"] == "6.0"
    assert response.json()["validation"]["starting_po"] == 6
    response = client.post(
        f"/api/v1/rosters/{pk}/edit/",
        {"soldier_id": "officer", "field": "colour", "value": "red"},
        content_type="application/json",
    )
    assert response.status_code == 400 and "field" in response.json()
    history = client.get(f"/api/v1/rosters/{pk}/history/").json()
    assert [c["kind"] for c in history["results"]] == ["edit", "created"]


def test_api_hides_other_players_rosters(client, other_user, grenadier):
    client.force_login(other_user)
    assert client.get(f"/api/v1/rosters/{grenadier.pk}/").status_code == 404
    assert client.get("/api/v1/rosters/").json()["count"] == 0


def test_roster_list_empty_state_explains(client, user):
    client.force_login(user)
    assert "No rosters yet." in client.get(reverse("roster-list")).text


def test_pm_values_are_decimal_strings(grenadier):
    assert Decimal(pb_report(grenadier.data, {})["pm_left"]) == Decimal(10)
