"""The campaign tables page as a grid (issue 17, finding 7; finding 34's creation flash)."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from campaigns.cc.engines import EXAMPLE_FILE
from campaigns.cc.labels import EXAMPLE_WORDS
from campaigns.management.commands.load_demo import DEMO_TABLES
from campaigns.models import LogEntry
from campaigns.services import side_join
from campaigns.services.cc_campaigns import cc_campaign_create, cc_tables_update
from campaigns.services.cc_tables import example_tables
from rules.tables import load_json
from tests.web.test_api_cc_endpoints import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def kurgan(user, other_user):
    """A fresh Stalingrad campaign: the rulebook's values only (costs unknown)."""
    c = cc_campaign_create(creator=user, name="Kurgan", template="stalingrad", creator_side=0)
    side_join(user=other_user, side=c.sides.get(order=1))
    return c


def _grid(client, campaign) -> dict[str, str]:
    """The grid as the browser would post it: every input with its shown value."""
    form = client.get(reverse("cc-tables", args=[campaign.pk])).context["grid"]
    data = {}
    for name in form.fields:
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = "" if value is None else str(value)
    data["action"] = "save"
    return data


def _forces(campaign) -> dict[str, dict]:
    campaign.refresh_from_db()
    return {r["formation"]: r for r in campaign.tables["campaign_forces"]["rows"]}


def _index(campaign, formation: str) -> int:
    rows = campaign.tables["campaign_forces"]["rows"]
    return next(i for i, r in enumerate(rows) if r["formation"] == formation)


def test_page_is_a_grid_in_player_words_without_json(client, user, kurgan):
    client.force_login(user)
    html = client.get(reverse("cc-tables", args=[kurgan.pk])).content.decode()
    assert "<textarea" not in html and "null" not in html and "seed" not in html
    assert 'name="campaign_forces-2-cost"' in html
    assert 'aria-label="Campaign Forces Table, row 3, Cost"' in html
    assert "the rulebook names only the 8 starting patrols" in html.lower()
    assert "Not printed in the rulebook: copy each side" in html
    assert "Upload a file instead" in html and "Use the example tables" in html


def test_saving_the_grid_unchanged_changes_nothing(client, user, kurgan):
    client.force_login(user)
    before = kurgan.tables
    response = client.post(reverse("cc-tables", args=[kurgan.pk]), _grid(client, kurgan))
    assert response.status_code == 302
    kurgan.refresh_from_db()
    assert kurgan.tables == before


def test_valid_grid_saves_the_values_and_keeps_empty_cells_unknown(client, user, kurgan):
    client.force_login(user)
    data = _grid(client, kurgan)
    c, d = _index(kurgan, "C"), _index(kurgan, "D")
    data[f"campaign_forces-{c}-cost"] = " 3 "
    data[f"campaign_forces-{c}-orders"] = "1"
    # a new patrol in the empty row, its Orders left empty
    new = int(data["campaign_forces-count"]) - 1
    data |= {f"campaign_forces-{new}-formation": "G", f"campaign_forces-{new}-side": "axis"}
    data[f"campaign_forces-{new}-cost"] = "4"
    # the Divisional Reserve Table: one row
    data |= {
        "divisional_reserve-0-side": "axis",
        "divisional_reserve-0-roll_low": "2",
        "divisional_reserve-0-roll_high": "6",
        "divisional_reserve-0-formation": "G",
    }
    response = client.post(reverse("cc-tables", args=[kurgan.pk]), data)
    assert response.status_code == 302
    forces = _forces(kurgan)
    assert forces["C"]["cost"] == 3 and forces["C"]["orders"] == 1
    assert forces["D"]["cost"] is None  # left empty: still not known
    assert "orders" not in forces["D"] or forces["D"]["orders"] is None
    assert forces["G"] == {
        "formation": "G",
        "side": "axis",
        "cost": 4,
        "orders": None,
        "initiative": None,
        "surrender": None,
    }
    assert kurgan.tables["divisional_reserve"]["rows"] == [
        {"side": "axis", "roll_low": 2, "roll_high": 6, "formation": "G"}
    ]
    assert d != c
    entry = LogEntry.objects.filter(campaign=kurgan).order_by("-seq").first()
    assert entry.summary == "Campaign tables updated."


