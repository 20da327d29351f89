"""The campaign JSON export of a TCS operation: every record of an ended operation round-trips
(ids mapped by natural keys); in play only revealed sheets leave; a damaged TCS section
imports nothing."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from campaigns.exports import LOG_REFS, campaign_export, campaign_import
from campaigns.models import Campaign, LogEntry
from campaigns.models.tcs import (
    CommandPhase,
    OpSheetRecord,
    TcsDecision,
    TcsFormation,
    TcsSide,
    TcsUnit,
)
from campaigns.services.tcs import (
    tcs_decision_resolve,
    tcs_losses_record,
    tcs_operation_end,
    tcs_operation_start,
    tcs_phase_attempt,
    tcs_phase_complete,
    tcs_phase_open,
    tcs_phase_weighted_turns,
    tcs_sheet_draw,
    tcs_sheet_reveal,
    tcs_side_update,
)
from tests.web.test_tcs_pages import GERMAN_REGIMENT, SEED_CELLS, SHERMANS, bloody_110, sides

pytestmark = pytest.mark.django_db

GERMAN_SECRET = "SECRET-GERMAN-PLAN"
AMERICAN_SECRET = "SECRET-AMERICAN-PLAN"
REVEALED = "REVEALED-FEINT"
MODELS = (TcsSide, TcsFormation, TcsUnit, OpSheetRecord, CommandPhase, TcsDecision)


def played(user, other_user):
    """Bloody 110 in play: a drawn German sheet with a Command Prep roll in a completed
    Command Phase, an American sheet, a 17.1.c choice made by the opponent."""
    op = bloody_110(user, other_user)
    germans, americans = sides(op)
    tcs_side_update(side=germans, actor=user, rating=3, table=SEED_CELLS)
    tcs_operation_start(campaign=op, actor=user)
    regt = tcs_sheet_draw(
        side=germans,
        actor=user,
        code="Regt",
        missions=dict.fromkeys(GERMAN_REGIMENT, "attack"),
        texts={"written_notes": GERMAN_SECRET, "rally_points": "Hill 110"},
    )
    tcs_sheet_draw(
        side=americans,
        actor=other_user,
        code="S/1",
        missions=dict.fromkeys(SHERMANS, "attack"),
        texts={"task_organization": AMERICAN_SECRET},
    )
    phase = tcs_phase_open(side=germans, actor=user)
    tcs_phase_weighted_turns(phase=phase, actor=user, fired_sheets=[regt.pk])
    tcs_phase_attempt(phase=phase, sheet=regt, actor=user, roll=43, thresholds={"attack": 45})
    tcs_phase_complete(phase=phase, actor=user)
    tcs_losses_record(
        unit=TcsUnit.objects.get(campaign=op, code="123-HW/1"),
        actor=user,
        steps=2,
        nearest=["1-123", "2-123"],
    )
    tcs_decision_resolve(
        decision=TcsDecision.objects.get(campaign=op), actor=other_user, choice="2-123"
    )
    op.refresh_from_db()
    return op


def wipe():
    TcsUnit.objects.all().delete()  # a unit PROTECTs its formation from the cascade
    Campaign.objects.all().delete()
    get_user_model().objects.all().delete()


def test_an_ended_operation_round_trips_with_every_field_equal(user, other_user):
    op = played(user, other_user)
    tcs_operation_end(campaign=op, actor=user, confirm=True)
    op.refresh_from_db()
    data = campaign_export(op)
    text = json.dumps(data)
    tcs = data["tcs"]
    assert GERMAN_SECRET in text and AMERICAN_SECRET in text  # all public once over
    assert len(tcs["formations"]) == 6 and len(tcs["units"]) == 16
    assert [(r["side"], r["code"]) for r in tcs["op_sheets"]] == [
        ("Germans", "Regt"),
        ("Americans", "S/1"),
    ]
    assert [(p["side"], p["turn"], p["status"]) for p in tcs["command_phases"]] == [
        ("Germans", 1, "completed")
    ]
    steps = tcs["command_phases"][0]["steps"]
    assert steps["attempted"] == ["Regt/"] and steps["fired"] == ["Regt"]
    assert tcs["decisions"][0]["choice"] == "2-123"
    assert tcs["sides"][0]["prep_table"] == SEED_CELLS
    assert all("graphic" not in r for r in tcs["op_sheets"])
    tags = [e["data"]["tcs"] for e in data["log"] if "tcs" in (e["data"] or {})]
    assert {"sheet": {"side": "Germans", "code": "Regt"}} in tags
    refs = [t[k] for t in tags for k in LOG_REFS if k in t]
    assert refs and not any(isinstance(v, int) for v in refs)  # natural keys, no ids
    wipe()
    assert not any(m.objects.exists() for m in MODELS)

    imported = campaign_import(json.loads(text))
    assert campaign_export(imported) == data
    # the ids inside JSON point at the imported records
    regt = OpSheetRecord.objects.get(campaign=imported, code="Regt")
    phase = CommandPhase.objects.get(campaign=imported)
    assert phase.steps["attempted"] == [f"{regt.pk}/"] and phase.steps["fired"] == [regt.pk]
    assert LogEntry.objects.filter(campaign=imported, data__tcs__sheet=regt.pk).exists()
    assert phase.completed_by.username == "alice" and regt.created_by.username == "alice"
    unit = TcsUnit.objects.get(campaign=imported, code="1-123/1")
    assert unit.formation.code == "1-123" and unit.side.name == "Germans"


def test_an_operation_in_play_exports_no_private_record(user, other_user):
    op = played(user, other_user)
    germans, _ = sides(op)
    feint = tcs_sheet_draw(
        side=germans,
        actor=user,
        code="Feint",
        missions={"3-123/1": "move"},
        texts={"written_notes": REVEALED},
    )
    tcs_sheet_reveal(sheet=feint, actor=user)
    op.refresh_from_db()
    data = campaign_export(op)
    text = json.dumps(data)
    for secret in (GERMAN_SECRET, AMERICAN_SECRET, "Regt", "S/1", "Hill 110", "123-HW/1"):
        assert secret not in text
    tcs = data["tcs"]
    assert [r["code"] for r in tcs["op_sheets"]] == ["Feint"] and REVEALED in text
    for key in ("sides", "formations", "units", "command_phases", "decisions"):
        assert tcs[key] == []
    assert "prep_table" not in text and "morale" not in json.dumps(tcs)
    wipe()
    imported = campaign_import(json.loads(text))
    assert campaign_export(imported) == data
    assert list(OpSheetRecord.objects.values_list("code", flat=True)) == ["Feint"]


@pytest.mark.parametrize(
    "damage",
    [
        lambda t: t["units"][0].update(formation="NO-SUCH-FORMATION"),
        lambda t: t["op_sheets"][1].update(side="Nobody"),
        lambda t: t["command_phases"][0].update(completed_at="yesterday"),
        lambda t: t["decisions"][0].pop("unit"),
        lambda t: t["units"].append(dict(t["units"][0])),  # a duplicate unit code
        lambda t: t["formations"][0].update(order="first"),
    ],
)
def test_a_damaged_tcs_section_imports_nothing(user, other_user, damage):
    op = played(user, other_user)
    tcs_operation_end(campaign=op, actor=user, confirm=True)
    data = json.loads(json.dumps(campaign_export(op)))
    wipe()
    damage(data["tcs"])
    with pytest.raises(ValidationError) as err:
        campaign_import(data)
    assert set(err.value.message_dict) & {"file", "tcs"}
    assert not Campaign.objects.exists() and not get_user_model().objects.exists()
    assert not any(m.objects.exists() for m in MODELS)
    assert not LogEntry.objects.exists()
