"""Issue 17, TCS pages: words instead of identifiers, a way out of a stuck set-up sheet,
plurals, the CSV import's messages, morale recovery, the timeline and the op-sheet graphic."""

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.i18n import say_entry
from campaigns.models import LogEntry, TcsFormation
from campaigns.models.tcs import OpSheetRecord
from campaigns.services.tcs import (
    tcs_oob_import,
    tcs_operation_start,
    tcs_options_update,
    tcs_phase_complete,
    tcs_phase_open,
    tcs_sheet_draw,
    tcs_turn_advance,
)
from tests.web.test_tcs_pages import HEADER, bloody_110, make_operation, sides
from tests.web.upload_helpers import png_upload

pytestmark = pytest.mark.django_db


@pytest.fixture
def op(user, other_user):
    return bloody_110(user, other_user)


def _stuck_sheet(side, user, code="B1"):
    """A set-up sheet left unimplemented, as the old 'Drawn before play' box made."""
    sheet = tcs_sheet_draw(side=side, actor=user, code=code, missions={"1-123/1": "attack"})
    OpSheetRecord.objects.filter(pk=sheet.pk).update(
        state={**sheet.state, "status": "unimplemented", "pregame": False}
    )
    sheet.refresh_from_db()
    return sheet


# --- finding 1: a stuck set-up sheet can be implemented -----------------------------------


def test_f1_a_stuck_set_up_sheet_is_implemented_from_its_page_and_play_starts(
    client, op, user, other_user
):
    germans, _ = sides(op)
    sheet = _stuck_sheet(germans, user)
    client.force_login(user)
    refused = client.post(reverse("tcs-start", args=[op.pk]), follow=True).text
    assert "implements or deletes" in refused
    page = client.get(reverse("tcs-sheet", args=[op.pk, sheet.pk])).text
    assert reverse("tcs-sheet-implement", args=[op.pk, sheet.pk]) in page
    # the other side may not do it
    client.force_login(other_user)
    assert client.post(reverse("tcs-sheet-implement", args=[op.pk, sheet.pk])).status_code == 404
    client.force_login(user)
    client.post(reverse("tcs-sheet-implement", args=[op.pk, sheet.pk]))
    sheet.refresh_from_db()
    assert sheet.status == "implemented" and sheet.state["pregame"] is True
    entry = LogEntry.objects.get(campaign=op, kind="correction")
    assert entry.private_to == germans and entry.rule == "27.1.f"
    assert entry.data["msg"]["params"]["c"] == "B1"  # drawn in the reader's language
    # the button is gone once implemented, and play starts
    page = client.get(reverse("tcs-sheet", args=[op.pk, sheet.pk])).text
    assert reverse("tcs-sheet-implement", args=[op.pk, sheet.pk]) not in page
    tcs_operation_start(campaign=op, actor=user)
    op.refresh_from_db()
    assert op.status == "active"


def test_f1_implementing_is_refused_once_play_has_started(client, op, user):
    germans, _ = sides(op)
    sheet = tcs_sheet_draw(side=germans, actor=user, code="A", missions={"1-123/1": "attack"})
    tcs_operation_start(campaign=op, actor=user)
    client.force_login(user)
    client.post(reverse("tcs-sheet-implement", args=[op.pk, sheet.pk]))
    assert not LogEntry.objects.filter(campaign=op, kind="correction").exists()


# --- finding 5: missions, states and light in words -----------------------------------------


def test_f5_a_sheet_page_shows_missions_and_states_in_words(client, op, user):
    germans, _ = sides(op)
    sheet = tcs_sheet_draw(
        side=germans,
        actor=user,
        code="A",
        missions={"1-123/1": "prepared_defense", "1-123/2": "attack"},
        reserves=["1-123/3"],
    )
    client.force_login(user)
    page = client.get(reverse("tcs-sheet", args=[op.pk, sheet.pk])).text
    assert "<td>Prepared Defense</td>" in page and "<td>Attack</td>" in page
    assert "<td>reserve</td>" in page and "<td>active</td>" in page
    assert "prepared_defense" not in page
    drawn = LogEntry.objects.filter(campaign=op, rule="6.8").first() or LogEntry.objects.get(
        campaign=op, summary__contains="drew op sheet A"
    )
    assert drawn.data["msg"]["params"]["type"] == {"msg": {"id": "Prepared Defense"}}
    timeline = client.get(reverse("tcs-timeline", args=[op.pk])).text
    assert "Implemented (0)" in timeline and "implemented (" not in timeline


def test_f5_the_log_keeps_message_ids_whatever_language_the_writer_used(op, user):
    germans, _ = sides(op)
    with translation.override("es"):
        tcs_sheet_draw(side=germans, actor=user, code="A", missions={"1-123/1": "attack"})
    drawn = LogEntry.objects.get(campaign=op, summary__contains="drew op sheet A")
    assert drawn.summary == "Germans drew op sheet A (Attack, size 1)."  # English id, stored
    assert drawn.data["msg"]["id"] == "%(side)s drew op sheet %(c)s (%(type)s, size %(size)s)."
    steps = LogEntry.objects.filter(campaign=op, data__tcs__sheet__isnull=False, kind="rule")
    assert steps and all("msg" in e.data for e in steps)  # engine explanations too
    with translation.override("en"):
        assert say_entry(drawn) == drawn.summary


