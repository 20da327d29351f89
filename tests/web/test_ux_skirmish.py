"""Issue 17, the skirmish games: rosters and battles read as words in the reader's language.

Findings 5 (identifiers in the Parabellum builder), 8 (Spanish game data in English), 16 (the
log names whose soldier), 17 (no link to a roster the reader cannot open), 22 (1936 history
and ⚠ units), 30 (grammar) and the printable roster card (item 5)."""

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.i18n import say
from campaigns.models import RosterChange
from campaigns.services.rosters import roster_create, roster_edit
from campaigns.services.skirmish import skirmish_create, skirmish_join, skirmish_turn_record
from tests.web.roster_helpers import m1936_list

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def edit(client, roster, **data):
    return client.post(reverse("roster-edit", args=[roster.pk]), data, headers=HX)


def para(owner, squad="GER/grenadier", name="Kampfgruppe"):
    return roster_create(owner=owner, system="parabellum", name=name, squad_type=squad)


def battle(user, other_user, mode="simple"):
    ger = para(user)
    usa = para(other_user, "USA/rifleman", "Easy")
    fight = skirmish_create(
        creator=user, roster=ger, role="attacker", opponent=other_user, mode=mode
    )
    skirmish_join(battle=fight, actor=other_user, roster=usa)
    return fight


def spanish_catalogue():
    """The Spanish words of these tests are in the compiled catalogue (`make messages`)."""
    with translation.override("es"):
        assert translation.gettext("MG assistant") != "MG assistant", (
            "the Spanish catalogue lacks the skirmish words: run make messages"
        )


# --- 5: words, not identifiers, in the Parabellum builder and its history --------------------


def test_builder_names_soldiers_weapons_and_extras_in_words(client, user):
    roster = para(user, "USA/rifleman")
    client.force_login(user)
    page = client.get(roster.get_absolute_url()).text
    assert "MG assistant 1" in page and "Officer" in page and "Rifleman 3" in page
    assert "mg_assistant-1 mg assistant" not in page and "officer officer" not in page
    assert "M7 grenade launcher (0.5 PM)" in page and "grenade_launcher (0.5 PM)" not in page
    assert "M1 Carbine" in page and "Carabine M1" not in page


def test_history_says_who_became_what(client, user):
    roster = para(user, "USA/rifleman")
    client.force_login(user)
    edit(client, roster, soldier_id="rifleman-1", field="scout", value="false")
    edit(client, roster, soldier_id="rifleman-3", field="scout", value="true")
    edit(client, roster, soldier_id="rifleman-4", field="specialist", value="medic")
    edit(client, roster, soldier_id="rifleman-4", field="specialist", value="")
    page = client.get(reverse("roster-history", args=[roster.pk])).text
    assert "Rifleman 1 is no longer a scout" in page
    assert "Rifleman 3 became a scout" in page
    assert "Rifleman 4 became the medic" in page
    assert "Rifleman 4 is no longer a specialist" in page
    assert "→ True" not in page and "specialist → —" not in page
    stored = RosterChange.objects.filter(roster=roster).order_by("-seq").first()
    assert stored.after["msg"]["id"] == "%(soldier)s is no longer a specialist"


def test_history_stored_as_messages_reads_in_the_readers_language(user):
    spanish_catalogue()
    roster = para(user, "USA/rifleman")
    roster_edit(
        roster=roster,
        actor=user,
        edit={"soldier_id": "rifleman-1", "field": "scout", "value": "false"},
    )
    change = RosterChange.objects.filter(roster=roster).order_by("-seq").first()
    assert say(change.after["msg"]) == "Rifleman 1 is no longer a scout"
    with translation.override("es"):
        assert say(change.after["msg"]) == "Fusilero 1 ya no es explorador"


