"""'Your move' (issue 17, item 3 and findings 11, 19, 21, 26, 28, 31, 33): the inbox and its
badge per user and role, live versions, e-mail notices, log order and numbering, favicon,
the signed-out home page and site chrome."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core import mail
from django.db import transaction
from django.urls import reverse

from campaigns.models import (
    Battle,
    Campaign,
    Club,
    CommandPhase,
    Decision,
    League,
    LogEntry,
    NoticeSettings,
    Result,
    ResultPlayer,
    SkirmishBattle,
    SkirmishSide,
)
from campaigns.permissions import viewer_context
from campaigns.selectors.inbox import campaign_version, inbox_count, inbox_items
from campaigns.services import campaign_create, side_join
from campaigns.services._base import append_log
from campaigns.services.cc_campaigns import cc_campaign_create
from tests.web.roster_helpers import DEFENDER_UNITS, m1936_battle

pytestmark = pytest.mark.django_db


@pytest.fixture
def sides(campaign):
    return list(campaign.sides.order_by("order"))  # Germans (alice), Soviets (bob)


def _decision(campaign, key, chooser=None, **extra):
    return Decision.objects.create(
        campaign=campaign, key=key, prompt=f"Prompt for {key}", chooser=chooser, **extra
    )


def _log(campaign, summary, **extra):
    with transaction.atomic():
        return append_log(campaign, kind=LogEntry.Kind.EVENT, summary=summary, **extra)


def test_inbox_counts_per_user_and_role(campaign, sides, user, other_user, make_user):
    germans, soviets = sides
    gm = make_user("umpire")
    campaign.game_masters.add(gm)
    _decision(campaign, "german-choice", germans)
    _decision(campaign, "soviet-sealed", soviets, sealed=True)
    _decision(campaign, "together")
    _decision(campaign, "done", germans, status=Decision.Status.APPLIED)
    # alice created the campaign and seated herself: her two decisions, no seat news
    assert inbox_count(user) == 2
    # bob: his side's sealed choice, the shared one, and the seat alice's campaign gave him
    assert inbox_count(other_user) == 3
    assert {i.kind for i in inbox_items(other_user)} == {"decision", "seat"}
    # a neutral game master plays no side: nothing waits for him
    assert inbox_count(gm) == 0
    # alice never sees the Soviets' sealed prompt listed
    assert not any("soviet-sealed" in i.what for i in inbox_items(user))


def test_inbox_page_lists_links_and_reading_clears_seat_news(client, campaign, sides, other_user):
    _decision(campaign, "soviet-sealed", sides[1], sealed=True)
    client.force_login(other_user)
    page = client.get(reverse("inbox")).content.decode()
    assert "Your sealed choice: Prompt for soviet-sealed" in page
    assert "You were seated on Soviets" in page
    assert f'href="/campaigns/{campaign.pk}/#dashboard"' in page
    # the seat was news once; the decision waits until answered
    assert inbox_count(other_user) == 1
    assert NoticeSettings.objects.get(user=other_user).inbox_seen_at is not None


def test_inbox_page_queries_do_not_grow_with_items(
    client, campaign, sides, other_user, django_assert_max_num_queries
):
    client.force_login(other_user)
    for n in (1, 15):
        for i in range(n):
            _decision(campaign, f"k{n}-{i}", sides[1])
        with django_assert_max_num_queries(15):  # the first reading makes the settings row
            assert client.get(reverse("inbox")).status_code == 200


def test_header_badge_shows_the_count(client, campaign, sides, user):
    _decision(campaign, "german-choice", sides[0])
    client.force_login(user)
    page = client.get("/").content.decode()
    assert re.search(r'id="inbox-count"[^>]*>1</span>', page)
    assert "1 thing waits for you" in page
    assert "Waiting for you" in page  # the campaign's card


def test_badge_count_is_one_query(campaign, sides, other_user, django_assert_num_queries):
    _decision(campaign, "soviet-sealed", sides[1], sealed=True)
    with django_assert_num_queries(1):
        assert inbox_count(other_user) == 2  # the choice and the seat


def test_skirmish_invitation_is_in_the_inbox(user, other_user):
    battle = SkirmishBattle.objects.create(system="parabellum", created_by=user, title="Hill 112")
    SkirmishSide.objects.create(battle=battle, index=0, role="attacker", player=user)
    SkirmishSide.objects.create(battle=battle, index=1, role="defender", player=other_user)
    items = inbox_items(other_user)
    assert [i.kind for i in items] == ["invitation"]
    assert items[0].url == battle.get_absolute_url() + "#action-join"
    assert inbox_count(user) == 0


def test_reported_result_waits_for_the_opponent_only(user, other_user):
    club = Club.objects.create(name="Club", slug="club")
    league = League.objects.create(club=club, name="L", season="2026", system="cc")
    result = Result.objects.create(
        league=league,
        played_on=dt.date(2026, 1, 2),
        outcome="a",
        status=Result.Status.REPORTED,
        entered_by=user,
    )
    ResultPlayer.objects.create(result=result, user=user, team="a")
    ResultPlayer.objects.create(result=result, user=other_user, team="b")
    assert [i.kind for i in inbox_items(other_user)] == ["result"]
    assert inbox_count(user) == 0


def test_tcs_command_phase_waits_for_its_side(user, other_user):
    op = campaign_create(creator=user, name="Op", system="tcs", side_names=["British", "German"])
    british, _german = op.sides.order_by("order")
    side_join(user=user, side=british)
    Campaign.objects.filter(pk=op.pk).update(
        status=Campaign.Status.ACTIVE, state={"turn": {"number": 2}}
    )
    assert [i.kind for i in inbox_items(user)] == ["command_phase"]
    CommandPhase.objects.create(
        campaign=op, side=british, turn=2, clock="0800", status=CommandPhase.Status.COMPLETED
    )
    assert inbox_count(user) == 0


# --- Live versions ----------------------------------------------------------------------------


def test_live_version_moves_with_visible_changes_only(client, campaign, sides, other_user):
    client.force_login(other_user)
    url = reverse("live-campaign", args=[campaign.pk])
    version = campaign_version(campaign, viewer_context(other_user, campaign))
    assert client.get(url, {"v": version}).status_code == 204
    _log(campaign, "Germans' private note", private_to=sides[0])
    assert client.get(url, {"v": version}).status_code == 204  # another side's secret: no move
    _log(campaign, "Time track advance")
    answer = client.get(url, {"v": version, "regions": "#log"})
    assert answer.status_code == 200
    assert answer["HX-Trigger"] == "ledger-changed"
    assert 'data-live-regions="#log"' in answer.content.decode()
    assert len(answer.content) < 300


def test_live_version_stops_polling_when_signed_out(client, campaign):
    assert client.get(reverse("live-campaign", args=[campaign.pk])).status_code == 286


def test_live_version_is_private_to_viewers(client, campaign, make_user):
    Campaign.objects.filter(pk=campaign.pk).update(visibility=Campaign.Visibility.PRIVATE)
    client.force_login(make_user("stranger"))
    assert client.get(reverse("live-campaign", args=[campaign.pk])).status_code == 404


def test_pages_carry_the_live_poller(client, campaign, user):
    client.force_login(user)
    page = client.get(campaign.get_absolute_url()).content.decode()
    assert 'hx-trigger="every 10s"' in page
    assert 'data-live-regions="#dashboard #log"' in page


# --- E-mail notices ---------------------------------------------------------------------------


def test_email_notice_goes_to_players_who_chose_it(
    client, campaign, sides, user, other_user, django_capture_on_commit_callbacks
):
    client.force_login(other_user)
    answer = client.post(
        reverse("notice-settings"), {"email": "bob@example.org", "email_decisions": "on"}
    )
    assert answer.status_code == 302
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        _decision(campaign, "soviet-sealed", sides[1], sealed=True)
        _decision(campaign, "german-choice", sides[0])  # alice chose no mail
    assert [m.to for m in mail.outbox] == [["bob@example.org"]]
    assert "/inbox/" in mail.outbox[0].body
    assert "Prompt for" not in mail.outbox[0].body  # no content, only a pointer


def test_each_email_notice_is_written_in_its_readers_language(
    client, campaign, sides, user, other_user, django_capture_on_commit_callbacks
):
    client.force_login(other_user)
    client.cookies["django_language"] = "es"  # bob reads the site in Spanish
    client.post(reverse("notice-settings"), {"email": "bob@example.org", "email_decisions": "on"})
    client.force_login(user)
    client.cookies["django_language"] = "en"
    client.post(reverse("notice-settings"), {"email": "al@example.org", "email_decisions": "on"})
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        _decision(campaign, "soviet-choice", sides[1])
        _decision(campaign, "german-choice", sides[0])
    subjects = {m.to[0]: m.subject for m in mail.outbox}
    assert subjects["al@example.org"] == "A decision waits for your side"
    assert subjects["bob@example.org"] != subjects["al@example.org"]
    assert "decisión" in subjects["bob@example.org"].lower()


def test_notice_settings_page_puts_checkboxes_beside_their_label(client, user):
    client.force_login(user)
    page = client.get(reverse("notice-settings")).content.decode()
    assert re.search(r'<label class="check"><input type="checkbox" name="email_seats"', page)


# --- Log order and numbering (findings 19, 21) ------------------------------------------------


def _numbers(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<span class="seq">#(\d+)</span>', html)]


def test_log_is_newest_first_and_numbered_without_gaps(client, campaign, sides, other_user, user):
    _log(campaign, "first public")
    _log(campaign, "German secret", private_to=sides[0])
    _log(campaign, "second public")
    client.force_login(other_user)
    for url in (campaign.get_absolute_url(), reverse("campaign-log", args=[campaign.pk])):
        page = client.get(url).content.decode()
        numbers = _numbers(page)
        assert numbers == sorted(numbers, reverse=True)  # newest first
        assert numbers == list(range(max(numbers), 0, -1))  # no gap for the secret
        assert "German secret" not in page
        assert page.index("second public") < page.index("first public")
    # the Germans see their own private entry, without a number
    client.force_login(user)
    page = client.get(reverse("campaign-log", args=[campaign.pk])).content.decode()
    secret = page[page.index("German secret") - 400 : page.index("German secret")]
    assert "private to Germans" in page
    assert secret.rfind("<li") > secret.rfind('class="seq"')


# --- Chrome -----------------------------------------------------------------------------------


def test_favicon_answers(client):
    answer = client.get("/favicon.ico")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "image/x-icon"
    assert answer.content[:4] == b"\x00\x00\x01\x00"


def test_signed_out_home_invites_to_browse(client, campaign):
    Club.objects.create(name="Tercio Club", slug="tercio")
    Campaign.objects.filter(pk=campaign.pk).update(visibility=Campaign.Visibility.PUBLIC)
    page = client.get("/").content.decode()
    assert "Browse without an account" in page
    assert 'href="/clubs/tercio/"' in page
    assert f'href="/history/campaigns/{campaign.pk}/"' in page
    assert "Clubs, leagues and players" in page  # the header too


def test_language_select_changes_on_select(client):
    page = client.get("/").content.decode()
    assert 'name="language" data-submit-on-change' in page
    assert 'class="no-js-only"' in page  # the button stays for browsers without script


def test_skirmish_log_is_newest_first_and_polls(client, user, other_user):
    battle = m1936_battle(user, other_user, DEFENDER_UNITS)
    client.force_login(other_user)
    page = client.get(battle.get_absolute_url()).content.decode()
    log = page[page.index('id="battle-log"') :]
    numbers = _numbers(log)
    assert len(numbers) >= 2
    assert numbers == sorted(numbers, reverse=True)
    assert f'hx-get="/live/skirmish/{battle.pk}/?v=' in page
    live = reverse("live-skirmish", args=[battle.pk])
    version = re.search(r"/live/skirmish/\d+/\?v=(\w+)", page).group(1)
    assert client.get(live, {"v": version}).status_code == 204


def test_battle_page_log_is_newest_first(client, user, other_user):
    c = cc_campaign_create(creator=user, name="Kurgan", template="stalingrad", creator_side=0)
    side_join(user=other_user, side=c.sides.get(order=1))
    battle = Battle.objects.create(campaign=c, number=1, position="O")
    for text in ("early shot", "late shot"):
        _log(c, text, battle=battle)
    client.force_login(other_user)
    answer = client.get(reverse("battle-detail", args=[c.pk, 1]))
    page = answer.content.decode()
    assert answer.status_code == 200
    log = page[page.index('id="battle-log"') :]
    assert log.index("late shot") < log.index("early shot")
    assert 'data-live-regions="#score #tracks #battle-log"' in page
