"""Results from campaign battles (two and four players), battle and campaign histories,
CSV exports and imports, and the campaign JSON round trip; private data never leaks."""

import datetime as dt
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from campaigns.exports import campaign_export, campaign_import
from campaigns.models import Battle, Campaign, Club, Decision, LogEntry, Result
from campaigns.services import campaign_create, club_join, side_join
from campaigns.services._base import append_log
from campaigns.services.leagues import result_from_battle, results_import_csv

pytest_plugins = ["tests.web.leagues_helpers"]
pytestmark = pytest.mark.django_db


@pytest.fixture
def kurgan(campaign, club, user, other_user):
    """alice (Germans) against bob (Soviets); battle 1 won by the Germans, with events."""
    club_join(user=user, club=club)
    club_join(user=other_user, club=club)
    Campaign.objects.filter(pk=campaign.pk).update(club=club, state={"position": "C"})
    campaign.refresh_from_db()
    germans, soviets = campaign.sides.order_by("order")
    battle = Battle.objects.create(
        campaign=campaign, number=1, position="A", status=Battle.Status.RESOLVED,
        winner=germans, result={"winner": "axis", "survivors": {}},
        finished_at=timezone.make_aware(dt.datetime(2026, 2, 14, 20, 0)),
    )  # fmt: skip
    append_log(campaign, kind="event", summary="VP up", battle=battle, rule="O.1",
               data={"category": "vp", "text": "", "vp_delta": 3})  # fmt: skip
    append_log(campaign, kind="event", summary="Casualty: squad", battle=battle,
               data={"category": "casualty", "text": "squad", "vp_delta": None})  # fmt: skip
    append_log(campaign, kind="roll", summary="alice rolled 2d6 for fire: 9", battle=battle,
               rule="O.3", data={"roll": {"faces": [4, 5], "kind": "2d6"}})  # fmt: skip
    append_log(campaign, kind="setup", summary="SECRET-PURCHASE", battle=battle,
               private_to=germans)  # fmt: skip
    Decision.objects.create(campaign=campaign, battle=battle, key="purchase.axis",
                            prompt="SEALED-PROMPT", sealed=True, chooser=germans,
                            status="answered", answer=["SEALED-ANSWER"])  # fmt: skip
    Decision.objects.create(campaign=campaign, battle=battle, key="purchase.allies",
                            prompt="Soviet purchase", sealed=True, chooser=soviets,
                            status="applied", answer=["Guards"],
                            revealed_at=timezone.now())  # fmt: skip
    Decision.objects.create(campaign=campaign, key="position", prompt="Pick a position",
                            chooser=germans, options=["B", "C"])  # fmt: skip
    return campaign


def test_result_from_a_two_player_battle(kurgan, league, organiser, user, other_user):
    battle = kurgan.battles.get(number=1)
    result = result_from_battle(league=league, actor=organiser, battle=battle)
    assert result.battle == battle and result.outcome == "a"
    assert result.played_on == dt.date(2026, 2, 14)
    assert [(p.user, p.team) for p in result.players.order_by("team")] == [
        (user, "a"), (other_user, "b")
    ]  # fmt: skip
    assert (result.side_a, result.side_b) == ("Germans", "Soviets")
    entry = kurgan.log.order_by("-seq").first()
    assert entry.kind == LogEntry.Kind.RESULT and "Winter League" in entry.summary
    again = result_from_battle(league=league, actor=organiser, battle=battle)
    assert again.pk == result.pk and Result.objects.count() == 1