def test_clearing_a_cell_makes_it_unknown_again(client, user, kurgan):
    cc_tables_update(campaign=kurgan, actor=user, data=example_tables("stalingrad"))
    client.force_login(user)
    data = _grid(client, kurgan)
    data[f"campaign_forces-{_index(kurgan, 'C')}-cost"] = ""
    assert client.post(reverse("cc-tables", args=[kurgan.pk]), data).status_code == 302
    assert _forces(kurgan)["C"]["cost"] is None
    page = client.get(reverse("campaign-detail", args=[kurgan.pk])).content.decode()
    assert "still miss" in page


def test_invalid_cells_get_their_own_message_and_nothing_is_saved(client, user, kurgan):
    client.force_login(user)
    before = kurgan.tables
    data = _grid(client, kurgan)
    c = _index(kurgan, "C")
    data[f"campaign_forces-{c}-cost"] = "three"
    data[f"campaign_forces-{c}-orders"] = "-1"
    data |= {
        "divisional_reserve-0-side": "axis",
        "divisional_reserve-0-roll_low": "9",
        "divisional_reserve-0-roll_high": "13",
    }
    response = client.post(reverse("cc-tables", args=[kurgan.pk]), data)
    assert response.status_code == 200
    form = response.context["grid"]
    n = c + 1
    assert form.errors[f"campaign_forces-{c}-cost"] == [
        f"Campaign Forces Table, row {n} (C), Cost: enter a whole number"
    ]
    assert form.errors[f"campaign_forces-{c}-orders"] == [
        f"Campaign Forces Table, row {n} (C), Orders: enter 0 or more"
    ]
    assert form.errors["divisional_reserve-0-roll_high"] == [
        "Divisional Reserve Table, row 1, Highest roll: enter 12 or less"
    ]
    assert form.errors["divisional_reserve-0-formation"] == [
        "Divisional Reserve Table, row 1, Formation: fill this in"
    ]
    html = response.content.decode()
    assert "must be int" not in html and "Nothing was saved" in html
    # the message sits in the cell of the input it is about, and the typed text stays
    cell = html.split(f'name="campaign_forces-{c}-cost"')[1].split("</td>")[0]
    assert 'value="three"' in cell and "enter a whole number" in cell
    assert f'aria-describedby="campaign_forces-{c}-cost-error"' in cell
    kurgan.refresh_from_db()
    assert kurgan.tables == before


SPANISH = {
    "%(table)s, row %(n)s (%(name)s), %(column)s: %(problem)s": (
        "%(table)s, fila %(n)s (%(name)s), %(column)s: %(problem)s"
    ),
    "Campaign Forces Table": "Tabla de Fuerzas de Campaña",
    "Cost": "Coste",
    "enter a whole number": "escribe un número entero",
}


def test_cell_messages_are_drawn_in_the_readers_language(client, user, kurgan, monkeypatch):
    """Every part of a cell's message (sentence, table, column, problem) is a message id the
    site translates when it draws the page (the catalogue stubbed with this test's words)."""
    monkeypatch.setattr("campaigns.i18n.gettext", lambda text: SPANISH.get(text, text))
    client.force_login(user)
    data = _grid(client, kurgan)
    c = _index(kurgan, "C")
    data[f"campaign_forces-{c}-cost"] = "tres"
    response = client.post(reverse("cc-tables", args=[kurgan.pk]), data)
    assert response.context["grid"].errors[f"campaign_forces-{c}-cost"] == [
        f"Tabla de Fuerzas de Campaña, fila {c + 1} (C), Coste: escribe un número entero"
    ]


def test_remove_a_row_and_add_an_empty_row(client, user, kurgan):
    client.force_login(user)
    data = _grid(client, kurgan)
    count = int(data["campaign_forces-count"])
    added = client.post(reverse("cc-tables", args=[kurgan.pk]), {**data, "add": "campaign_forces"})
    assert added.status_code == 200 and not added.context["grid"].errors
    assert f'name="campaign_forces-{count}-formation"' in added.content.decode()
    data[f"campaign_forces-{_index(kurgan, 'Pionier')}-remove"] = "on"
    assert client.post(reverse("cc-tables", args=[kurgan.pk]), data).status_code == 302
    assert "Pionier" not in _forces(kurgan) and "C" in _forces(kurgan)


