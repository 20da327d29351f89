"""Chart tables typed as rows and columns (issue 17, item 4): the TCS Command Prep Table and
the 1936 Costa / Ciudad sector table are grids of inputs, one per cell, never JSON to type."""

import re

import pytest
from django.urls import reverse

from campaigns.models import LogEntry
from campaigns.models.tcs import TcsSide
from campaigns.services.tcs import (
    tcs_operation_start,
    tcs_phase_attempt,
    tcs_phase_open,
    tcs_phase_weighted_turns,
    tcs_sheet_draw,
)
from rules.m1936.scenario import ELEMENTS
from tests.web.roster_helpers import m1936_battle
from tests.web.test_tcs_pages import GERMAN_REGIMENT, bloody_110, sides

pytestmark = pytest.mark.django_db

P = "settings-prep_table"


@pytest.fixture
def op(user, other_user):
    return bloody_110(user, other_user)


def settings_url(op):
    return reverse("tcs-side", args=[op.pk, sides(op)[0].pk])


def prep_post(cells: dict[str, str], **extra) -> dict:
    """The settings form as the page posts it: rating 3, the attack grid 6 × 5 as shown."""
    return {
        "action": "settings",
        "settings-rating": "3",
        f"{P}-attack-rows": "6",
        f"{P}-attack-cols": "5",
        **{f"{P}-attack-{k}": v for k, v in cells.items()},
        **extra,
    }


# Attack row for rating + size 5 (typed in the "wrong" column order: the grid sorts them)
ATTACK = {"c0": "22", "c1": "0", "r0": "5", "0-0": "52", "0-1": "-", "r1": "7", "1-0": "44"}
ATTACK["1-1"] = "66"


def test_tcs_grid_is_saved_and_read_by_the_implementation_roll(client, op, user):
    client.force_login(user)
    page = client.get(settings_url(op)).text
    assert f'name="{P}-attack-0-0"' in page and 'inputmode="numeric"' in page
    assert "Paste JSON instead" in page
    response = client.post(settings_url(op), prep_post(ATTACK))
    assert response.status_code == 302
    germans = sides(op)[0]
    assert TcsSide.objects.get(side=germans).prep_table == [
        {"type": "attack", "columns": [0, 22], "rows": {"5": [None, 52], "7": [66, 44]}}
    ]
    # the saved table comes back in the cells, with blank rows and columns to grow it
    page = client.get(settings_url(op)).text
    assert re.search(rf'name="{P}-attack-0-1" id="[^"]+" value="52"', page)
    assert re.search(rf'name="{P}-attack-0-0" id="[^"]+" value="-"', page)
    assert f'name="{P}-attack-c4"' in page and f'name="{P}-attack-c5"' not in page
    # the Command Prep roll reads it: rating 3 + size 2 = row 5, 3 WT → column 0 (no number)
    tcs_operation_start(campaign=op, actor=user)
    sheet = tcs_sheet_draw(
        side=germans, actor=user, code="Regt", missions=dict.fromkeys(GERMAN_REGIMENT, "attack")
    )
    phase = tcs_phase_open(side=germans, actor=user)
    tcs_phase_weighted_turns(phase=phase, actor=user)
    sheet.refresh_from_db()
    assert sheet.weighted_turns == 3
    result = tcs_phase_attempt(phase=phase, sheet=sheet, actor=user, roll=66)
    assert result["outcome"] == "not_implemented"
    assert LogEntry.objects.filter(campaign=op, rule="6.9.f", summary__contains="column 0").exists()


@pytest.mark.parametrize(
    "cells, words",
    [
        ({**ATTACK, "0-0": "67"}, "Attack: Rating + size 5, Weighted turns 22: a whole number"),
        ({**ATTACK, "0-0": "47"}, "Attack: Rating + size 5, Weighted turns 22: a d66 reading"),
        ({**ATTACK, "0-0": ""}, "Attack: Rating + size 5, Weighted turns 22: empty"),
        ({**ATTACK, "r1": ""}, "Attack: Rating + size, heading 2: write it"),
        ({**ATTACK, "c1": "22"}, "Attack: Weighted turns, heading 2: 22 is given twice"),
        (
            {**ATTACK, "2-4": "33"},
            "Attack: Rating + size, heading 3: write it, or clear the cells under it",
        ),
    ],
)
def test_a_bad_cell_is_named_next_to_it_and_nothing_changes(client, op, user, cells, words):
    client.force_login(user)
    response = client.post(settings_url(op), prep_post(cells))
    assert response.status_code == 400
    text = response.content.decode()
    # next to its cell (the input says it is invalid and points at the words) …
    assert re.search(
        r'aria-invalid="true" aria-describedby="[^"]+-error">'
        r'<span class="error grid-error"[^>]*>' + re.escape(words),
        text,
    )
    # … and what was typed is still there
    assert re.search(rf'name="{P}-attack-r0" id="[^"]+" value="5"', text)
    assert TcsSide.objects.get(side=sides(op)[0]).prep_table is None


