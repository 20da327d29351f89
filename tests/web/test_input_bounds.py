"""Every free value has a limit, the same in the model, the page's form, the API's serializer
and the imports (campaigns/models/bounds.py): one over the limit is refused with a message
naming the field and nothing is stored; the limit itself is accepted.

The first tests walk every model, so a new text field without a maximum length or a new
number without a range fails the suite.
"""

from __future__ import annotations

import json
import math

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.validators import MaxLengthValidator, MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from rest_framework.test import APIClient

from campaigns.exports import campaign_export, campaign_import
from campaigns.models import Campaign, Club, League, Result, bounds
from campaigns.models.bounds import FiniteValidator, JsonSizeValidator
from campaigns.models.tcs import SHEET_TEXT_FIELDS, OpSheetRecord, TcsFormation
from campaigns.services.campaigns import campaign_create
from campaigns.services.leagues import league_create, results_import_csv
from campaigns.services.tcs import tcs_oob_import
from tests.web.test_tcs_pages import GERMAN_REGIMENT, bloody_110, make_operation, sides

pytest_plugins = ["tests.web.leagues_helpers"]

J = {"format": "json"}
NUMBERS = (models.IntegerField, models.FloatField, models.DecimalField)
# The JSON a user writes through a page, the API or an import (the rest is engine state).
USER_JSON = {
    ("Campaign", "options"),
    ("Campaign", "tables"),
    ("Decision", "answer"),
    ("League", "tiebreaks"),
    ("League", "elo_k_bands"),
    ("Result", "details"),
    ("Roster", "house_rules"),
    ("TcsSide", "prep_table"),
}


def _fields():
    for model in apps.get_app_config("campaigns").get_models():
        for field in model._meta.concrete_fields:
            yield model, field


# --- every model ----------------------------------------------------------------------------


def test_every_text_field_has_a_maximum_length():
    unbounded = []
    for model, field in _fields():
        if isinstance(field, models.TextField):
            limits = [v.limit_value for v in field.validators if isinstance(v, MaxLengthValidator)]
            if not field.max_length or limits != [field.max_length]:
                unbounded.append(f"{model.__name__}.{field.name}")
        elif isinstance(field, models.CharField) and not field.max_length:
            unbounded.append(f"{model.__name__}.{field.name}")
    assert not unbounded, f"text without a maximum length: {unbounded}"


def test_every_number_has_a_declared_range_and_floats_are_finite():
    unbounded = []
    for model, field in _fields():
        if not isinstance(field, NUMBERS) or isinstance(field, models.AutoField):
            continue
        declared = field._validators  # the model's own, not the database's integer range
        has_min = any(isinstance(v, MinValueValidator) for v in declared)
        has_max = any(isinstance(v, MaxValueValidator) for v in declared)
        finite = not isinstance(field, models.FloatField) or any(
            isinstance(v, FiniteValidator) for v in declared
        )
        if not (has_min and has_max and finite):
            unbounded.append(f"{model.__name__}.{field.name}")
    assert not unbounded, f"numbers without a range (or floats without finite): {unbounded}"


def test_json_written_by_users_has_a_size_limit():
    sized = {
        (model.__name__, field.name)
        for model, field in _fields()
        if isinstance(field, models.JSONField)
        and any(isinstance(v, JsonSizeValidator) for v in field.validators)
    }
    assert not USER_JSON - sized, USER_JSON - sized


@pytest.mark.django_db
def test_the_demo_data_is_within_every_bound():
    """Existing data stays valid: every stored value of the demo passes its field's bounds."""
    call_command("load_demo")
    refused = []
    for model, field in _fields():
        if field.is_relation:
            continue
        for pk, value in model.objects.values_list("pk", field.attname):
            if value in field.empty_values:
                continue
            try:
                field.run_validators(value)
            except ValidationError as exc:
                refused.append(f"{model.__name__}.{field.name} #{pk}: {exc.messages}")
    assert not refused, refused


