"""The CC battle at the table (issue 17): score, roll result by the button, VP events with
their number, a set-up sheet that sets up a table, charts on the Time track, a legible
position track, phone-friendly decisions, a seatless Gastadores campaign, and set-up refused
while the tables miss the costs the sealed purchase needs."""

import copy
import re
from pathlib import Path

import pytest
from django.urls import reverse

from campaigns.cc.forms import decision_form
from campaigns.models import Battle, Decision, LogEntry
from campaigns.selectors.history import TIME_POINTS, battle_series
from campaigns.services import side_join
from campaigns.services.battles import battle_event_record
from campaigns.services.cc_campaigns import cc_campaign_create, cc_tables_update
from campaigns.services.cc_engine import cc_advance, decision_answer
from tests.rules.cc.campaign_helpers import NORMANDY_DATA, STALINGRAD_DATA
from tests.web.test_sealed_privacy import (
    _without_cost,
    assert_nothing_sealed_shows,
    russian_views,
)

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def _tables():
    data = copy.deepcopy(STALINGRAD_DATA)
    for row in data["campaign_forces"]["rows"]:
        if row["formation"] == "F":
            row.update(
                leader="Sgt Esser", kind="Veteran Rifle", composition_line="2 Rifle squads, 1 LMG"
            )
    return data


@pytest.fixture
def kurgan(user, other_user):
    c = cc_campaign_create(creator=user, name="Kurgan", template="stalingrad", creator_side=0)
    side_join(user=other_user, side=c.sides.get(order=1))
    cc_tables_update(campaign=c, actor=user, data=_tables())
    return c


ANSWERS = {"purchase.axis": ["F"], "purchase.allies": ["A"], "fortify.axis": 2}


def _set_up(c, user, other_user, answers=ANSWERS) -> Battle:
    cc_advance(campaign_id=c.pk, actor=user)
    for _ in range(20):
        open_ = list(c.decisions.filter(status="open").select_related("chooser"))
        if not open_:
            break
        d = open_[0]
        actor = user if d.chooser is None or d.chooser.order == 0 else other_user
        if d.key in answers:
            answer = answers[d.key]
        elif d.is_multiple:
            answer = []
        elif d.options:
            numbers = [o for o in d.options if not isinstance(o, bool)]
            answer = 0 if 0 in numbers else d.options[0]
        else:
            answer = 0
        decision_answer(decision=d, actor=actor, answer=answer)
    c.refresh_from_db()
    return Battle.objects.get(campaign=c, number=1)


def _vp_shown(body: str) -> str:
    found = re.search(r"VP marker</dt><dd><strong>([^<]*)</strong>", body)
    assert found, "the score shows the VP marker"
    return found.group(1)


# --- finding 3: the battle page keeps score; the roll lands next to the button ---------------


def test_a_vp_change_moves_the_shown_vp_and_the_score_keeps_time_and_casualties(
    client, kurgan, user, other_user
):
    battle = _set_up(kurgan, user, other_user)
    assert battle.status == Battle.Status.PLAYING
    client.force_login(user)
    url = reverse("battle-detail", args=[kurgan.pk, 1])
    page = client.get(url).text
    start = kurgan.state["battles"][0]["vp_axis"]
    assert _vp_shown(page) == ("0 (level)" if start == 0 else _side_vp(start))
    assert "space 0" in page

    event = reverse("battle-event", args=[kurgan.pk, 1])
    answer = client.post(event, {"category": "vp", "text": "", "vp_delta": "3"}, headers=HX).text
    # the htmx answer replaces the score too (out of band), not only the log
    assert 'id="score"' in answer and 'hx-swap-oob="true"' in answer
    assert _vp_shown(answer) == _side_vp(start + 3)
    client.post(event, {"category": "time", "text": "double sixes"}, headers=HX)
    client.post(event, {"category": "casualty", "text": "Rifle squad 2-1 eliminated"}, headers=HX)
    page = client.get(url).text
    assert _vp_shown(page) == _side_vp(start + 3)
    assert "space 1 (1 Time trigger logged)" in page
    assert re.search(r"Casualties</dt><dd>1</dd>", page)
    # the log reads newest first
    assert page.index("Rifle squad 2-1 eliminated") < page.index("double sixes")


def _side_vp(vp_axis: int) -> str:
    if vp_axis == 0:
        return "0 (level)"
    return f"Germans +{vp_axis}" if vp_axis > 0 else f"Soviets +{-vp_axis}"


