"""Issue 17, finding 10: every TCS page of an operation fits a 390 px phone, in English and
Spanish (no sideways scroll of the page; wide blocks scroll inside their own box)."""

import pytest
from django.core.management import call_command
from django.urls import reverse

from campaigns.models import Campaign
from campaigns.services.tcs import (
    tcs_operation_start,
    tcs_phase_open,
    tcs_sheet_draw,
)
from tests.web.test_tcs_pages import GERMAN_REGIMENT, make_operation, with_oob
from tests.web.upload_helpers import png_upload

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "Hill-110-1944!"


@pytest.fixture
def pages(django_user_model):
    call_command("load_demo")  # the demo operation (public) is checked too
    demo = Campaign.objects.get(name="Operation Goodwood: the left flank")
    hans = django_user_model.objects.create_user("hans", password=PASSWORD)
    joe = django_user_model.objects.create_user("joe", password=PASSWORD)
    op, germans, americans = make_operation(hans, joe)
    with_oob(op, germans, americans, (hans, joe))
    set_up = tcs_sheet_draw(
        side=germans,
        actor=hans,
        code="Hill-110-North",
        missions=dict.fromkeys(GERMAN_REGIMENT[:3], "prepared_defense"),
        graphic=png_upload("plan.png"),
    )
    tcs_operation_start(campaign=op, actor=hans)
    tcs_sheet_draw(
        side=germans,
        actor=hans,
        code="Regt",
        missions=dict.fromkeys(GERMAN_REGIMENT[3:], "attack"),
    )
    tcs_phase_open(side=germans, actor=hans)
    urls = [
        reverse("tcs-operation", args=[demo.pk]),
        reverse("tcs-timeline", args=[demo.pk]),
        reverse("tcs-operation", args=[op.pk]),
        reverse("tcs-side", args=[op.pk, germans.pk]),
        reverse("tcs-sheet-new", args=[op.pk, germans.pk]),
        reverse("tcs-command", args=[op.pk, germans.pk]),
        reverse("tcs-sheet", args=[op.pk, set_up.pk]),
        reverse("tcs-sheet-edit", args=[op.pk, set_up.pk]),
        reverse("tcs-sheet-units", args=[op.pk, set_up.pk]),
        reverse("tcs-timeline", args=[op.pk]),
        reverse("tcs-readings", args=[op.pk]),
        reverse("tcs-decisions", args=[op.pk]),
        reverse("tcs-end", args=[op.pk]),
        reverse("tcs-new"),
    ]
    return urls


@pytest.mark.parametrize("language", ["en", "es"])
def test_f10_every_tcs_page_fits_390_px(browser, live_server, pages, language):
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 390, "height": 844},
        locale="es-ES" if language == "es" else "en-GB",
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto("/accounts/login/")
        page.locator("#id_username").fill("hans")
        page.locator("#id_password").fill(PASSWORD)
        page.locator("form button[type=submit]").last.click()
        page.wait_for_load_state()
        too_wide = {}
        for url in pages:
            response = page.goto(url)
            assert response.status == 200, url
            assert page.locator("html").get_attribute("lang") == language
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > 390:
                widest = page.evaluate(
                    """() => [...document.querySelectorAll('body *')]
                        .filter(e => e.getBoundingClientRect().right > 391)
                        .slice(-3).map(e => e.tagName + '.' + e.className).join(' | ')"""
                )
                too_wide[url] = (width, widest)
        assert too_wide == {}
    finally:
        context.close()
