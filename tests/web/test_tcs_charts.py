"""An operation's TCS charts (issue 13): typed as grids, uploaded as JSON or CSV, read and
replaced through the API, parsed by the selector for the procedures.

FICTIONAL TEST DATA: the seed prints none of these charts; every value below is invented for
the tests and reads nothing off any real chart.
"""

import json

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from campaigns.exports import campaign_export, campaign_import
from campaigns.models import Campaign, LogEntry
from campaigns.selectors.tcs_charts import operation_charts
from campaigns.services.tcs.charts import tcs_charts_update
from rules.tcs.fire_tables import FireCharts, Terrain
from rules.tcs.morale_table import MoraleResult, MoraleTable
from tests.web.test_tcs_pages import make_operation

pytestmark = pytest.mark.django_db

# FICTIONAL TEST DATA
MORALE = {
    "columns": ["≤3", "4-6", "7+"],
    "rows": [
        {"rolls": "11-36", "results": ["none", "suppressed", "paralyzed"]},
        {"rolls": "41-66", "results": ["suppressed", "syr", "surrender"]},
    ],
}
MORALE_CSV = "rolls,≤3,4-6,7+\n11-36,none,suppressed,paralyzed\n41-66,suppressed,syr,surrender\n"
FIRE = {  # FICTIONAL TEST DATA
    "columns": ["0", "1-2", "3+"],
    "p_firers": {"1-2": 1},
    "rows": [
        {"rolls": "11-36", "cells": ["-", "-", "MC"]},
        {"rolls": "41-66", "cells": ["-", "MC", 1]},
    ],
}
AT = [  # FICTIONAL TEST DATA
    {"terrain": "billiard_table", "in_hex": 5, "one_hex": 6},
    {"terrain": "open", "in_hex": 6, "one_hex": 7},
    {"terrain": "partly_protective", "in_hex": 7, "one_hex": 8},
    {"terrain": "protective", "in_hex": 8, "one_hex": None},
]
SHIFTS = {  # FICTIONAL TEST DATA
    "point_range": [{"band": "close", "shift": 1}, {"band": "long", "shift": -1}],
    "differential": [{"from": None, "to": 0, "shift": -1}, {"from": 1, "to": None, "shift": 1}],
}


@pytest.fixture
def op(user, other_user):
    return make_operation(user, other_user)[0]


@pytest.fixture
def outsider(make_user):
    return make_user("carol")


def url(op):
    return reverse("tcs-charts", args=[op.pk])


def grid_post(chart, rows, columns, cells):
    """The POST of a chart's grid: typed headers and cells."""
    base = f"{chart}-table-{chart}"
    data = {"action": chart, f"{base}-rows": len(rows), f"{base}-cols": len(columns)}
    data.update({f"{base}-r{i}": r for i, r in enumerate(rows)})
    data.update({f"{base}-c{j}": c for j, c in enumerate(columns)})
    for i, line in enumerate(cells):
        data.update({f"{base}-{i}-{j}": c for j, c in enumerate(line)})
    return data


def stored(op):
    op.refresh_from_db()
    return op.tables.get("tcs_charts", {})


def test_empty_page_explains_nothing_is_invented(client, user, op):
    client.force_login(user)
    page = client.get(url(op))
    assert page.status_code == 200
    text = page.content.decode()
    assert "never invents a number" in text
    assert "No chart entered yet" in text
    assert url(op) in client.get(reverse("tcs-operation", args=[op.pk])).content.decode()


def test_grid_saves_a_fictional_morale_table(client, user, op):
    client.force_login(user)
    post = grid_post(
        "morale",
        ["11-36", "41-66"],
        ["≤3", "4-6", "7+"],
        [["none", "suppressed", "paralyzed"], ["suppressed", "syr", "surrender"]],
    )
    page = client.post(url(op), post)
    assert page.status_code == 302
    assert stored(op)["morale"] == MORALE
    assert LogEntry.objects.filter(campaign=op, rule="17.2").exists()
    again = client.get(url(op)).content.decode()
    assert 'value="surrender"' in again  # the saved chart comes back in its cells


