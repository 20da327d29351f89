"""Sign up, log in, switch to Spanish and see the page translated, log out."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_sign_up_log_in_spanish_log_out(page):
    page.goto("/")
    page.get_by_role("link", name="Sign up").first.click()
    page.locator("#id_username").fill("rommel")
    page.locator("#id_password1").fill("Afrika-Korps-1941")
    page.locator("#id_password2").fill("Afrika-Korps-1941")
    page.get_by_role("button", name="Create account").click()
    page.get_by_role("heading", name="You have no campaigns yet").wait_for()

    page.get_by_role("button", name="Log out rommel").click()
    page.get_by_role("link", name="Log in").first.click()
    page.locator("#id_username").fill("rommel")
    page.locator("#id_password").fill("Afrika-Korps-1941")
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("heading", name="My campaigns").wait_for()

    page.get_by_label("Language").select_option("es")  # submitted on change (finding 33)
    page.get_by_role("heading", name="Mis campañas").wait_for()
    assert page.locator("html").get_attribute("lang") == "es"
    assert page.get_by_role("heading", name="Aún no tienes campañas").is_visible()

    page.get_by_role("button", name="Cerrar sesión de rommel").click()
    page.get_by_role("link", name="Iniciar sesión").first.wait_for()
    assert page.get_by_role("link", name="Registrarse").first.is_visible()


def test_keyboard_users_can_skip_to_content(page):
    page.goto("/")
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to content")
    assert skip.evaluate("el => el === document.activeElement")
    assert skip.bounding_box()["x"] >= 0