def test_four_player_battle_makes_teams_by_faction(club, league, organiser, make_user):
    users = [make_user(n) for n in ("al1", "al2", "ax1", "ax2")]
    for u in users:
        club_join(user=u, club=club)
    c = campaign_create(creator=users[0], name="Montecassino", system="cc",
                        side_names=["US", "NZ", "Fallschirm", "Panzer"], club=club)  # fmt: skip
    sides = list(c.sides.order_by("order"))
    for side, faction, u in zip(sides, ["allies", "allies", "axis", "axis"], users, strict=True):
        side.faction = faction
        side.save()
        side_join(user=u, side=side)
    battle = Battle.objects.create(campaign=c, number=1, status="resolved", winner=sides[2],
                                   result={"winner": "axis"})  # fmt: skip
    result = result_from_battle(league=league, actor=organiser, battle=battle)
    teams = {t: sorted(result.players.filter(team=t).values_list("user__username", flat=True))
             for t in "ab"}  # fmt: skip
    assert teams == {"a": ["ax1", "ax2"], "b": ["al1", "al2"]}
    assert result.side_a == "Fallschirm + Panzer" and result.side_b == "US + NZ"


def test_unfinished_or_foreign_battles_are_refused(kurgan, league, organiser, make_user):
    battle = Battle.objects.create(campaign=kurgan, number=2)
    with pytest.raises(ValidationError) as err:
        result_from_battle(league=league, actor=organiser, battle=battle)
    assert "battle" in err.value.message_dict
    stranger = make_user("stranger")
    private = campaign_create(creator=stranger, name="Hidden", system="cc", side_names=["A", "B"])
    hidden = Battle.objects.create(campaign=private, number=1, result={"winner": "axis"},
                                   winner=private.sides.first())  # fmt: skip
    with pytest.raises(ValidationError) as err:
        result_from_battle(league=league, actor=organiser, battle=hidden)
    assert "battle" in err.value.message_dict and not Result.objects.exists()


def test_battle_history_shows_public_timeline_and_charts(client, kurgan, user, other_user):
    url = reverse("battle-history", args=[kurgan.pk, 1])
    for who in (user, other_user):  # even the Germans' own player: history pages are public
        client.force_login(who)
        page = client.get(url).text
        assert "VP up" in page and "[O.3]" in page and "4·5" in page
        assert "SECRET-PURCHASE" not in page and "SEALED" not in page
        assert page.count("<svg") == 2 and "VP (net): 3" in page and "Casualties: 1" in page
    client.logout()
    assert client.get(url).status_code == 404  # a private campaign stays private


def test_campaign_history_has_the_position_path(client, kurgan, user):
    client.force_login(user)
    page = client.get(reverse("campaign-history", args=[kurgan.pk])).text
    assert '<ol class="path"><li>A</li><li>C</li></ol>' in page
    assert "SECRET-PURCHASE" not in page and "VP up" in page


def test_club_battle_search_and_htmx_filter(client, kurgan, club, user, make_user):
    client.force_login(user)
    url = reverse("club-battles", args=[club.slug])
    assert "Kurgan" in client.get(url + "?q=kurg").text
    partial = client.get(url + "?q=nothing-like-it", HTTP_HX_REQUEST="true")
    assert "<html" not in partial.text and "No battle found." in partial.text
    assert "Kurgan" in client.get(url + "?finished=yes&player=bob&system=cc").text
    assert "Kurgan" not in client.get(url + "?system=tcs").text
    client.force_login(make_user("carol"))  # cannot see the private campaign
    assert "Kurgan" not in client.get(url).text


def test_campaign_json_round_trip_into_an_empty_database(kurgan):
    data = campaign_export(kurgan)
    text = json.dumps(data)
    assert "SECRET-PURCHASE" not in text and "SEALED" not in text
    assert "Guards" in text and "Pick a position" in text  # revealed and public decisions stay
    public = list(kurgan.log.filter(private_to__isnull=True).order_by("seq"))
    assert [e["seq"] for e in data["log"]] == list(range(1, len(public) + 1))
    assert [e["number"] for e in data["log"]] == [e.number for e in public]
    Campaign.objects.all().delete()
    Club.objects.all().delete()
    get_user_model().objects.all().delete()
    imported = campaign_import(json.loads(text))
    assert campaign_export(imported) == data
    assert imported.sides.get(name="Germans").players.get().username == "alice"
    assert not imported.log.filter(summary="SECRET-PURCHASE").exists()


