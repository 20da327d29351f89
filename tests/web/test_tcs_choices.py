"""The opponent's choice between equally near battalions [17.1.c] as its own step, steps
given back [10.0] putting a unit back on its sheets, and the operation's rule readings
(TcsOptions, rules/tcs/DECISIONS.md) changed by the organiser only, every change logged."""

import dataclasses
import re
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import LogEntry
from campaigns.models.tcs import TcsDecision, TcsFormation, TcsUnit
from campaigns.services import side_join
from campaigns.services.tcs import (
    OPTION_RULES,
    options_for,
    tcs_decision_resolve,
    tcs_losses_record,
    tcs_operation_start,
    tcs_options_update,
    tcs_phase_complete,
    tcs_phase_open,
    tcs_sheet_declare_failure,
    tcs_sheet_draw,
    tcs_unit_restore,
)
from campaigns.tcs.readings import READINGS
from rules.tcs.options import TcsOptions
from tests.web.test_tcs_pages import bloody_110, make_operation, sides, with_oob

pytestmark = pytest.mark.django_db


@pytest.fixture
def op(user, other_user):
    return bloody_110(user, other_user)


def _unit(code):
    return TcsUnit.objects.get(code=code)


def _box(code):
    return TcsFormation.objects.get(code=code).state


def test_17_1_c_the_opponent_chooses_between_equally_near_battalions(client, op, user, other_user):
    tcs_operation_start(campaign=op, actor=user)
    germans, americans = sides(op)
    TcsFormation.objects.filter(code="2-123").update(
        state={"battalion": "2-123", "value": 4, "other_losses": 0}
    )
    client.force_login(user)
    side_url = reverse("tcs-side", args=[op.pk, germans.pk])
    hw = _unit("123-HW/1")
    response = client.post(
        side_url,
        {
            "action": "loss",
            "loss-unit": hw.pk,
            "loss-steps": "2",
            "loss-combat": "on",
            "loss-dice": "server",
            "loss-nearest": ["1-123", "2-123"],
        },
        follow=True,
    )
    assert "your opponent is asked to choose" in response.text
    assert "Awaiting your opponent" in response.text
    assert _unit("123-HW/1").eliminated
    assert _box("1-123")["other_losses"] == 0 and _box("2-123")["other_losses"] == 0
    decision = TcsDecision.objects.get()
    assert (decision.chooser, decision.options, decision.status) == (
        americans,
        ["1-123", "2-123"],
        "open",
    )
    ask = LogEntry.objects.get(rule="17.1.c", private_to=germans)
    assert "Americans chooses" in ask.summary
    # the owner may not choose
    assert "Nothing to choose" in client.get(reverse("tcs-decisions", args=[op.pk])).text
    forged = client.post(
        reverse("tcs-decisions", args=[op.pk]),
        {"decision": decision.pk, f"d{decision.pk}-choice": "1-123"},
        follow=True,
    )
    assert "no longer needed" in forged.text
    with pytest.raises(ValidationError, match="Only this side"):
        tcs_decision_resolve(decision=decision, actor=user, choice="1-123")
    # the opponent is told, sees the unit and the battalions but no morale value
    client.force_login(other_user)
    operation = client.get(reverse("tcs-operation", args=[op.pk])).text
    assert "asks you to make 1 choice" in operation
    page = client.get(reverse("tcs-decisions", args=[op.pk]))
    assert page.status_code == 200 and "123-HW/1" in page.text and "2-123" in page.text
    assert "morale 4" not in page.text and ">4<" not in page.text
    url = reverse("tcs-decisions", args=[op.pk])
    bad = client.post(url, {"decision": decision.pk, f"d{decision.pk}-choice": "3-123"})
    assert bad.status_code == 400
    client.post(url, {"decision": decision.pk, f"d{decision.pk}-choice": "2-123"})
    again = client.post(
        url, {"decision": decision.pk, f"d{decision.pk}-choice": "1-123"}, follow=True
    )
    assert "already made" in again.text
    assert _box("2-123") == {"battalion": "2-123", "value": 4, "other_losses": 1}
    assert _box("1-123")["other_losses"] == 0
    decision.refresh_from_db()
    assert (decision.status, decision.choice, decision.resolved_by) == (
        "resolved",
        "2-123",
        other_user,
    )
    # the same answer again changes nothing (idempotent)
    tcs_decision_resolve(decision=decision, actor=other_user, choice="2-123")
    assert _box("2-123")["other_losses"] == 1
    assert LogEntry.objects.filter(rule="17.1.a", private_to=germans).exists()
    assert LogEntry.objects.filter(rule="17.1.c", private_to=americans).count() == 2


