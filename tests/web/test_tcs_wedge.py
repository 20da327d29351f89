"""No TCS state a player can reach stops the operation for ever: a sheet that would keep play
from starting can be deleted, the page says what play waits for and from whom (naming only
what the viewer may see), and a player's end of the operation needs every side."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import LogEntry
from campaigns.models.tcs import OpSheetRecord
from campaigns.services import side_join
from campaigns.services.tcs import (
    tcs_operation_end,
    tcs_operation_end_withdraw,
    tcs_operation_start,
    tcs_sheet_delete,
    tcs_sheet_draw,
)
from tests.web.test_tcs_pages import bloody_110, make_operation, sides, with_oob

pytestmark = pytest.mark.django_db


@pytest.fixture
def op(user, other_user):
    return bloody_110(user, other_user)


def _unimplemented(op, side, user, code="A"):
    """A sheet left unimplemented during set-up (as the old 'Drawn before play' box made)."""
    sheet = tcs_sheet_draw(side=side, actor=user, code=code, missions={"1-123/1": "attack"})
    OpSheetRecord.objects.filter(pk=sheet.pk).update(
        state={**sheet.state, "status": "unimplemented"}
    )
    sheet.refresh_from_db()
    return sheet


def test_27_1_f_the_draw_form_offers_no_way_to_leave_a_set_up_sheet_unimplemented(client, op, user):
    germans, _ = sides(op)
    client.force_login(user)
    page = client.get(reverse("tcs-sheet-new", args=[op.pk, germans.pk]))
    assert "Drawn before play" not in page.text and 'name="pregame"' not in page.text
    with pytest.raises(ValidationError) as err:
        tcs_sheet_draw(
            side=germans, actor=user, code="A", missions={"1-123/1": "attack"}, pregame=False
        )
    assert "[27.1.f]" in str(err.value.message_dict["pregame"])
    assert not OpSheetRecord.objects.exists()


def test_27_1_f_a_stuck_sheet_is_named_deleted_and_play_then_starts(client, op, user, other_user):
    germans, _ = sides(op)
    sheet = _unimplemented(op, germans, user)
    client.force_login(user)
    refused = client.post(reverse("tcs-start", args=[op.pk]), follow=True)
    assert "[27.1.f]" in refused.text and "A" in refused.text
    op.refresh_from_db()
    assert op.status == "setup"
    # the page says who must do what; the other side learns only a count
    assert (
        "delete the unimplemented op sheet(s) A"
        in client.get(reverse("tcs-operation", args=[op.pk])).text
    )
    client.force_login(other_user)
    theirs = client.get(reverse("tcs-operation", args=[op.pk])).text
    assert "delete 1 unimplemented op sheet" in theirs
    assert "op sheet(s) A" not in theirs
    # the owner deletes it from the sheet page (confirmed), the deletion is logged
    client.force_login(user)
    sheet_page = client.get(reverse("tcs-sheet", args=[op.pk, sheet.pk])).text
    assert "Delete this sheet" in sheet_page and "hx-confirm" in sheet_page
    client.post(reverse("tcs-sheet-delete", args=[op.pk, sheet.pk]))
    assert not OpSheetRecord.objects.exists()
    entry = LogEntry.objects.get(campaign=op, kind="correction")
    assert "deleted op sheet A" in entry.summary and entry.private_to == germans
    client.post(reverse("tcs-start", args=[op.pk]))
    op.refresh_from_db()
    assert op.status == "active"


def test_6_13_b_only_a_sheet_that_never_took_effect_is_deleted(client, op, user, other_user):
    germans, _ = sides(op)
    tcs_operation_start(campaign=op, actor=user)
    drawn = tcs_sheet_draw(side=germans, actor=user, code="B", missions={"1-123/2": "attack"})
    assert drawn.status == "unimplemented"
    with pytest.raises(ValidationError):  # not the other side's to delete
        tcs_sheet_delete(sheet=drawn, actor=other_user)
    OpSheetRecord.objects.filter(pk=drawn.pk).update(state={**drawn.state, "status": "implemented"})
    with pytest.raises(ValidationError, match=r"\[6.11\]"):
        tcs_sheet_delete(sheet=drawn, actor=user)
    assert OpSheetRecord.objects.filter(pk=drawn.pk).exists()
    client.force_login(other_user)  # the other side cannot reach it at all
    assert client.post(reverse("tcs-sheet-delete", args=[op.pk, drawn.pk])).status_code == 404


def test_a_player_agrees_to_end_and_the_operation_ends_when_both_sides_agree(
    client, make_user, user, other_user
):
    """A third user organises; the two players agree in turn, one withdraws and agrees again."""
    organiser = make_user("olga")
    op, germans, americans = make_operation(organiser, other_user, creator_side=None)
    side_join(user=user, side=americans)  # other_user plays the Germans
    with_oob(op, germans, americans, (other_user, user))
    tcs_operation_start(campaign=op, actor=organiser)
    tcs_operation_end(campaign=op, actor=user, confirm=True)
    op.refresh_from_db()
    assert op.status == "active"
    client.force_login(other_user)
    page = client.get(reverse("tcs-operation", args=[op.pk])).text
    assert "Agreed to end the operation: Americans" in page
    assert "agree to end the operation" in page
    client.force_login(user)
    client.post(reverse("tcs-end-withdraw", args=[op.pk]))
    op.refresh_from_db()
    assert op.state.get("end_agreed") == []
    with pytest.raises(ValidationError):
        tcs_operation_end_withdraw(campaign=op, actor=user)
    tcs_operation_end(campaign=op, actor=user, confirm=True)
    client.force_login(other_user)
    client.post(reverse("tcs-end", args=[op.pk]), {"confirm": "on"})
    op.refresh_from_db()
    assert op.status == "finished"