def test_validators_refuse_non_finite_and_oversized_values():
    with pytest.raises(ValidationError):
        bounds.finite(math.inf)
    with pytest.raises(ValidationError):
        bounds.finite(math.nan)
    bounds.finite(1e308)
    with pytest.raises(ValidationError):
        JsonSizeValidator(10)({"a": "x" * 20})
    with pytest.raises(ValidationError):
        JsonSizeValidator(1000)([math.nan])
    JsonSizeValidator(1000)({"a": [1, 2.5, "x"]})


# --- helpers --------------------------------------------------------------------------------


def api_for(user) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def over(limit: int) -> str:
    return "x" * (limit + 1)


def at(limit: int) -> str:
    return "x" * limit


TOO_LONG = f"at most {bounds.DESCRIPTION_MAX} characters"


# --- descriptions ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_campaign_description_on_the_page(client, user):
    client.force_login(user)
    body = {"name": "Long", "system": "cc", "side_names": "A\nB", "visibility": "private"}
    page = client.post(
        reverse("campaign-new"), {**body, "description": over(bounds.DESCRIPTION_MAX)}
    )
    assert page.status_code == 200 and TOO_LONG in page.text and "description" in page.text
    assert not Campaign.objects.exists()
    ok = client.post(reverse("campaign-new"), {**body, "description": at(bounds.DESCRIPTION_MAX)})
    assert ok.status_code == 302
    assert len(Campaign.objects.get().description) == bounds.DESCRIPTION_MAX


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "body"),
    [
        ("/api/v1/campaigns/", {"name": "Long", "system": "cc", "side_names": ["A", "B"]}),
        (
            "/api/v1/campaigns/cc/",
            {
                "template": "normandy",
                "name": "Long",
                "role": "1",
                "visibility": "private",
                "dice_mode": "server",
            },
        ),
        (
            "/api/v1/tcs/operations/",
            {
                "name": "Long",
                "side_a": "G",
                "rating_a": 4,
                "side_b": "A",
                "rating_b": 3,
                "start_clock": "0620",
                "light": "day",
                "role": "1",
                "visibility": "private",
            },
        ),
    ],
)
def test_campaign_description_on_the_api(user, url, body):
    api = api_for(user)
    bad = api.post(url, {**body, "description": over(bounds.DESCRIPTION_MAX)}, **J)
    assert bad.status_code == 400 and "description" in bad.json(), bad.content
    assert not Campaign.objects.exists()
    ok = api.post(url, {**body, "description": at(bounds.DESCRIPTION_MAX)}, **J)
    assert ok.status_code == 201, ok.content
    assert len(Campaign.objects.get().description) == bounds.DESCRIPTION_MAX


@pytest.mark.django_db
def test_campaign_description_in_the_service(user):
    with pytest.raises(ValidationError) as err:
        campaign_create(
            creator=user,
            name="Long",
            system="cc",
            side_names=["A", "B"],
            description=over(bounds.DESCRIPTION_MAX),
        )
    assert "description" in err.value.message_dict
    assert not Campaign.objects.exists()


@pytest.mark.django_db
def test_club_description_on_the_page_and_the_api(client, user):
    client.force_login(user)
    page = client.post(
        reverse("club-list"), {"name": "Long", "description": over(bounds.DESCRIPTION_MAX)}
    )
    assert page.status_code == 200 and TOO_LONG in page.text
    api = api_for(user)
    bad = api.post("/api/v1/clubs/", {"name": "Long", "description": over(bounds.DESCRIPTION_MAX)})
    assert bad.status_code == 400 and "description" in bad.json()
    assert not Club.objects.exists()
    ok = api.post("/api/v1/clubs/", {"name": "Long", "description": at(bounds.DESCRIPTION_MAX)})
    assert ok.status_code == 201
    ok = client.post(
        reverse("club-list"), {"name": "Longer", "description": at(bounds.DESCRIPTION_MAX)}
    )
    assert ok.status_code == 302 and Club.objects.count() == 2


# --- op-sheet notes -------------------------------------------------------------------------


def _sheet_page_post(code: str, notes: str) -> dict:
    return {
        "code": code,
        "time_drawn": "",
        "written_notes": notes,
        "rally_points": "",
        **{f"m_{u}": "attack" for u in GERMAN_REGIMENT},
    }