def test_campaign_import_refuses_bad_files_and_changes_nothing(kurgan):
    data = campaign_export(kurgan)
    with pytest.raises(ValidationError) as err:
        campaign_import({"format": "other"})
    assert "file" in err.value.message_dict
    broken = json.loads(json.dumps(data))
    del broken["sides"][0]["name"]
    before = Campaign.objects.count()
    with pytest.raises(ValidationError):
        campaign_import(broken)
    bad_date = json.loads(json.dumps(data))
    bad_date["log"][0]["created_at"] = "yesterday"
    with pytest.raises(ValidationError):
        campaign_import(bad_date)
    assert Campaign.objects.count() == before


def test_export_page_and_staff_only_import(client, kurgan, user, make_user):
    client.force_login(user)
    response = client.get(reverse("campaign-export", args=[kurgan.pk]))
    assert response.status_code == 200 and response.json()["campaign"]["name"] == "Kurgan"
    assert client.get(reverse("campaign-import")).status_code == 404
    client.force_login(make_user("carol"))
    assert client.get(reverse("campaign-export", args=[kurgan.pk])).status_code == 404


def test_results_and_standings_csv(client, league, played):
    text = client.get(reverse("league-results-csv", args=[league.pk])).text
    lines = text.strip().split("\n")
    assert lines[0].startswith("id,status,played_on,round,scenario,side_a,side_b,team_a,team_b")
    assert len(lines) == 6 and ",2026-03-01,,Fat Lipki,Germans,Soviets,ann,ben,a," in lines[-1]
    standings = client.get(reverse("league-standings-csv", args=[league.pk])).text.split("\n")
    assert standings[0] == "rank,player,played,wins,draws,losses,points,head-to-head,buchholz,elo"
    assert standings[1].startswith("1,ann,3,1,1,1,4,1,10,")
    assert standings[4].startswith("4,dan,3,1,0,2,3,0,")


def test_csv_import_row_errors_and_success(league, organiser, members, client):
    bad = (
        "played_on,team_a,team_b,outcome,vp_a,win_type\n"
        "2026-01-05,ann,ben,a,10,vp\n"
        "05/01/2026,ann,zed,x,-1000,concession\n"
        "2026-01-06,cat,cat,draw,,\n"
    )
    with pytest.raises(ValidationError) as err:
        results_import_csv(league=league, actor=organiser, text=bad)
    messages = err.value.message_dict["file"]
    assert "Row 3, played_on: Enter the date as YYYY-MM-DD." in messages
    assert "Row 3, team_b: Not a member of this club: zed." in messages
    assert "Row 3, outcome: Choose side A, side B or a draw." in messages
    assert "Row 3, vp_a: Enter a whole number from -999 to 999." in messages
    assert "Row 3, win_type: Choose one of the listed win types." in messages
    assert "Row 4, team_b: A player cannot be on both sides." in messages
    assert not any(m.startswith("Row 2") for m in messages) and not Result.objects.exists()
    with pytest.raises(ValidationError) as err:
        results_import_csv(league=league, actor=organiser, text="date,who\n1,2\n")
    assert "Missing column(s)" in err.value.message_dict["file"][0]
    client.force_login(organiser)
    good = "played_on,round,team_a,team_b,outcome,vp_a,win_type\n2026-01-05,1,ann,ben,a,10,vp\n"
    response = client.post(reverse("results-import", args=[league.pk]), {"text": good})
    assert response.status_code == 302
    result = Result.objects.get()
    assert result.details == {"vp_a": 10, "win_type": "vp"} and result.round == 1
    assert result.trace.get().reason == "imported from CSV"
    page = client.post(reverse("results-import", args=[league.pk]), {"text": bad})
    assert "Row 3, team_b: Not a member of this club: zed." in page.text