def test_the_roll_result_is_drawn_next_to_the_roll_button(client, kurgan, user, other_user):
    _set_up(kurgan, user, other_user)
    client.force_login(other_user)
    url = reverse("battle-detail", args=[kurgan.pk, 1])
    page = client.get(url).text
    form = page[page.index('id="roll-h"') : page.index("Odds before rolling")]
    assert 'hx-target="#roll-result"' in form and 'id="roll-result"' in form
    assert form.index("Roll</button>") < form.index('id="roll-result"')

    roll = reverse("battle-roll", args=[kurgan.pk, 1])
    answer = client.post(
        roll, {"roll_kind": "2d6", "purpose": "Fire on 2-1", "entered": "3,4"}, headers=HX
    ).text
    assert answer.lstrip().startswith('<div id="roll-result"')
    result = answer[: answer.index("</div>")]
    assert ">7<" in result and "Fire on 2-1" in result and "3 + 4" in result
    assert '<ol id="battle-log" class="log" aria-live="polite" hx-swap-oob="true">' in answer

    bad = client.post(roll, {"roll_kind": "2d6", "purpose": "x", "entered": "9,9"}, headers=HX)
    box = bad.text[: bad.text.index("</div>")]
    assert 'id="roll-result"' in box and "error" in box  # the error lands in the same box

    # without htmx: back to the roll card, which shows this player's latest roll
    plain = client.post(roll, {"roll_kind": "d6", "purpose": "Sniper", "entered": "5"})
    assert plain.url.endswith("#roll-h")
    page = client.get(url).text
    box = page[page.index('id="roll-result"') :]
    assert "Sniper" in box[: box.index("</div>")]


# --- finding 20: a VP change without its number is refused ----------------------------------


def test_a_vp_change_without_a_number_is_refused_on_the_page_and_the_api(
    client, kurgan, user, other_user
):
    battle = _set_up(kurgan, user, other_user)
    client.force_login(user)
    before = LogEntry.objects.filter(battle=battle).count()
    event = reverse("battle-event", args=[kurgan.pk, 1])
    answer = client.post(event, {"category": "vp", "text": "VP"}, headers=HX).text
    assert "Enter the VP change as a signed number" in answer
    response = client.post(event, {"category": "vp", "text": "VP"}, follow=True)
    assert "Enter the VP change as a signed number" in response.text
    api = client.post(
        f"/api/v1/campaigns/{kurgan.pk}/battles/1/events/",
        {"category": "vp", "text": "VP"},
        content_type="application/json",
    )
    assert api.status_code == 400 and "vp_delta" in api.text, api.text
    assert LogEntry.objects.filter(battle=battle).count() == before
    assert not LogEntry.objects.filter(summary__contains="VP change: VP").exists()


# --- findings 4 and 5: the set-up sheet sets up a table -------------------------------------


def test_the_set_up_sheet_says_everything_in_words(client, kurgan, user, other_user):
    _set_up(kurgan, user, other_user)
    client.force_login(other_user)
    sheet = client.get(reverse("battle-sheet", args=[kurgan.pk, 1])).text
    record = kurgan.state["battles"][0]
    die = record["orientation"]
    edges = {1: "top", 2: "right", 3: "right", 4: "bottom", 5: "left", 6: "left"}
    opposite = {1: 4, 2: 5, 3: 6, 4: 1, 5: 2, 6: 3}
    # no Python data, no bare keys, sides by name
    for raw in ("{'", "initiative_card", "'axis'", "(axis)", "(allies)", "orientation "):
        assert raw not in sheet, raw
    assert "<h3>Germans</h3>" in sheet and "<h3>Soviets</h3>" in sheet
    # the map, laid wide or long, and each side's friendly edge in compass words
    shape = "wide" if die in (1, 4) else "long"
    assert f"Map {record['map']}, laid {shape} (white die {die})" in sheet
    assert f"the {edges[die]} edge of the map (compass direction {die})" in sheet  # Soviets
    assert (
        f"the {edges[opposite[die]]} edge of the map (compass direction {opposite[die]})" in sheet
    )
    # the patrols with their leader and units, what the Fortification Points bought
    assert "<strong>F</strong> · Veteran Rifle" in sheet and "led by Sgt Esser" in sheet
    assert "2 Rifle squads, 1 LMG" in sheet
    assert "Fortification Points: 2 spent on Fortification OBs [ST-C1.9]" in sheet
    assert (
        "4 Rubble markers: 2 placed at random hexes drawn from each side&#x27;s Fate deck" in sheet
    )
    assert "Surrender level</dt><dd>6</dd>" in sheet  # German Command 4 + F 2
    assert "Reinforcements</dt><dd>none</dd>" in sheet
    assert "hold the Initiative card" in sheet or "the players decide who holds the card" in sheet
    assert re.search(r"Posture</dt><dd>(Attack|Defend|Recon) \(hand of \d cards\)", sheet)
    # the VP ledger prints open, and the sheet has print rules
    assert "How the VP marker got there</h3>" in sheet and "<details" not in sheet
    assert "css/ledger.css" in sheet and "@media print" in Path("static/css/ledger.css").read_text()