@pytest.mark.django_db
def test_op_sheet_notes_on_the_page(client, user, other_user):
    op = bloody_110(user, other_user)
    germans, _ = sides(op)
    client.force_login(user)
    url = reverse("tcs-sheet-new", args=[op.pk, germans.pk])
    page = client.post(url, _sheet_page_post("A1", over(bounds.NOTES_MAX)))
    assert page.status_code == 400 and f"at most {bounds.NOTES_MAX} characters" in page.text
    assert not OpSheetRecord.objects.exists()
    assert client.post(url, _sheet_page_post("A1", at(bounds.NOTES_MAX))).status_code == 302
    assert len(OpSheetRecord.objects.get().written_notes) == bounds.NOTES_MAX


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["written_notes", "task_organization", "failure_instructions"])
def test_op_sheet_notes_on_the_api(user, other_user, field):
    op = bloody_110(user, other_user)
    germans, _ = sides(op)
    api = api_for(user)
    body = {"side": germans.pk, "code": "N1", "m_1-123/1": "attack"}
    bad = api.post("/api/v1/tcs/op-sheets/", {**body, field: over(bounds.NOTES_MAX)}, **J)
    assert bad.status_code == 400 and field in json.dumps(bad.json()), bad.content
    assert not OpSheetRecord.objects.exists()
    ok = api.post("/api/v1/tcs/op-sheets/", {**body, field: at(bounds.NOTES_MAX)}, **J)
    assert ok.status_code == 201, ok.content
    assert len(getattr(OpSheetRecord.objects.get(), field)) == bounds.NOTES_MAX


# --- formation morale -----------------------------------------------------------------------

HIGH = bounds.MORALE[1]


@pytest.mark.django_db
def test_formation_morale_start_on_the_page(client, user, other_user):
    op, germans, _ = make_operation(user, other_user)
    client.force_login(user)
    url = reverse("tcs-side", args=[op.pk, germans.pk])

    def post(code, value):
        return client.post(
            url,
            {
                "action": "formation",
                "formation-code": code,
                "formation-morale": "battalion",
                "formation-start_value": str(value),
            },
        )

    page = post("1-1", 10**30)
    assert f"less than or equal to {HIGH}" in page.text
    assert not TcsFormation.objects.exists()
    post("1-1", HIGH)
    assert TcsFormation.objects.get(code="1-1").state["value"] == HIGH


@pytest.mark.django_db
def test_formation_morale_start_on_the_api_and_in_the_csv(user, other_user):
    _op, germans, _ = make_operation(user, other_user)
    api = api_for(user)
    url = f"/api/v1/tcs/sides/{germans.pk}/formations/"
    body = {"code": "1-1", "morale": "battalion"}
    bad = api.post(url, {**body, "start_value": HIGH + 1}, **J)
    assert bad.status_code == 400 and "start_value" in bad.json(), bad.content
    bad = api.post(url, {**body, "start_value": 10**30}, **J)
    assert bad.status_code == 400
    assert not TcsFormation.objects.exists()
    assert api.post(url, {**body, "start_value": HIGH}, **J).status_code == 201
    csv = f"type,id,morale,steps\nformation,2-2,battalion,{HIGH + 1}\nformation,3-3,battalion,1\n"
    with pytest.raises(ValidationError) as err:
        tcs_oob_import(side=germans, actor=user, text=csv)
    assert any("row 2, start_value" in m for m in err.value.message_dict["csv"])
    assert TcsFormation.objects.count() == 1
    long_name = f"type,id,name,morale\nformation,4-4,{over(120)},none\n"
    with pytest.raises(ValidationError) as err:
        tcs_oob_import(side=germans, actor=user, text=long_name)
    assert any("row 2, name" in m for m in err.value.message_dict["csv"])
    track = "type,id,morale,track\nformation,5-5,vehicle,0 1 99\n"
    with pytest.raises(ValidationError) as err:
        tcs_oob_import(side=germans, actor=user, text=track)
    assert any("row 2, track" in m for m in err.value.message_dict["csv"])
    assert TcsFormation.objects.count() == 1