def test_grid_names_a_bad_cell_and_saves_nothing(client, user, op):
    client.force_login(user)
    post = grid_post(
        "morale",
        ["11-36", "41-66"],
        ["≤3", "7+"],
        [["none", "panic"], ["suppressed", "syr"]],
    )
    page = client.post(url(op), post)
    assert page.status_code == 400
    text = page.content.decode()
    assert "Morale Table: d66 rolls 11-36, Morale check total 7+" in text
    assert "none, suppressed, paralyzed, syr or surrender" in text
    assert "morale" not in stored(op)


def test_grid_whole_chart_problem_is_named(client, user, op):
    client.force_login(user)
    post = grid_post("morale", ["11-36"], ["≤3", "4+"], [["none", "syr"]])
    page = client.post(url(op), post)
    assert page.status_code == 400
    assert "no row covers roll(s) 41" in page.content.decode()
    assert stored(op) == {}


def test_grid_fire_table_with_p_firers_row(client, user, op):
    client.force_login(user)
    post = grid_post(
        "fire",
        ["11-36", "41-66", "p_firers"],
        ["0", "1-2", "3+"],
        [["-", "-", "mc"], ["-", "MC", "1"], ["-", "1", "-"]],
    )
    assert client.post(url(op), post).status_code == 302
    assert stored(op)["fire"] == FIRE


def test_grid_at_roll_table_has_fixed_rows(client, user, op):
    client.force_login(user)
    base = "at-table-at"
    post = {"action": "at"}
    for i, record in enumerate(AT):
        for j, key in enumerate(("in_hex", "one_hex")):
            post[f"{base}-{i}-{j}"] = "-" if record[key] is None else str(record[key])
    assert client.post(url(op), post).status_code == 302
    assert stored(op)["at"] == AT
    post[f"{base}-0-0"] = "14"
    page = client.post(url(op), post)
    assert page.status_code == 400
    assert "a number from 2 to 13" in page.content.decode()


def test_grid_shift_tables(client, user, op):
    client.force_login(user)
    post = {"action": "shifts", "shifts-table-differential-rows": 2}
    post.update({"shifts-table-point_range-0-0": "+1", "shifts-table-point_range-2-0": "-1"})
    post["shifts-table-point_range-1-0"] = "-"
    post.update({"shifts-table-differential-r0": "≤0", "shifts-table-differential-0-0": "-1"})
    post.update({"shifts-table-differential-r1": "1+", "shifts-table-differential-1-0": "1"})
    assert client.post(url(op), post).status_code == 302
    assert stored(op)["shifts"] == SHIFTS
    assert 'value="≤0"' in client.get(url(op)).content.decode()


def test_upload_json_and_csv(client, user, op):
    client.force_login(user)
    upload = SimpleUploadedFile("fire.json", json.dumps(FIRE).encode(), "application/json")
    page = client.post(url(op), {"action": "upload", "upload-chart": "fire", "upload-file": upload})
    assert page.status_code == 302
    page = client.post(
        url(op), {"action": "upload", "upload-chart": "morale", "upload-text": MORALE_CSV}
    )
    assert page.status_code == 302
    assert stored(op) == {"fire": FIRE, "morale": MORALE}


def test_bad_upload_changes_nothing(client, user, op):
    client.force_login(user)
    tcs_charts_update(campaign=op, actor=user, chart="morale", data=MORALE)
    bad = MORALE_CSV.replace("syr", "flee")
    page = client.post(url(op), {"action": "upload", "upload-chart": "morale", "upload-text": bad})
    assert page.status_code == 400
    assert "row 2, column 2: flee is not a result" in page.content.decode()
    assert stored(op) == {"morale": MORALE}
    page = client.post(
        url(op), {"action": "upload", "upload-chart": "shifts", "upload-text": "a,b"}
    )
    assert page.status_code == 400
    assert "JSON, not CSV" in page.content.decode()


def test_service_refuses_a_bad_chart_naming_every_cell(user, op):
    bad = {**MORALE, "rows": [{"rolls": "11-36", "results": ["none", "x", "y"]}]}
    with pytest.raises(ValidationError) as caught:
        tcs_charts_update(campaign=op, actor=user, chart="morale", data=bad)
    words = " ".join(caught.value.message_dict["morale"])
    assert "column 2: x" in words and "column 3: y" in words and "41" in words
    assert stored(op) == {}