# --- finding 12: charts on the Time track, with a table ------------------------------------


def test_battle_history_charts_vp_and_casualties_against_the_time_track(
    client, kurgan, user, other_user
):
    battle = _set_up(kurgan, user, other_user)
    for category, vp in (("vp", 2), ("time", None), ("casualty", None), ("time", None), ("vp", -3)):
        battle_event_record(battle=battle, actor=user, category=category, text="x", vp_delta=vp)
    client.force_login(other_user)
    page = client.get(reverse("battle-history", args=[kurgan.pk, 1])).text
    table = page[page.index('<table class="chart-table">') : page.index("</table>")]
    rows = re.findall(r'<th scope="row">(\d+)</th><td>([^<]*)</td><td>(\d+)</td>', table)
    first = rows[0]
    assert rows[1:] == [("1", "+2", "1"), ("2", "-1", "1")] and first[0] == "0"
    assert "Time track space" in page and "VP against the Time track" in page
    assert 'viewBox="0 0 360 230"' in page
    sizes = [int(s) for s in re.findall(r'font-size="(\d+)"', page[page.index("charts-h") :])]
    assert sizes and min(sizes) >= 13
    # far more advances than a Time track has: neighbouring spaces share a point
    for _ in range(3 * TIME_POINTS):
        battle_event_record(battle=battle, actor=user, category="time", text="t")
    series = battle_series(battle)
    assert len(series["chart_rows"]) <= TIME_POINTS + 1
    assert series["chart_rows"][-1]["space"] == 3 * TIME_POINTS + 2


# --- finding 27: the position track stays legible on a phone --------------------------------


def test_the_position_track_scrolls_in_its_own_box_with_legible_labels(client, kurgan, user):
    client.force_login(user)
    page = client.get(kurgan.get_absolute_url()).text
    track = page[page.index('class="track-scroll"') : page.index("</svg>")]
    sizes = [int(s) for s in re.findall(r'font-size="(\d+)"', track)]
    assert sizes and min(sizes) >= 12
    css = Path("static/css/ledger.css").read_text()
    assert ".track-scroll { overflow-x: auto" in css and "min-width: 340px" in css
    assert re.search(r"viewBox=\"0 0 (\d+) ", track).group(1) == "384"


# --- finding 23: phone-friendly decisions ---------------------------------------------------


def test_fortification_points_are_a_select_not_twelve_radios(kurgan, user, other_user):
    cc_advance(campaign_id=kurgan.pk, actor=user)
    for d in kurgan.decisions.filter(status="open"):
        decision_answer(decision=d, actor=user if d.chooser.order == 0 else other_user, answer=[])
    fortify = None
    for _ in range(10):
        d = kurgan.decisions.filter(status="open").select_related("chooser").first()
        if d is None or d.key.startswith("fortify."):
            fortify = d
            break
        decision_answer(
            decision=d,
            actor=user if d.chooser is None or d.chooser.order == 0 else other_user,
            answer=0 if not d.options or 0 in d.options else d.options[0],
        )
    assert fortify is not None and len(fortify.options) == 12
    html = str(decision_form(fortify)["answer"])
    assert "<select" in html and 'type="radio"' not in html
    assert '<option value="11">11</option>' in html


def test_survivor_choices_show_kind_and_weapon(kurgan, user, other_user):
    battle = _set_up(kurgan, user, other_user)
    d = Decision.objects.create(
        campaign=kurgan,
        battle=battle,
        key="reinforcements.axis",
        prompt="keep",
        options=["1-1"],
        max_choices=1,
    )
    battle.result = {"survivors": {"axis": [{"id": "1-1", "kind": "Rifle squad", "weapon": "LMG"}]}}
    battle.save(update_fields=["result"])
    html = str(decision_form(Decision.objects.get(pk=d.pk))["answer"])
    assert "Rifle squad, with LMG — 1-1" in html