def test_house_rules_history_names_the_rules(client, user):
    roster = para(user)
    client.force_login(user)
    client.post(
        reverse("roster-house-rules", args=[roster.pk]),
        {
            "casualties_carry_over": "on",
            "recovery_target": "11",
            "battles_to_regular": "1",
            "battles_to_veteran": "3",
            "carry_over_po": "on",
        },
    )
    page = client.get(reverse("roster-history", args=[roster.pk])).text
    assert (
        "House rules switched on: HR-1 casualties carry over (3D6 recovery roll after the "
        "battle); HR-4 PO carry-over" in page
    )
    assert "casualties_carry_over" not in page


# --- 8: English pages show English names for the game data ----------------------------------


def test_new_roster_form_names_nations_and_1936_choices_in_english(client, user):
    client.force_login(user)
    page = client.get(reverse("roster-new")).text
    for english in ("Germany · Grenadiers", "United States", "Soviet Union · Rifle squad"):
        assert english in page
    for english in ("Nationalists", "Attacker", "Veterans", "Small"):
        assert english in page
    for spanish in ("Alemania", "Estados Unidos", "Gran Bretaña", "Unión Soviética"):
        assert spanish not in page
    for spanish in (">Atacante<", ">Veteranos<", ">Pequeña<"):
        assert spanish not in page
    assert 'value="Atacante"' in page  # the stored values stay the seed's


def test_1936_builder_panel_in_english(client, user):
    roster = m1936_list(user)
    client.force_login(user)
    page = client.get(roster.get_absolute_url()).text
    assert "Nationalists</strong> · Attacker · Regulars · Small" in page


def test_orders_form_names_priority_orders_and_directives_in_english(client, user, other_user):
    fight = battle(user, other_user, mode="orders")
    client.force_login(user)
    page = client.get(fight.get_absolute_url()).text
    assert "1. Take the enemy line" in page and "1. We won&#x27;t lose any more men!" in page
    assert "Tomar la línea enemiga" not in page and "No perderemos" not in page