# --- league points, Elo and K ---------------------------------------------------------------

LOW_POINTS, HIGH_POINTS = bounds.LEAGUE_POINTS


def _league_page(**extra) -> dict:
    return {
        "name": "Spring",
        "season": "2026",
        "system": "cc",
        "points_win": "3",
        "points_draw": "1",
        "points_loss": "0",
        "tiebreaks_0": "points",
        "tiebreaks_1": "wins",
        "elo_initial": "1500",
        "elo_k_bands": "0:32",
        "elo_period": "result",
        "balance_min_plays": "10",
        **extra,
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("points_win", "1e308"),
        ("points_win", str(HIGH_POINTS + 1)),
        ("points_loss", str(LOW_POINTS - 1)),
        ("points_draw", "inf"),
        ("elo_initial", "1e9"),
        ("balance_min_plays", "100000"),
        ("elo_k_bands", "0:1e9"),
    ],
)
def test_league_numbers_on_the_page(client, club, organiser, field, value):
    client.force_login(organiser)
    page = client.post(reverse("league-new", args=[club.slug]), _league_page(**{field: value}))
    assert page.status_code == 200 and 'class="error"' in page.text
    assert not League.objects.exists()


@pytest.mark.django_db
def test_league_limits_are_accepted_on_the_page(client, club, organiser):
    client.force_login(organiser)
    body = _league_page(
        points_win=str(HIGH_POINTS), points_loss=str(LOW_POINTS), elo_k_bands="0:200, 4000:1"
    )
    assert client.post(reverse("league-new", args=[club.slug]), body).status_code == 302
    league = League.objects.get()
    assert (league.points_win, league.points_loss) == (HIGH_POINTS, LOW_POINTS)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("points_win", HIGH_POINTS + 0.5),
        ("points_loss", LOW_POINTS - 1),
        ("elo_initial", 1e9),
        ("balance_min_plays", 100_000),
        ("elo_k_bands", [[0, 1e9]]),
        ("elo_k_bands", [[i * 10, 10] for i in range(bounds.K_BANDS_MAX + 1)]),
    ],
)
def test_league_numbers_on_the_api(club, organiser, field, value):
    api = api_for(organiser)
    body = {"club": club.slug, "name": "Spring", "season": "2026", "system": "cc"}
    bad = api.post("/api/v1/leagues/", {**body, field: value}, **J)
    assert bad.status_code == 400 and field in bad.json(), bad.content
    assert not League.objects.exists()
    ok = api.post("/api/v1/leagues/", {**body, "points_win": HIGH_POINTS}, **J)
    assert ok.status_code == 201
    league = League.objects.get()
    bad = api.patch(f"/api/v1/leagues/{league.pk}/", {field: value}, **J)
    assert bad.status_code == 400 and field in bad.json(), bad.content
    league.refresh_from_db()
    assert league.points_win == HIGH_POINTS and league.elo_initial == 1500


@pytest.mark.django_db
def test_league_points_1e308_is_refused_on_the_api(club, organiser):
    """The JSON parser refuses it before the serializer (its number limit); nothing stored."""
    api = api_for(organiser)
    body = {"club": club.slug, "name": "Spring", "season": "2026", "system": "cc"}
    assert api.post("/api/v1/leagues/", {**body, "points_win": 1e308}, **J).status_code == 400
    assert not League.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan, 1e308])
def test_league_service_refuses_non_finite_and_huge_points(club, organiser, value):
    with pytest.raises(ValidationError) as err:
        league_create(
            club=club, actor=organiser, name="S", season="1", system="cc", points_win=value
        )
    assert "points_win" in err.value.message_dict
    assert not League.objects.exists()