# --- finding 25: a Gastadores campaign with nobody seated ------------------------------------


def test_a_seatless_gastadores_campaign_waits_for_players_and_never_mentions_tables(client, user):
    client.force_login(user)
    response = client.post(
        reverse("cc-new", args=["gastadores"]),
        {"name": "Cotentin", "role": "none", "visibility": "private", "dice_mode": "server"},
        follow=True,
    )
    body = response.text
    assert "Campaign created. Seat the players" in body
    assert (
        "tables" not in body[body.index("Campaign created") : body.index("Campaign created") + 200]
    )
    assert "The battle is being played" not in body
    assert "Waiting for players: nobody has taken a side yet" in body


# --- finding 2: set-up refused while the tables miss costs; no leak, no lost answer ---------


def test_set_up_is_refused_while_the_tables_miss_the_purchase_costs(client, user, other_user):
    c = cc_campaign_create(creator=user, name="Kurgan", template="stalingrad", creator_side=0)
    side_join(user=other_user, side=c.sides.get(order=1))
    client.force_login(other_user)
    page = client.get(c.get_absolute_url()).text
    assert "Battle 1 cannot be set up yet: the campaign tables give no cost for" in page
    answer = client.post(reverse("cc-advance", args=[c.pk]), follow=True).text
    assert "Battle 1 cannot be set up yet" in answer
    assert not c.decisions.exists()
    assert not Battle.objects.filter(campaign=c).exists()


def test_the_russian_answer_on_broken_tables_is_kept_and_reveals_nothing(
    client, kurgan, user, other_user, django_capture_on_commit_callbacks
):
    cc_advance(campaign_id=kurgan.pk, actor=user)
    client.force_login(other_user)
    decision_answer(
        decision=Decision.objects.get(campaign=kurgan, key="purchase.axis"),
        actor=user,
        answer=["Pionier"],
    )
    cc_tables_update(campaign=kurgan, actor=user, data=_without_cost(_tables(), "Pionier"))
    allies = Decision.objects.get(campaign=kurgan, key="purchase.allies")
    # the Russian answers through the page: he is told his answer is recorded, nothing else
    response = client.post(
        reverse("decision-answer", args=[kurgan.pk, allies.pk]),
        {f"d{allies.pk}-answer": ["B"]},
        follow=True,
    )
    flashes = [str(m) for m in response.context["messages"]]
    assert flashes == ["Answer recorded."]
    allies.refresh_from_db()
    assert allies.status == Decision.Status.ANSWERED and allies.answer == ["B"]
    assert_nothing_sealed_shows(russian_views(client, kurgan))
    # what everyone reads names the public pool's missing costs, never a side's choice
    kurgan.refresh_from_db()
    assert "no cost for Pionier:" in kurgan.stopped_reason
    assert "Germans" not in kurgan.stopped_reason and "chose" not in kurgan.stopped_reason
    # once the organiser fixes the tables, both kept answers are applied and revealed
    with django_capture_on_commit_callbacks(execute=True):
        cc_tables_update(campaign=kurgan, actor=user, data=_tables())
    log = client.get(reverse("campaign-log", args=[kurgan.pk])).text
    assert "Germans: Pionier; Soviets: B" in log


@pytest.mark.parametrize("template", ["normandy", "gastadores"])
def test_the_other_campaigns_battle_page_and_sheet_read_as_words(
    client, user, other_user, template
):
    c = cc_campaign_create(creator=user, name="Bocage", template=template, creator_side=0)
    side_join(user=other_user, side=c.sides.get(order=1))
    if template == "normandy":
        cc_tables_update(campaign=c, actor=user, data=NORMANDY_DATA)
        _set_up(c, user, other_user, answers={"purchase.allies": ["Krauss"]})
    client.force_login(other_user)
    page = client.get(reverse("battle-detail", args=[c.pk, 1])).text
    sheet = client.get(reverse("battle-sheet", args=[c.pk, 1])).text
    assert _vp_shown(page) == "0 (level)" or "Americans +" in page or "Germans +" in page
    for body in (page, sheet):
        assert "{'" not in body and "initiative_card" not in body
    if template == "normandy":
        assert "<h3>Americans</h3>" in sheet and "<h3>Germans</h3>" in sheet
        assert "edge of the map (compass direction" in sheet
    else:
        assert "This battle has not been set up yet." in sheet
