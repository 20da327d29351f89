"""The Command Phase assistant, losses and morale on the site: digest cases T19–T24,
T65–T67 driven through services and pages, idempotency, and bounded query counts."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import LogEntry
from campaigns.models.tcs import CommandPhase, TcsFormation, TcsUnit
from campaigns.services.tcs import (
    recovery_due,
    tcs_losses_record,
    tcs_morale_correct,
    tcs_operation_start,
    tcs_phase_attempt,
    tcs_phase_check_roll,
    tcs_phase_commit_reserves,
    tcs_phase_complete,
    tcs_phase_open,
    tcs_phase_recovery,
    tcs_phase_weighted_turns,
    tcs_sheet_declare_failure,
    tcs_sheet_draw,
    tcs_side_update,
    tcs_turn_advance,
    tcs_unit_restore,
)
from tests.web.test_tcs_pages import GERMAN_REGIMENT, SEED_CELLS, SHERMANS, bloody_110, sides

pytestmark = pytest.mark.django_db


@pytest.fixture
def op(user, other_user):
    return bloody_110(user, other_user)


def phase_of(side, actor):
    return tcs_phase_open(side=side, actor=actor)


def play_turn(op, players, *, ticks=True, light="day"):
    """Both sides: open, add weighted turns, complete; then the next turn."""
    op.refresh_from_db()
    for side, actor in zip(sides(op), players, strict=True):
        phase = phase_of(side, actor)
        if ticks and not phase.steps.get("ticked"):
            tcs_phase_weighted_turns(phase=phase, actor=actor)
        if recovery_due(op) and not phase.steps.get("recovery"):  # 6s: no value changes
            moraled = TcsFormation.objects.filter(side=side).exclude(morale="none")
            tcs_phase_recovery(phase=phase, actor=actor, rolls={f.pk: 6 for f in moraled})
        tcs_phase_complete(phase=phase, actor=actor)
    op.refresh_from_db()
    return tcs_turn_advance(campaign=op, actor=players[0], light=light)


def test_t19_t20_6_9_f_regiment_attack_sheet_52_then_45(op, user, other_user):
    germans, _ = sides(op)
    tcs_side_update(side=germans, actor=user, rating=3, table=SEED_CELLS)
    tcs_operation_start(campaign=op, actor=user)
    sheet = tcs_sheet_draw(
        side=germans, actor=user, code="Regt", missions=dict.fromkeys(GERMAN_REGIMENT, "attack")
    )
    assert (sheet.state["raw_size"], sheet.state["size"]) == (3, 2)
    for _ in range(9):  # out of contact, all unassigned, daylight: 3 a turn [6.9.d]
        play_turn(op, (user, other_user))
    sheet.refresh_from_db()
    assert sheet.weighted_turns == 27
    phase = phase_of(germans, user)
    tcs_phase_weighted_turns(phase=phase, actor=user)
    sheet.refresh_from_db()
    assert sheet.weighted_turns == 30
    # T19 reads column 22 at 27 WT; here the site is already at 30 WT: column 28 → 45
    result = tcs_phase_attempt(phase=phase, sheet=sheet, actor=user, roll=43)
    assert result == {"outcome": "not_implemented", "roll": 43}
    entries = LogEntry.objects.filter(campaign=op, rule="6.9.f", data__tcs__sheet=sheet.pk)
    assert any("column 28" in e.summary and e.data.get("value") == 45 for e in entries)
    assert all(e.private_to == germans for e in entries)
    with pytest.raises(ValidationError, match="already had its Command Prep roll"):
        tcs_phase_attempt(phase=phase, sheet=sheet, actor=user, roll=61)
    tcs_phase_complete(phase=phase, actor=user)
    tcs_phase_complete(phase=phase_of(sides(op)[1], other_user), actor=other_user)
    tcs_turn_advance(campaign=op, actor=user, light="day")
    phase = phase_of(germans, user)
    tcs_phase_weighted_turns(phase=phase, actor=user)
    result = tcs_phase_attempt(phase=phase, sheet=sheet, actor=user, roll=61)
    sheet.refresh_from_db()
    assert result["outcome"] == "implemented" and sheet.status == "implemented"
    assert sheet.history[-1]["status"] == "implemented" and sheet.history[0]["status"] == (
        "unimplemented"
    )


def test_t19_6_9_f_column_22_at_27_weighted_turns(op, user, other_user):
    germans, _ = sides(op)
    tcs_side_update(side=germans, actor=user, rating=3, table=SEED_CELLS)
    tcs_operation_start(campaign=op, actor=user)
    sheet = tcs_sheet_draw(
        side=germans, actor=user, code="Regt", missions=dict.fromkeys(GERMAN_REGIMENT, "attack")
    )
    for _ in range(8):
        play_turn(op, (user, other_user))
    phase = phase_of(germans, user)
    tcs_phase_weighted_turns(phase=phase, actor=user)
    result = tcs_phase_attempt(phase=phase, sheet=sheet, actor=user, roll=52)
    assert result["outcome"] == "implemented"
    assert LogEntry.objects.filter(
        campaign=op, rule="6.9.f", data__value=52, summary__contains="column 22"
    ).exists()


def _sherman_sheet(op, other_user, **extra):
    _, americans = sides(op)
    tcs_operation_start(campaign=op, actor=other_user)
    return tcs_sheet_draw(
        side=americans,
        actor=other_user,
        code="S",
        missions=dict.fromkeys(SHERMANS, "attack"),
        texts={"preliminary_text": "Assemble behind the ridge"},
        **extra,
    )


def test_t17_t21_6_14_a_sherman_prelims_on_the_move_row_through_the_page(client, op, other_user):
    """No table: the player enters both thresholds read off the chart; the site rolls
    nothing until they are given."""
    _, americans = sides(op)
    sheet = _sherman_sheet(op, other_user)
    client.force_login(other_user)
    url = reverse("tcs-command", args=[op.pk, americans.pk])
    htmx = {"HX-Request": "true"}
    first = client.get(url)
    assert "Start the Command Phase" in first.text and "<html" in first.text
    opened = client.post(url, {"action": "open"}, headers=htmx)
    assert opened.status_code == 200 and "<html" not in opened.text and 'id="phase"' in opened.text
    ticked = client.post(url, {"action": "ticks"}, headers=htmx)
    assert "S +9" in ticked.text  # vehicle-only attack sheet: 3 × 3 [6.9.e]
    sheet.refresh_from_db()
    assert (sheet.weighted_turns, sheet.state["size"]) == (9, 0)
    rolls_before = LogEntry.objects.filter(campaign=op, kind="roll").count()
    missing = client.post(
        url,
        {
            "action": "attempt",
            "sheet_pk": sheet.pk,
            f"a{sheet.pk}-sheet": sheet.pk,
            f"a{sheet.pk}-mode": "full",
            f"a{sheet.pk}-dice": "server",
        },
        headers=htmx,
    )
    assert missing.status_code == 200 and "Read the Command Prep Table" in missing.text
    assert LogEntry.objects.filter(campaign=op, kind="roll").count() == rolls_before
    bad = client.post(
        url,
        {
            "action": "attempt",
            "sheet_pk": sheet.pk,
            f"a{sheet.pk}-sheet": sheet.pk,
            f"a{sheet.pk}-mode": "full",
            f"a{sheet.pk}-dice": "entered",
            f"a{sheet.pk}-roll": "17",
            f"a{sheet.pk}-threshold": "55",
            f"a{sheet.pk}-move_threshold": "44",
        },
        headers=htmx,
    )
    assert "11 to 66" in bad.text
    done = client.post(
        url,
        {
            "action": "attempt",
            "sheet_pk": sheet.pk,
            f"a{sheet.pk}-sheet": sheet.pk,
            f"a{sheet.pk}-mode": "full",
            f"a{sheet.pk}-dice": "entered",
            f"a{sheet.pk}-roll": "46",
            f"a{sheet.pk}-threshold": "55",
            f"a{sheet.pk}-move_threshold": "44",
        },
        headers=htmx,
    )
    assert "rolled 46 — prelims started" in done.text
    sheet.refresh_from_db()
    assert sheet.status == "prelims_active"
    roll = LogEntry.objects.get(campaign=op, kind="roll", rule="6.9.f")
    assert roll.data["roll"]["value"] == 46 and roll.data["roll"]["source"] == "entered"
    assert roll.private_to == americans
    complete = client.post(url, {"action": "complete"}, headers=htmx)
    assert "Completed." in complete.text
    again = client.post(url, {"action": "complete"}, headers=htmx)  # idempotent
    assert again.status_code == 200
    assert CommandPhase.objects.get(side=americans).status == "completed"
    assert (
        LogEntry.objects.filter(
            campaign=op, summary__contains="completed the Command Phase"
        ).count()
        == 1
    )


def test_6_9_d_fired_last_turn_gives_one_tick_and_ticks_only_once(op, user, other_user):
    sheet = _sherman_sheet(op, other_user)
    _, americans = sides(op)
    phase = phase_of(americans, other_user)
    added = tcs_phase_weighted_turns(phase=phase, actor=other_user, fired_sheets=[sheet.pk])
    assert added == {"S": 3}  # 1 × 3 for a vehicle-only sheet
    with pytest.raises(ValidationError, match="already added"):
        tcs_phase_weighted_turns(phase=phase, actor=other_user)
    sheet.refresh_from_db()
    assert sheet.weighted_turns == 3


def test_phase_cannot_complete_before_weighted_turns_and_turn_waits_for_both(op, user, other_user):
    _sherman_sheet(op, other_user)
    germans, americans = sides(op)
    phase = phase_of(americans, other_user)
    with pytest.raises(ValidationError, match="add the weighted turns"):
        tcs_phase_complete(phase=phase, actor=other_user)
    tcs_phase_weighted_turns(phase=phase, actor=other_user)
    tcs_phase_complete(phase=phase, actor=other_user)
    op.refresh_from_db()
    with pytest.raises(ValidationError, match="Germans"):
        tcs_turn_advance(campaign=op, actor=user, light="day")
    tcs_phase_complete(phase=phase_of(germans, user), actor=user)
    turn = tcs_turn_advance(campaign=op, actor=user, light="day", expected_turn=1)
    assert (turn.number, turn.clock) == (2, "1000")
    # a second click for the same turn changes nothing
    op.refresh_from_db()
    assert tcs_turn_advance(campaign=op, actor=user, light="day", expected_turn=1).number == 2
    op.refresh_from_db()
    assert op.state["turn"]["number"] == 2


def test_other_side_cannot_run_my_phase(op, user, other_user):
    germans, _ = sides(op)
    tcs_operation_start(campaign=op, actor=user)
    with pytest.raises(ValidationError, match="Only this side"):
        tcs_phase_open(side=germans, actor=other_user)


def test_t23_t24_6_14_b_d_reserves_commit_and_check_each_phase(op, user, other_user):
    germans, _ = sides(op)
    units = GERMAN_REGIMENT[:4]
    sheet = tcs_sheet_draw(
        side=germans,
        actor=user,
        code="D",
        missions={u: "hasty_defense" for u in units[:2]},
        reserves=units[2:],
        pregame=True,
    )
    assert sheet.sheet_type == "attack"  # reserves count as an Attack order (ambiguity 10)
    tcs_operation_start(campaign=op, actor=user)
    phase = phase_of(germans, user)
    group = tcs_phase_commit_reserves(
        phase=phase, sheet=sheet, actor=user, units=[units[2]], order="attack"
    )
    assert (
        tcs_phase_check_roll(phase=phase, sheet=sheet, actor=user, group_id=group, roll=2) is False
    )
    with pytest.raises(ValidationError, match="already rolled"):
        tcs_phase_check_roll(phase=phase, sheet=sheet, actor=user, group_id=group, roll=3)
    tcs_phase_complete(phase=phase, actor=user)
    tcs_phase_complete(phase=phase_of(sides(op)[1], other_user), actor=other_user)
    op.refresh_from_db()
    tcs_turn_advance(campaign=op, actor=user, light="day")
    phase = phase_of(germans, user)
    assert tcs_phase_check_roll(phase=phase, sheet=sheet, actor=user, group_id=group, roll=3)
    sheet.refresh_from_db()
    assert sheet.state["check_groups"][0]["passed"] is True
    assert LogEntry.objects.filter(campaign=op, rule="6.14.d", private_to=germans).count() == 2


def test_6_14_d_rating_7_cannot_designate_reserves(op, user):
    germans, _ = sides(op)
    tcs_side_update(side=germans, actor=user, rating=7, table=None)
    with pytest.raises(ValidationError) as err:
        tcs_sheet_draw(
            side=germans,
            actor=user,
            code="D",
            missions={GERMAN_REGIMENT[0]: "attack"},
            reserves=[GERMAN_REGIMENT[1]],
        )
    assert "[6.14.d]" in str(err.value)


# --- losses and morale ----------------------------------------------------------------------


def _unit(code):
    return TcsUnit.objects.get(code=code)


def test_t65_17_1_a_platoon_and_every_third_other_unit(op, user):
    tcs_operation_start(campaign=op, actor=user)
    out = tcs_losses_record(unit=_unit("1-123/1"), actor=user, steps=2)
    assert out["eliminated"] is False
    out = tcs_losses_record(unit=_unit("1-123/1"), actor=user, steps=3)
    assert out["eliminated"] and out["battalion"] == ("1-123", 0, 1)
    with pytest.raises(ValidationError) as err:  # outside any battalion: name the nearest
        tcs_losses_record(unit=_unit("123-HW/1"), actor=user, steps=2)
    assert "nearest" in err.value.message_dict
    assert _unit("123-HW/1").steps_lost == 0  # nothing changed
    tcs_losses_record(unit=_unit("123-HW/1"), actor=user, steps=2, nearest="1-123")
    tcs_losses_record(unit=_unit("123-HW/2"), actor=user, steps=2, nearest="1-123")
    battalion = TcsFormation.objects.get(code="1-123")
    assert battalion.state == {"battalion": "1-123", "value": 1, "other_losses": 2}
    tcs_losses_record(unit=_unit("1-123/2"), actor=user, steps=5, combat=False)
    battalion.refresh_from_db()
    assert battalion.state["value"] == 1  # non-combat loss [17.1.a]
    assert [p["value"] for p in battalion.history] == [1]


def test_t66_17_1_d_hourly_recovery_in_the_command_phase(op, user, other_user):
    germans, _ = sides(op)
    tcs_operation_start(campaign=op, actor=user)
    TcsFormation.objects.filter(code="1-123").update(
        state={"battalion": "1-123", "value": 2, "other_losses": 0}
    )
    phase = phase_of(germans, user)  # 0940: not a whole hour
    tcs_phase_complete(phase=phase, actor=user)
    tcs_phase_complete(phase=phase_of(sides(op)[1], other_user), actor=other_user)
    op.refresh_from_db()
    tcs_turn_advance(campaign=op, actor=user, light="day")  # 1000
    phase = phase_of(germans, user)
    with pytest.raises(ValidationError, match="roll morale recovery"):
        tcs_phase_complete(phase=phase, actor=user)
    formations = {f.code: f.pk for f in TcsFormation.objects.filter(side=germans)}
    with pytest.raises(ValidationError) as err:  # entered dice: every formation that rolls
        tcs_phase_recovery(phase=phase, actor=user, rolls={formations["2-123"]: 4})
    assert f"roll_{formations['1-123']}" in err.value.message_dict
    changes = tcs_phase_recovery(phase=phase, actor=user, rolls={formations["1-123"]: 2})
    assert changes == {"1-123": (2, 1)}
    tcs_phase_complete(phase=phase, actor=user)
    entry = LogEntry.objects.get(campaign=op, rule="17.1.d", kind="roll")
    assert entry.private_to == germans and "recovery roll 2 against 2" in entry.summary


def test_t67_17_8_nine_shermans_lose_three_steps_and_the_attack_fails(op, user, other_user):
    _, americans = sides(op)
    attack = tcs_sheet_draw(
        side=americans,
        actor=other_user,
        code="A",
        missions=dict.fromkeys(SHERMANS, "attack"),
        pregame=True,
    )
    tcs_operation_start(campaign=op, actor=other_user)
    later = tcs_sheet_draw(
        side=americans, actor=other_user, code="B", missions=dict.fromkeys(SHERMANS, "move")
    )
    with pytest.raises(ValidationError) as err:  # entered dice: one d6 per point
        tcs_losses_record(unit=_unit("Sherman/1"), actor=other_user, steps=3, rolls=[3])
    assert "rolls" in err.value.message_dict
    assert TcsFormation.objects.get(code="Sherman").state["value"] == 0  # nothing changed
    out = tcs_losses_record(unit=_unit("Sherman/1"), actor=other_user, steps=3, rolls=[3, 2])
    assert out["failed"] and out["eliminated"]
    track = TcsFormation.objects.get(code="Sherman").state
    assert (track["value"], track["recorded"], track["filled"], track["steps_lost"]) == (
        2,
        [2],
        0,
        3,
    )
    attack.refresh_from_db()
    later.refresh_from_db()
    assert attack.status == "failed"
    assert later.status == "unimplemented"  # ambiguity 7: unimplemented sheets keep them
    checks = LogEntry.objects.filter(campaign=op, rule="17.8.b").order_by("seq")
    assert [c.data["value"] for c in checks] == ["pass", "fail"]
    assert LogEntry.objects.filter(rule="17.8.c", private_to=americans).exists()


def test_corrections_leave_a_trace(op, user):
    tcs_operation_start(campaign=op, actor=user)
    tcs_losses_record(unit=_unit("1-123/1"), actor=user, steps=5)
    battalion = TcsFormation.objects.get(code="1-123")
    with pytest.raises(ValidationError):
        tcs_morale_correct(formation=battalion, actor=user, value=0, reason=" ")
    tcs_morale_correct(formation=battalion, actor=user, value=0, reason="wrong unit entered")
    tcs_unit_restore(unit=_unit("1-123/1"), actor=user, steps=5, reason="wrong unit entered")
    assert not _unit("1-123/1").eliminated
    corrections = LogEntry.objects.filter(campaign=op, kind="correction")
    assert corrections.count() == 2
    assert corrections.first().data["before"] == 1


def test_failure_is_declared_in_the_action_phase_with_confirmation(client, op, user, other_user):
    germans, _ = sides(op)
    sheet = tcs_sheet_draw(
        side=germans, actor=user, code="A", missions={"1-123/1": "attack"}, pregame=True
    )
    tcs_operation_start(campaign=op, actor=user)
    with pytest.raises(ValidationError, match="own Action Phase"):
        tcs_sheet_declare_failure(sheet=sheet, actor=user, confirm=True)
    tcs_phase_complete(phase=phase_of(germans, user), actor=user)
    client.force_login(user)
    url = reverse("tcs-sheet-fail", args=[op.pk, sheet.pk])
    unconfirmed = client.post(url, {}, follow=True)
    assert "Tick the box" in unconfirmed.text
    sheet.refresh_from_db()
    assert sheet.status == "implemented"
    client.post(url, {"confirm": "on"})
    sheet.refresh_from_db()
    assert sheet.status == "failed"


def test_losses_page_and_bad_input(client, op, user):
    germans, _ = sides(op)
    tcs_operation_start(campaign=op, actor=user)
    client.force_login(user)
    url = reverse("tcs-side", args=[op.pk, germans.pk])
    unit = _unit("1-123/1")
    too_many = client.post(
        url,
        {
            "action": "loss",
            "loss-unit": unit.pk,
            "loss-steps": "6",
            "loss-dice": "server",
            "loss-combat": "on",
        },
    )
    assert too_many.status_code == 400 and "5 steps left" in too_many.text
    ok = client.post(
        url,
        {
            "action": "loss",
            "loss-unit": unit.pk,
            "loss-steps": "5",
            "loss-dice": "server",
            "loss-combat": "on",
        },
        follow=True,
    )
    assert "Losses recorded" in ok.text and "eliminated on turn 1" in ok.text
    junk = client.post(url, {"action": "loss", "loss-unit": "999999", "loss-steps": "x"})
    assert junk.status_code == 400


def test_operation_and_phase_pages_have_bounded_queries(
    client, op, user, other_user, django_assert_max_num_queries
):
    germans, _ = sides(op)
    tcs_operation_start(campaign=op, actor=user)
    client.force_login(user)
    urls = [
        reverse("tcs-operation", args=[op.pk]),
        reverse("tcs-side", args=[op.pk, germans.pk]),
        reverse("tcs-command", args=[op.pk, germans.pk]),
        reverse("tcs-timeline", args=[op.pk]),
        reverse("tcs-export", args=[op.pk]),
        "/api/v1/tcs/op-sheets/",
    ]
    tcs_sheet_draw(side=germans, actor=user, code="X0", missions={"1-123/1": "attack"})
    phase_of(germans, user)
    counts = {}
    for url in urls:
        with django_assert_max_num_queries(40) as captured:
            assert client.get(url).status_code == 200, url
        counts[url] = len(captured.captured_queries)
    for i, unit in enumerate(GERMAN_REGIMENT[1:6], start=1):
        tcs_sheet_draw(side=germans, actor=user, code=f"X{i}", missions={unit: "move"})
    for _ in range(3):
        play_turn(op, (user, other_user))
    phase_of(germans, user)
    for url in urls:
        with django_assert_max_num_queries(counts[url]):
            assert client.get(url).status_code == 200, url


def test_timeline_shows_turns_sheets_and_morale_accessibly(client, op, user, other_user):
    germans, _ = sides(op)
    client.force_login(user)
    empty = client.get(reverse("tcs-timeline", args=[op.pk]))
    assert "Nothing to show yet" in empty.text
    tcs_operation_start(campaign=op, actor=user)
    sheet = tcs_sheet_draw(
        side=germans, actor=user, code="Regt", missions=dict.fromkeys(GERMAN_REGIMENT, "attack")
    )
    play_turn(op, (user, other_user))
    tcs_losses_record(unit=_unit("1-123/1"), actor=user, steps=5)
    play_turn(op, (user, other_user))
    page = client.get(reverse("tcs-timeline", args=[op.pk])).text
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in page
    assert 'aria-labelledby="tl-title tl-desc"' in page and '<title id="tl-title">' in page
    assert "Op sheet Regt of Germans: Unimplemented (turn 1); 6 weighted turns." in page
    assert "Morale of 1-123: 1." in page
    assert "Unimplemented (6)" in page  # the table gives the same data
    sheet.refresh_from_db()
    assert [(p["turn"], p["wt"]) for p in sheet.history] == [(1, 3), (2, 6)]
    client.force_login(other_user)  # the Americans see neither
    other = client.get(reverse("tcs-timeline", args=[op.pk])).text
    assert "Regt" not in other and "1-123" not in other