def test_example_tables_button_replaces_values_and_is_logged(client, user, other_user, kurgan):
    page = reverse("cc-tables", args=[kurgan.pk])
    client.force_login(other_user)
    assert client.post(page, {"action": "example"}).status_code == 403
    client.force_login(user)
    html = client.get(page).content.decode()
    assert "data-confirm=" in html and "placeholders" in html
    response = client.post(page, {"action": "example"}, follow=True)
    assert "made-up placeholders, not the rulebook" in response.content.decode()
    kurgan.refresh_from_db()
    assert kurgan.tables == example_tables("stalingrad")
    assert _forces(kurgan)["C"]["cost"] == 2
    entry = LogEntry.objects.filter(campaign=kurgan).order_by("-seq").first()
    assert "example tables" in entry.summary and entry.actor == user


def test_upload_stays_as_an_option_json_and_csv(client, user, kurgan):
    client.force_login(user)
    page = reverse("cc-tables", args=[kurgan.pk])
    csv = "side,roll_low,roll_high,formation\naxis,2,7,C\naxis,8,12,D\nallies,2,12,A\n"
    upload = SimpleUploadedFile("reserve.csv", csv.encode(), content_type="text/csv")
    assert client.post(page, {"action": "upload", "upload": upload}).status_code == 302
    kurgan.refresh_from_db()
    assert kurgan.tables["divisional_reserve"]["rows"][0] == {
        "side": "axis",
        "roll_low": 2,
        "roll_high": 7,
        "formation": "C",
    }
    bad = SimpleUploadedFile("x.csv", b"side,roll_low,roll_high,formation\naxis,two,7,C\n")
    response = client.post(page, {"action": "upload", "upload": bad})
    assert "Divisional Reserve Table, row 1 (C), Lowest roll: enter a whole number" in (
        response.content.decode()
    )


def test_players_see_the_tables_read_only(client, other_user, kurgan):
    client.force_login(other_user)
    html = client.get(reverse("cc-tables", args=[kurgan.pk])).content.decode()
    assert 'name="campaign_forces-0-cost"' not in html and "Remove" not in html
    assert "Pionier" in html and "Use the example tables" not in html


def test_api_reports_table_problems_in_words(user, kurgan):
    api = client_for(user)
    bad = {"campaign_forces": {"rows": [{"formation": "C", "side": "axis", "cost": "three"}]}}
    url = f"/api/v1/campaigns/{kurgan.pk}/tables/"
    response = api.put(url, {"tables": bad}, format="json")
    assert response.status_code == 400
    assert response.json()["tables"] == [
        "Campaign Forces Table, row 1 (C), Cost: enter a whole number"
    ]


def test_creation_flash_agrees_with_the_missing_values_banner(client, user):
    client.force_login(user)
    response = client.post(
        reverse("cc-new", args=["stalingrad"]),
        {"name": "K", "role": "0", "visibility": "private", "dice_mode": "server"},
        follow=True,
    )
    html = response.content.decode()
    assert "example tables" not in html
    assert "hold only the values the rulebook prints" in html and "still miss" in html


def _example_texts() -> set[str]:
    """Every kind, composition and note the site's example and demo tables write."""
    files = [load_json(EXAMPLE_FILE)[k] for k in ("stalingrad", "normandy")]
    files.append(json.loads(DEMO_TABLES.read_text(encoding="utf-8")))
    found = set()
    for tables in files:
        for table in tables.values():
            if not isinstance(table, dict):
                continue
            found |= {table["note"]} if "note" in table else set()
            for row in table.get("rows") or []:
                found |= {
                    v
                    for k, v in row.items()
                    if isinstance(v, str) and (k in ("kind", "note") or k.startswith("compos"))
                }
    return found


def test_example_words_are_messages_and_read_in_spanish(client, user, kurgan):
    """Finding 7/8: the example tables' words are the site's, so they are translated; saving
    the Spanish grid unchanged keeps the stored English words."""
    assert _example_texts() <= set(EXAMPLE_WORDS)
    assert not any("seed" in text for text in _example_texts())
    client.force_login(user)
    before = kurgan.tables
    with translation.override("es"):
        html = client.get(reverse("cc-tables", args=[kurgan.pk]), HTTP_ACCEPT_LANGUAGE="es")
        text = html.content.decode()
        assert "Sgt Biermann o Sgt Esser" in text and "Sgt Biermann or Sgt Esser" not in text
        data = _grid(client, kurgan)
    assert client.post(reverse("cc-tables", args=[kurgan.pk]), data).status_code == 302
    kurgan.refresh_from_db()
    assert kurgan.tables == before