def test_17_1_c_one_nearest_battalion_needs_no_choice_and_non_combat_none(op, user):
    tcs_operation_start(campaign=op, actor=user)
    out = tcs_losses_record(unit=_unit("123-HW/1"), actor=user, steps=2, nearest=["2-123"])
    assert "decision" not in out and _box("2-123")["other_losses"] == 1
    out = tcs_losses_record(
        unit=_unit("123-HW/2"), actor=user, steps=2, nearest=["1-123", "2-123"], combat=False
    )
    assert "decision" not in out and not TcsDecision.objects.exists()


def test_10_0_steps_given_back_put_the_unit_back_on_its_sheets(client, op, user):
    germans, _ = sides(op)
    tcs_operation_start(campaign=op, actor=user)
    live = tcs_sheet_draw(side=germans, actor=user, code="L", missions={"1-123/1": "attack"})
    tcs_losses_record(unit=_unit("1-123/1"), actor=user, steps=5)
    live.refresh_from_db()
    assert live.entries[0]["status"] == "eliminated"
    client.force_login(user)
    response = client.post(
        reverse("tcs-side", args=[op.pk, germans.pk]),
        {
            "action": "restore",
            "restore-unit": _unit("1-123/1").pk,
            "restore-steps": "5",
            "restore-reason": "wrong unit",
        },
        follow=True,
    )
    assert "1-123/1 is back on L" in response.text
    assert "Battalion morale 1 → 0 [17.1.a]" in response.text  # the platoon's loss taken off
    live.refresh_from_db()
    assert live.entries[0]["status"] == "active"
    assert not _unit("1-123/1").eliminated


def test_10_0_a_sheet_that_ended_does_not_take_the_unit_back(op, user):
    germans, _ = sides(op)
    ended = tcs_sheet_draw(
        side=germans,
        actor=user,
        code="E",
        missions={"1-123/1": "attack", "1-123/2": "attack"},
        pregame=True,
    )
    tcs_operation_start(campaign=op, actor=user)
    tcs_losses_record(unit=_unit("1-123/1"), actor=user, steps=5)
    tcs_phase_complete(phase=tcs_phase_open(side=germans, actor=user), actor=user)
    tcs_sheet_declare_failure(sheet=ended, actor=user, confirm=True)
    unit = tcs_unit_restore(unit=_unit("1-123/1"), actor=user, steps=5, reason="mistake")
    assert unit.restored["not_back"] == ["E"] and unit.restored["back"] == []
    ended.refresh_from_db()
    assert ended.entries[0]["status"] == "eliminated"
    assert LogEntry.objects.filter(
        rule="6.11", summary__contains="stays off it", private_to=germans
    ).exists()


def test_steps_given_back_cancel_the_opponents_pending_choice(op, user, other_user):
    tcs_operation_start(campaign=op, actor=user)
    out = tcs_losses_record(unit=_unit("123-HW/1"), actor=user, steps=2, nearest=["1-123", "2-123"])
    decision = TcsDecision.objects.get(pk=out["decision"])
    tcs_unit_restore(unit=_unit("123-HW/1"), actor=user, steps=2, reason="mistake")
    decision.refresh_from_db()
    assert decision.status == "cancelled"
    with pytest.raises(ValidationError, match="no longer needed"):
        tcs_decision_resolve(decision=decision, actor=other_user, choice="1-123")


# --- rule readings --------------------------------------------------------------------------


