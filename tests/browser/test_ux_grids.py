"""Issue 17, item 4: the chart grids (TCS Command Prep Table, 1936 Costa / Ciudad sector
table) on a 390 px phone: the page never scrolls sideways, a wide grid scrolls inside its own
box, every input is at least 44 px tall, and a bad cell's message shows next to it."""

import pytest
from django.urls import reverse

from tests.web.roster_helpers import m1936_battle
from tests.web.test_tcs_pages import make_operation, with_oob

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "Hill-110-1944!"

FITS = """() => ({
    page: document.documentElement.scrollWidth,
    boxes: [...document.querySelectorAll('.grid-scroll')].filter(b => b.offsetParent)
        .map(b => [b.scrollWidth, b.clientWidth]),
    low: [...document.querySelectorAll('.grid-field input')].filter(i => i.offsetParent)
        .filter(i => i.getBoundingClientRect().height < 44).map(i => i.name),
})"""


@pytest.fixture
def phone(browser, live_server, django_user_model):
    hans = django_user_model.objects.create_user("hans", password=PASSWORD)
    joe = django_user_model.objects.create_user("joe", password=PASSWORD)
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 390, "height": 844}, locale="en-GB"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto("/accounts/login/")
    page.locator("#id_username").fill("hans")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("form button[type=submit]").last.click()
    page.wait_for_load_state()
    yield page, hans, joe
    context.close()


def test_tcs_prep_grid_fits_a_phone_and_names_a_bad_cell(phone):
    page, hans, joe = phone
    op, germans, americans = make_operation(hans, joe)
    with_oob(op, germans, americans, (hans, joe))
    page.goto(reverse("tcs-side", args=[op.pk, germans.pk]))
    assert page.locator("details.grid-table").first.get_attribute("open") is not None
    page.locator("summary", has_text="Attack").click()  # a blank table starts closed
    page.locator("[name='settings-prep_table-attack-c0']").fill("0")
    page.locator("[name='settings-prep_table-attack-c4']").fill("28")
    page.locator("[name='settings-prep_table-attack-r0']").fill("5")
    page.locator("[name='settings-prep_table-attack-0-0']").fill("61")
    page.locator("[name='settings-prep_table-attack-0-4']").fill("99")
    page.locator("form:has([name='settings-prep_table'])").get_by_role(
        "button", name="Save", exact=True
    ).click()
    page.wait_for_load_state()
    bad = page.locator("[name='settings-prep_table-attack-0-4']")
    assert bad.get_attribute("aria-invalid") == "true"
    message = page.locator(f"#{bad.get_attribute('aria-describedby')}")
    assert "Attack: Rating + size 5, Weighted turns 28: a whole number from 11 to 66" in (
        message.inner_text()
    )
    fits = page.evaluate(FITS)
    assert fits["page"] <= 390 and fits["low"] == []
    assert any(wide > shown for wide, shown in fits["boxes"])  # it scrolls in its own box
    # Enter in a cell saves (it does not press "More rows")
    bad.fill("55")
    bad.press("Enter")
    page.wait_for_load_state()
    assert page.locator(".messages").inner_text().strip().startswith("Command Prep settings saved")


def test_1936_sector_grid_fits_a_phone(phone):
    page, hans, joe = phone
    battle = m1936_battle(hans, joe, ("Oficial",))
    page.goto(reverse("skirmish-detail", args=[battle.pk]))
    page.locator("#action-scenario > summary").click()
    page.locator("[name='user_table-s1-name']").fill("Sector de Playa")
    page.locator("[name='user_table-s1-0-0']").fill("x")
    assert page.locator("[name='user_table-s1-0-0']").get_attribute("inputmode") == "numeric"
    fits = page.evaluate(FITS)
    assert fits["page"] <= 390 and fits["low"] == [] and fits["boxes"]
