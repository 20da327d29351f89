"""The main pages work in a real browser under the Content-Security-Policy: htmx actions swap
in place, confirmations ask, and Chromium reports no CSP violation (nor any other console
error) on the home page, a Combat Commander campaign, a roster builder, a skirmish battle and
the API docs."""

import pytest
from playwright.sync_api import expect

from campaigns.services import side_join
from campaigns.services.cc_campaigns import cc_campaign_create, cc_tables_update
from campaigns.services.rosters import roster_create
from campaigns.services.skirmish import skirmish_create, skirmish_join
from tests.browser.test_roster_builder import SETTLED
from tests.rules.cc.campaign_helpers import STALINGRAD_DATA

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "Kurgan-1942!"


@pytest.fixture
def players(django_user_model):
    hans = django_user_model.objects.create_user("hans", password=PASSWORD)
    ivan = django_user_model.objects.create_user("ivan", password=PASSWORD)
    return hans, ivan


@pytest.fixture
def kurgan(players):
    hans, ivan = players
    c = cc_campaign_create(creator=hans, name="Kurgan", template="stalingrad", creator_side=0)
    side_join(user=ivan, side=c.sides.get(order=1))
    cc_tables_update(campaign=c, actor=hans, data=STALINGRAD_DATA)
    return c


@pytest.fixture
def skirmish(players):
    hans, ivan = players
    ger = roster_create(owner=hans, system="parabellum", name="Gren", squad_type="GER/grenadier")
    usa = roster_create(owner=ivan, system="parabellum", name="Easy", squad_type="USA/rifleman")
    battle = skirmish_create(
        creator=hans, roster=ger, role="attacker", opponent=ivan, mode="simple"
    )
    skirmish_join(battle=battle, actor=ivan, roster=usa)
    return battle


@pytest.fixture
def console(page):
    """Console errors and uncaught exceptions of the page; CSP violations are console errors."""
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
    return errors


def _csp(response):
    return response.headers["content-security-policy"]


def _log_in(page):
    page.goto("/accounts/login/")
    page.locator("#id_username").fill("hans")
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("heading", name="My campaigns").wait_for()


def test_main_pages_work_under_the_csp(page, console, kurgan, skirmish):
    _log_in(page)
    response = page.goto("/")
    assert "script-src 'self'" in _csp(response) and "unsafe" not in _csp(response)
    page.get_by_role("link", name="Kurgan").wait_for()

    # A Combat Commander campaign: set up a battle, answer a sealed choice (htmx forms).
    page.get_by_role("link", name="Kurgan").click()
    page.get_by_role("button", name="Set up battle 1").click()
    card = page.locator("article.decision", has_text="Germans: secretly choose")
    card.get_by_label("Pionier").check()
    card.get_by_role("button", name="Submit").click()
    page.get_by_text("Answer recorded.").wait_for()
    assert page.get_by_text("Your sealed choice: Pionier").is_visible()

    # A roster builder: each select change is saved and the panel swapped by htmx.
    page.goto("/rosters/new/")
    page.locator("#id_system").select_option("parabellum")
    page.locator("#id_name").fill("Kampfgruppe Peiper")
    page.locator("#id_squad_type").select_option("GER/grenadier")
    page.get_by_role("button", name="Create").click()
    page.get_by_role("heading", name="Kampfgruppe Peiper").wait_for()
    panel = page.locator("#validation")
    expect(panel).to_contain_text("PM left: 10 of 10")
    page.wait_for_function(SETTLED)
    page.locator("#officer-weapon").select_option("assault_rifle")
    expect(panel).to_contain_text("PM left: 9.5 of 10")

    # A skirmish battle: an action answers in place; a refused one shows its errors (the 400
    # swap in static/js/ledger.js); "End the battle" asks first and a "no" sends nothing.
    page.goto(skirmish.get_absolute_url())
    tactical = page.locator("#action-tactical")
    tactical.locator("summary").click()
    tactical.get_by_label("Blue tokens hans showed").fill("4")
    tactical.get_by_label("Blue tokens ivan showed").fill("4")
    tactical.get_by_role("button", name="Record the tokens").click()
    expect(page.locator("#battle-log")).to_contain_text("initiative hans; PO +2 / +2")
    page.wait_for_function(SETTLED)
    shoot = page.locator("#action-shoot")
    shoot.locator("summary").click()
    shoot.get_by_label("Shooter").select_option("0:rifleman-1")
    shoot.locator("select[name=target]").select_option("1:rifleman-3")
    shoot.get_by_label("Distance (cm)").fill("30")
    shoot.get_by_label("Target cover").select_option("heavy")
    shoot.locator("select[name=dice_mode]").select_option("entered")
    shoot.get_by_label("Rolls from the table, in order").fill("14; 10")
    shoot.get_by_role("button", name="Roll the shot").click()
    expect(page.locator("#action-shoot")).to_contain_text("enter the three dice")

    page.wait_for_function(SETTLED)
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.get_by_role("button", name="End the battle and score it").click()
    expect(page.locator("#battle-log")).not_to_contain_text("wins")
    assert asked == ["End the battle and score it?"]
    page.wait_for_timeout(300)
    skirmish.refresh_from_db()
    assert skirmish.status == "playing"

    assert [e for e in console if "Content Security Policy" in e] == []
    # Other errors neither: the refused shot's 400 and the missing favicon are only logged loads.
    assert [e for e in console if not e.startswith("Failed to load resource")] == []


def test_api_docs_work_under_their_own_csp(page, console):
    response = page.goto("/api/docs/")
    assert "style-src 'self' 'unsafe-inline'" in _csp(response)
    assert "script-src 'self';" in _csp(response) + ";"
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Campaign Ledger API")
    page.locator(".opblock").first.wait_for()
    assert [e for e in console if "Content Security Policy" in e] == []