def test_every_reading_has_its_rule_and_help_from_decisions_md():
    text = (Path(__file__).resolve().parents[2] / "rules/tcs/DECISIONS.md").read_text()
    names = [f.name for f in dataclasses.fields(TcsOptions)]
    assert set(READINGS) == set(names) == set(OPTION_RULES)
    for name in names:
        assert re.search(rf"`{name}`", text), name


def test_the_organiser_changes_readings_and_each_change_is_logged(client, op, user, other_user):
    client.force_login(user)  # alice created the operation
    url = reverse("tcs-readings", args=[op.pk])
    page = client.get(url)
    assert page.status_code == 200 and "6.14.b, A 10" in page.text
    data = {f.name: f.default for f in dataclasses.fields(TcsOptions)}
    data = {k: ("true" if v is True else "false" if v is False else v) for k, v in data.items()}
    bad = client.post(url, {**data, "day_turn_minutes": "0"})
    assert bad.status_code == 400 and options_for(op) == TcsOptions()
    client.post(url, {**data, "reserves_count_as_attack": "false", "day_turn_minutes": "15"})
    op.refresh_from_db()
    assert options_for(op) == TcsOptions(reserves_count_as_attack=False, day_turn_minutes=15)
    entries = LogEntry.objects.filter(campaign=op, data__tcs__options__isnull=False)
    assert {(e.rule, e.private_to) for e in entries} == {("6.14.b", None), ("1.3", None)}
    client.post(url, {**data, "reserves_count_as_attack": "false", "day_turn_minutes": "15"})
    assert entries.count() == 2  # nothing changed: nothing logged
    # a player who does not run the operation reads them but cannot change them
    client.force_login(other_user)
    view = client.get(url)
    assert view.status_code == 200 and "Save the readings" not in view.text
    assert "15" in view.text
    assert client.post(url, data).status_code == 404
    with pytest.raises(ValidationError, match="organiser"):
        tcs_options_update(campaign=op, actor=other_user, values={"day_turn_minutes": 20})
    with pytest.raises(ValidationError):
        tcs_options_update(campaign=op, actor=user, values={"no_such_reading": 1})


def test_a_neutral_game_master_changes_readings_strangers_see_nothing(
    client, user, other_user, make_user
):
    op, germans, americans = make_operation(user, None, creator_side=None)
    side_join(user=other_user, side=germans)
    carol = make_user("carol")
    side_join(user=carol, side=americans)
    with_oob(op, germans, americans, (other_user, carol))
    tcs_options_update(campaign=op, actor=user, values={"carried_rounding": "up"})
    op.refresh_from_db()
    assert options_for(op).carried_rounding == "up"
    client.force_login(make_user("dave"))
    assert client.get(reverse("tcs-readings", args=[op.pk])).status_code == 404
    assert client.get(reverse("tcs-decisions", args=[op.pk])).status_code == 404


def test_new_pages_have_bounded_queries(client, op, user, django_assert_max_num_queries):
    germans, _ = sides(op)
    tcs_operation_start(campaign=op, actor=user)
    sheet = tcs_sheet_draw(side=germans, actor=user, code="S0", missions={"1-123/1": "attack"})
    client.force_login(user)
    urls = [
        reverse("tcs-sheet-units", args=[op.pk, sheet.pk]),
        reverse("tcs-sheet", args=[op.pk, sheet.pk]),
        reverse("tcs-readings", args=[op.pk]),
    ]
    counts = {}
    for url in urls:
        with django_assert_max_num_queries(30) as captured:
            assert client.get(url).status_code == 200, url
        counts[url] = len(captured.captured_queries)
    for i, unit in enumerate(["1-123/2", "1-123/3", "2-123/1", "2-123/2"], start=1):
        tcs_sheet_draw(side=germans, actor=user, code=f"S{i}", missions={unit: "move"})
    for code in ("123-HW/1", "123-HW/2"):
        tcs_losses_record(unit=_unit(code), actor=user, steps=2, nearest=["1-123", "2-123"])
    for url in urls:
        with django_assert_max_num_queries(counts[url]):
            assert client.get(url).status_code == 200, url