# --- finding 23c: no dice for formations at morale 0 ----------------------------------------


def test_f23c_recovery_asks_no_die_for_a_formation_at_morale_0(client, op, user, other_user):
    germans, americans = sides(op)
    tcs_operation_start(campaign=op, actor=user)
    TcsFormation.objects.filter(code="1-123").update(
        state={"battalion": "1-123", "value": 2, "other_losses": 0}
    )
    tcs_phase_complete(phase=tcs_phase_open(side=germans, actor=user), actor=user)
    tcs_phase_complete(phase=tcs_phase_open(side=americans, actor=other_user), actor=other_user)
    op.refresh_from_db()
    tcs_turn_advance(campaign=op, actor=user, light="day")  # 1000: a recovery hour
    tcs_phase_open(side=germans, actor=user)
    client.force_login(user)
    page = client.get(reverse("tcs-command", args=[op.pk, germans.pk])).text
    zero = TcsFormation.objects.get(code="2-123")
    two = TcsFormation.objects.get(code="1-123")
    assert f'name="rec-roll_{two.pk}"' in page
    assert f'name="rec-roll_{zero.pk}"' not in page
    assert "2-123" in page and "morale 0, nothing to recover" in page


# --- finding 29: CSV import words; units grouped by formation ------------------------------


def test_f29_a_word_for_steps_is_reported_as_not_a_number(client, user, other_user):
    op, germans, _ = make_operation(user, other_user)
    client.force_login(user)
    text = HEADER + "formation,1-9,,,,0,battalion,yes,\nunit,1-9/A,,1-9,infantry,five,,,\n"
    page = client.post(
        reverse("tcs-side", args=[op.pk, germans.pk]), {"action": "import", "import-csv": text}
    ).text
    assert "“five” is not a whole number." in page
    assert "1 to 30 steps" not in page


def test_f29_the_draw_form_groups_units_by_formation_in_order(client, user, other_user):
    op, germans, _ = make_operation(user, other_user)
    # units entered out of formation order, as in the finding
    csv = HEADER + (
        "formation,2-GH,,,,0,battalion,yes,\nformation,3-RTR,,,,0,battalion,yes,\n"
        "unit,2-GH/A,,2-GH,infantry,4,,,\nunit,2-GH/B,,2-GH,infantry,4,,,\n"
        "unit,3-RTR/1,,3-RTR,infantry,4,,,\nunit,2-GH/C,,2-GH,infantry,4,,,\n"
    )
    tcs_oob_import(side=germans, actor=user, text=csv)
    client.force_login(user)
    page = client.get(reverse("tcs-sheet-new", args=[op.pk, germans.pk])).text
    order = [page.index(f'name="m_{u}"') for u in ("2-GH/A", "2-GH/B", "2-GH/C", "3-RTR/1")]
    assert order == sorted(order)
    assert page.index("<legend>2-GH</legend>") < order[0] < page.index("<legend>3-RTR</legend>")


# --- finding 30: plurals and the threshold hint --------------------------------------------


def test_f30_one_element_and_one_formation_are_singular(client, user, other_user):
    op, germans, _ = make_operation(user, other_user)
    client.force_login(user)
    text = HEADER + "formation,1-9,,,,0,battalion,yes,\nunit,1-9/A,,1-9,infantry,4,,,\n"
    page = client.post(
        reverse("tcs-side", args=[op.pk, germans.pk]),
        {"action": "import", "import-csv": text},
        follow=True,
    ).text
    assert "Imported 1 formation and 1 unit." in page
    sheet = tcs_sheet_draw(side=germans, actor=user, code="A", missions={"1-9/A": "attack"})
    page = client.get(reverse("tcs-sheet", args=[op.pk, sheet.pk])).text
    assert "(1 element)" in page and "1 elements" not in page


# --- finding 34: the graphic as a thumbnail --------------------------------------------------


def test_f34_an_uploaded_picture_shows_as_a_thumbnail_beside_its_link(client, op, user):
    germans, _ = sides(op)
    sheet = tcs_sheet_draw(
        side=germans,
        actor=user,
        code="A",
        missions={"1-123/1": "attack"},
        graphic=png_upload("plan.png"),
    )
    client.force_login(user)
    page = client.get(reverse("tcs-sheet", args=[op.pk, sheet.pk])).text
    url = reverse("tcs-sheet-graphic", args=[op.pk, sheet.pk])
    assert f'<img src="{url}"' in page and "Open the graphic" in page


def test_f5_a_changed_reading_is_logged_with_its_label_not_its_field_name(op, user):
    tcs_options_update(campaign=op, actor=user, values={"carried_rounding": "up"})
    entry = LogEntry.objects.get(campaign=op, data__tcs__options="carried_rounding")
    assert "carried_rounding" not in entry.summary
    assert entry.data["msg"]["params"]["name"] == {
        "msg": {"id": "Rounding of carried units' losses"}
    }