# --- league results: details and round; CSV import --------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "limits"),
    [
        ("vp_a", bounds.VP),
        ("casualties_b", bounds.CASUALTIES),
        ("time_space", bounds.TIME_SPACE),
        ("round", bounds.ROUND),
    ],
)
def test_result_numbers_on_the_page_and_the_api(client, league, organiser, members, field, limits):
    page_body = {"played_on": "2026-01-05", "team_a": "ann", "team_b": "ben", "outcome": "a"}
    client.force_login(organiser)
    url = reverse("result-new", args=[league.pk])
    page = client.post(url, {**page_body, field: str(limits[1] + 1)})
    assert page.status_code == 200 and f"less than or equal to {limits[1]}" in page.text
    api = api_for(organiser)
    api_body = {**page_body, "league": league.pk, "team_a": ["ann"], "team_b": ["ben"]}
    bad = api.post("/api/v1/results/", {**api_body, field: limits[1] + 1}, **J)
    assert bad.status_code == 400 and field in bad.json(), bad.content
    assert not Result.objects.exists()
    ok = api.post("/api/v1/results/", {**api_body, field: limits[1]}, **J)
    assert ok.status_code == 201, ok.content
    assert client.post(url, {**page_body, field: str(limits[1])}).status_code == 302
    assert Result.objects.count() == 2


@pytest.mark.django_db
def test_result_csv_import_refuses_a_row_over_a_limit(league, organiser, members):
    csv = (
        "played_on,team_a,team_b,outcome,vp_a,casualties_a\n"
        f"2026-01-05,ann,ben,a,{bounds.VP[1]},0\n"
        f"2026-01-06,cat,dan,b,{bounds.VP[1] + 1},0\n"
        f"2026-01-07,cat,dan,b,1,{10**30}\n"
    )
    with pytest.raises(ValidationError) as err:
        results_import_csv(league=league, actor=organiser, text=csv)
    messages = err.value.message_dict["file"]
    low, high = bounds.RESULT_DETAILS["vp_a"]  # a skirmish scores below zero too
    assert f"Row 3, vp_a: Enter a whole number from {low} to {high}." in messages
    assert any(m.startswith("Row 4, casualties_a") for m in messages)
    assert not any(m.startswith("Row 2") for m in messages) and not Result.objects.exists()


# --- campaign JSON import -----------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("where", "change", "named"),
    [
        ("campaign", {"description": over(bounds.DESCRIPTION_MAX)}, "campaign, description"),
        ("campaign", {"name": over(160)}, "campaign, name"),
        ("sides", {"order": 10**30}, "sides, order"),
    ],
)
def test_campaign_json_import_applies_the_bounds(user, where, change, named):
    source = campaign_create(creator=user, name="Source", system="cc", side_names=["A", "B"])
    data = json.loads(json.dumps(campaign_export(source)))
    source.delete()
    if where == "campaign":
        data["campaign"].update(change)
    else:
        data[where][0].update(change)
    with pytest.raises(ValidationError) as err:
        campaign_import(data, actor=user)
    assert any(m.startswith(named) for m in err.value.message_dict["file"]), err.value
    assert not Campaign.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("section", "change", "named"),
    [
        ("op_sheets", {"written_notes": over(bounds.NOTES_MAX)}, "tcs.op_sheets, written_notes"),
        ("formations", {"order": 10**30}, "tcs.formations, order"),
    ],
)
def test_campaign_json_import_applies_the_bounds_to_tcs_records(
    user, other_user, section, change, named
):
    op = bloody_110(user, other_user)
    data = json.loads(json.dumps(campaign_export(op)))
    side = data["sides"][0]["name"]
    data["campaign"]["name"] = "Imported"
    data["tcs"]["formations"] = [
        {"side": side, "code": "F1", "name": "", "morale": "none", "is_battalion": False,
         "state": {}, "history": [], "order": 0}
    ]  # fmt: skip
    data["tcs"]["op_sheets"] = [
        {"side": side, "code": "S1", "state": {}, "history": [], "prepared_defense": [],
         "revealed_at": None, "created_by": None, "created_at": None, "updated_at": None,
         **dict.fromkeys(SHEET_TEXT_FIELDS, "")}
    ]  # fmt: skip
    data["tcs"][section][0].update(change)
    with pytest.raises(ValidationError) as err:
        campaign_import(data, actor=user)
    assert any(m.startswith(named) for m in err.value.messages), err.value
    assert not Campaign.objects.filter(name="Imported").exists()