def test_more_rows_adds_blank_lines_and_saves_nothing(client, op, user):
    client.force_login(user)
    response = client.post(settings_url(op), prep_post(ATTACK, **{f"{P}-attack-more": "rows"}))
    assert response.status_code == 400
    text = response.content.decode()
    assert "Blank rows and columns added: fill them in, then save." in text
    assert f'name="{P}-attack-r9"' in text and f'name="{P}-attack-r10"' not in text
    assert re.search(rf'name="{P}-attack-0-0" id="[^"]+" value="52"', text)  # kept as typed
    assert TcsSide.objects.get(side=sides(op)[0]).prep_table is None
    wider = client.post(settings_url(op), prep_post(ATTACK, **{f"{P}-attack-more": "cols"}))
    assert f'name="{P}-attack-c6"' in wider.content.decode()


def test_empty_grid_means_thresholds_from_the_printed_chart(client, op, user):
    client.force_login(user)
    client.post(settings_url(op), prep_post(ATTACK))
    cleared = prep_post({k: "" for k in ATTACK}, **{"settings-rating": "4"})
    assert client.post(settings_url(op), cleared).status_code == 302
    settings = TcsSide.objects.get(side=sides(op)[0])
    assert (settings.rating, settings.prep_table) == (4, None)
    assert LogEntry.objects.filter(
        campaign=op, summary__contains="thresholds read off the printed chart"
    ).exists()


def test_pasted_json_still_works_and_wins_over_the_grid(client, op, user):
    client.force_login(user)
    table = '[{"type": "move", "columns": [8], "rows": {"3": [44]}}]'
    assert client.post(settings_url(op), prep_post(ATTACK, **{P: table})).status_code == 302
    assert TcsSide.objects.get(side=sides(op)[0]).prep_table == [
        {"type": "move", "columns": [8], "rows": {"3": [44]}}
    ]


# --- 1936: the Costa / Ciudad sector table -------------------------------------------------

U = "user_table"
SECTORS = ("Sector de Playa", "Sector de Dunas", "Sector de Pueblo", "Sector de Acantilado")


@pytest.fixture
def m36_battle(user, other_user):
    return m1936_battle(user, other_user, ("Oficial",))


def scenario(client, battle, **cells):
    data = {"terrain": "Costa", "dice_mode": "entered", "dice": "1;2;3;4"}
    for n, name in enumerate(SECTORS, start=1):
        data[f"{U}-s{n}-name"] = name
        for i in range(len(ELEMENTS)):
            data[f"{U}-s{n}-{i}-0"], data[f"{U}-s{n}-{i}-1"] = "0", str(n % 3)
    data.update(cells)
    return client.post(reverse("skirmish-action", args=[battle.pk, "scenario"]), data)


def test_1936_sector_grid_creates_the_scenario(client, user, m36_battle):
    client.force_login(user)
    page = client.get(m36_battle.get_absolute_url()).text
    assert f'name="{U}-s1-name"' in page and f'name="{U}-s4-11-1"' in page
    assert "Line of bushes (5)" in page and "Paste JSON instead" in page
    spanish = client.get(m36_battle.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").text
    assert "Línea de arbustos (5)" in spanish and "Line of bushes" not in spanish
    assert scenario(client, m36_battle, **{f"{U}-s2-7-1": "3"}).status_code == 302
    m36_battle.refresh_from_db()
    table = m36_battle.scenario["table"]
    assert table["provenance"] == "user"
    assert sorted(table["ranges"]) == sorted(SECTORS)  # a JSON object: jsonb keeps no order
    assert table["ranges"]["Sector de Dunas"]["Muro"] == [0, 3]
    assert m36_battle.scenario["sectors"]["1"] == "Sector de Playa"


@pytest.mark.parametrize(
    "cells, words",
    [
        ({f"{U}-s1-7-0": "x"}, "Sector de Playa: Wall, Minimum: write a whole number"),
        (
            {f"{U}-s3-0-0": "2", f"{U}-s3-0-1": "1"},
            "Sector de Pueblo: Woods, Maximum: the maximum is below the minimum",
        ),
        ({f"{U}-s4-name": ""}, "Sector type 4: write its name."),
        ({f"{U}-s2-11-1": ""}, "Sector de Dunas: Patch of bushes (5), Maximum: empty"),
    ],
)
def test_1936_bad_cell_is_named_and_no_scenario(client, user, m36_battle, cells, words):
    client.force_login(user)
    response = scenario(client, m36_battle, **cells)
    assert response.status_code == 400
    assert words in response.content.decode()
    m36_battle.refresh_from_db()
    assert m36_battle.scenario == {}


def test_1936_empty_grid_still_asks_for_a_table_for_costa(client, user, m36_battle):
    client.force_login(user)
    data = {"terrain": "Costa", "dice_mode": "server"}
    response = client.post(reverse("skirmish-action", args=[m36_battle.pk, "scenario"]), data)
    assert response.status_code == 400 and "no scenery table for Coast" in response.text
    m36_battle.refresh_from_db()
    assert m36_battle.scenario == {}