def test_both_sides_and_no_outsider_may_edit(client, user, other_user, outsider, op):
    tcs_charts_update(campaign=op, actor=other_user, chart="at", data=AT)  # the other side
    with pytest.raises(ValidationError):
        tcs_charts_update(campaign=op, actor=outsider, chart="at", data=None)
    client.force_login(outsider)
    assert client.get(url(op)).status_code == 404  # a private operation
    assert client.post(url(op), {"action": "at"}).status_code == 404
    Campaign.objects.filter(pk=op.pk).update(visibility=Campaign.Visibility.PUBLIC)
    assert client.get(url(op)).status_code == 200  # reads, but no form
    assert client.post(url(op), {"action": "at"}).status_code == 404
    assert stored(op) == {"at": AT}


def test_removing_a_chart(user, op):
    tcs_charts_update(campaign=op, actor=user, chart="at", data=AT)
    tcs_charts_update(campaign=op, actor=user, chart="at", data=None)
    assert stored(op) == {}


def test_selector_returns_parsed_charts(user, op):
    empty = operation_charts(op)
    assert empty.morale is None and empty.fire is None
    for chart, data in (("morale", MORALE), ("fire", FIRE), ("shifts", SHIFTS), ("at", AT)):
        tcs_charts_update(campaign=op, actor=user, chart=chart, data=data)
    op.refresh_from_db()
    charts = operation_charts(op)
    assert isinstance(charts.morale, MoraleTable)
    assert charts.morale.result(7, 52) is MoraleResult.SURRENDER
    assert isinstance(charts.fire, FireCharts)
    assert charts.fire.fire.cell(charts.fire.fire.column_for(5), 44) == 1
    assert charts.fire.point_range == {"close": 1, "long": -1}
    assert charts.fire.at_roll[Terrain.PROTECTIVE] == {0: 8, 1: None}


def api(who):
    client = APIClient()
    client.force_authenticate(who)
    return client


def test_api_round_trip(user, other_user, op):
    path = f"/api/v1/tcs/charts/{op.pk}/"
    got = api(user).get(path)
    assert got.status_code == 200, got.content
    assert got.json() == {
        "campaign": op.pk,
        "morale": None,
        "fire": None,
        "shifts": None,
        "at": None,
        "adjustment": None,
    }
    put = api(other_user).put(path, {"chart": "morale", "data": MORALE}, format="json")
    assert put.status_code == 200, put.content
    assert put.json()["morale"] == MORALE
    put = api(user).put(path, {"chart": "fire", "csv": "rolls,0,1+\n11-66,-,MC\n"}, format="json")
    assert put.status_code == 200, put.content
    assert api(user).get(path).json()["fire"]["rows"] == [{"rolls": "11-66", "cells": ["-", "MC"]}]


def test_api_400_names_the_cell_and_changes_nothing(user, op):
    path = f"/api/v1/tcs/charts/{op.pk}/"
    bad = {
        **MORALE,
        "rows": [MORALE["rows"][0], {"rolls": "41-66", "results": ["none", "?", "syr"]}],
    }
    put = api(user).put(path, {"chart": "morale", "data": bad}, format="json")
    assert put.status_code == 400
    assert "row 2, column 2: ? is not a result" in json.dumps(put.json(), ensure_ascii=False)
    assert stored(op) == {}
    put = api(user).put(path, {"chart": "dice", "data": {}}, format="json")
    assert put.status_code == 400


def test_api_outsider(outsider, op):
    path = f"/api/v1/tcs/charts/{op.pk}/"
    assert api(outsider).get(path).status_code == 404
    Campaign.objects.filter(pk=op.pk).update(visibility=Campaign.Visibility.PUBLIC)
    assert api(outsider).get(path).status_code == 200
    put = api(outsider).put(path, {"chart": "at", "data": AT}, format="json")
    assert put.status_code == 403
    assert stored(op) == {}


def test_export_and_import_keep_the_charts(user, op):
    tcs_charts_update(campaign=op, actor=user, chart="morale", data=MORALE)
    op.refresh_from_db()
    data = campaign_export(op)
    assert data["campaign"]["tables"]["tcs_charts"] == {"morale": MORALE}
    copy = campaign_import(json.loads(json.dumps(data)), actor=user)
    assert operation_charts(copy).morale.result(2, 11) is MoraleResult.NO_EFFECT