def test_roster_words_in_spanish(client, user):
    spanish_catalogue()
    roster = para(user, "USA/rifleman")
    client.force_login(user)
    page = client.get(roster.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").text
    assert "Asistente de ametralladora 1" in page and "Estados Unidos" in page


# --- 10: the builder reflows on a phone (markup; the browser test measures the width) --------


def test_builder_cells_carry_their_column_label_for_the_phone_layout(client, user):
    roster = para(user, "USA/rifleman")
    client.force_login(user)
    page = client.get(roster.get_absolute_url()).text
    assert 'class="roster reflow"' in page
    for label in ("Weapon", "Extras", "Experience", "Specialist", "Scout"):
        assert f'data-label="{label}"' in page


# --- 16: the skirmish log names both players' soldiers --------------------------------------


def test_shot_log_names_whose_soldiers(client, user, other_user):
    fight = battle(user, other_user)
    client.force_login(user)
    response = client.post(
        reverse("skirmish-action", args=[fight.pk, "shoot"]),
        {
            "turn": "1",
            "shooter": "0:mg_gunner",
            "target": "1:rifleman-3",
            "distance_cm": "30",
            "cover": "heavy",
            "dice_mode": "entered",
            "dice": "3 5 6; 2 3 5",
        },
        headers=HX,
    )
    assert response.status_code == 200, response.text
    event = fight.events.get(rule="6.1")
    assert event.summary.startswith("Turn 1: alice's MG gunner (MG-42) shoots bob's Rifleman 3")
    assert event.data["msg"]["id"].startswith("Turn %(t)s: %(s)s (%(w)s) shoots")
    page = client.get(fight.get_absolute_url()).text
    assert "alice&#x27;s MG gunner (MG-42) shoots bob&#x27;s Rifleman 3" in page
    assert "mg_gunner" not in event.summary and "rifleman-3" not in event.summary


# --- 17: the opponent's roster is named, linked only when the reader may open it -------------


def test_opponents_private_roster_is_not_a_404_link(client, user, other_user):
    fight = battle(user, other_user)
    theirs = fight.sides.get(index=1).roster
    mine = fight.sides.get(index=0).roster
    client.force_login(user)
    page = client.get(fight.get_absolute_url()).text
    assert f'href="{mine.get_absolute_url()}"' in page
    assert f'href="{theirs.get_absolute_url()}"' not in page and "Easy" in page
    assert client.get(theirs.get_absolute_url()).status_code == 404  # still private
    client.force_login(other_user)
    assert f'href="{theirs.get_absolute_url()}"' in client.get(fight.get_absolute_url()).text


# --- 22: 1936 builder: history refreshed with each edit; ⚠ units explained --------------------


def test_1936_edit_refreshes_the_history_out_of_band(client, user):
    roster = m1936_list(user)
    client.force_login(user)
    response = edit(client, roster, op="add_unit", profile="Oficial")
    assert response.status_code == 200
    body = response.text
    assert '<section id="roster-history" aria-labelledby="hist-h" hx-swap-oob="true">' in body
    assert "added Oficial" in body


def test_1936_units_marked_with_a_warning_say_why(client, user):
    roster = m1936_list(user)
    client.force_login(user)
    page = client.get(roster.get_absolute_url()).text
    assert "⚠ marks a unit whose values the site rebuilt from a damaged row" in page
    assert "⚠ rebuilt from a damaged rulebook row, check against your book: " in page
    response = edit(client, roster, op="add_unit", profile='CV-33/35 "Lf"')
    assert response.status_code == 200, response.text
    assert "short-range penetration, damage" in response.text
    assert "Valid: ready to field." not in response.text
    assert "Valid, but check" in response.text


# --- 30: grammar -------------------------------------------------------------------------------


def test_officer_specialist_message_reads_as_a_sentence(client, user):
    roster = para(user)
    client.force_login(user)
    response = edit(client, roster, soldier_id="officer", field="specialist", value="medic")
    assert "a officer" not in response.text
    assert "Officer cannot become a specialist: only riflemen can" in response.text


# --- item 5: the printable roster card --------------------------------------------------------


def test_printable_parabellum_card_lists_each_soldier_with_values(client, user, other_user):
    roster = para(user, "USA/rifleman")
    client.force_login(user)
    page = client.get(roster.get_absolute_url()).text
    url = reverse("roster-print", args=[roster.pk])
    assert f'href="{url}"' in page
    card = client.get(url).text
    assert "MG gunner" in card and "BAR" in card and "Rifleman 5" in card
    assert "M1 Carbine" in card and "50 cm" in card and "Semi-automatic" in card
    assert "PM spent: 0 of" in card and "@media print" not in card
    assert "data-print" in card
    client.force_login(other_user)
    assert client.get(url).status_code == 404


def test_printable_1936_card_lists_units_points_and_stats(client, user):
    roster = m1936_list(user, "Oficial")
    client.force_login(user)
    card = client.get(reverse("roster-print", args=[roster.pk])).text
    assert "1. Oficial" in card and "FAC" in card and "Points spent:" in card


# --- item 6: a Parabellum battle charted on its own clock, the turn ---------------------------


def test_parabellum_casualties_and_po_are_charted_by_turn(client, user, other_user):
    fight = battle(user, other_user)
    skirmish_turn_record(battle=fight, actor=user, turn=1, po=[2, 1], models={})
    bob = fight.sides.get(index=1)
    bob.casualties = [{"soldier_id": "rifleman-3", "turn": 2, "cause": "fire"}]
    bob.save(update_fields=["casualties"])
    client.force_login(other_user)
    page = client.get(fight.get_absolute_url()).text
    assert "Casualties by turn" in page and "PO held at the end of each turn" in page
    assert page.count("<svg") >= 2
    rows = page.split('class="chart-table"')[1].split("</table>")[0]
    # turn 1: no casualties, PO 2 and 1; turn 2: bob has lost one soldier, no PO recorded
    assert '<th scope="row">1</th><td>0</td><td>2</td><td>0</td><td>1</td>' in rows
    assert '<th scope="row">2</th><td>0</td><td>—</td><td>1</td><td>—</td>' in rows
    assert rows.count("<tr>") == 6  # the head and the game's 5 turns, however long the log
