"""Sign-in throttling (django-axes): 5 failures for one username from one address lock that pair
out for 15 minutes with a 429 on the login page and on the API token endpoint."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from campaigns.security import client_ip

pytestmark = pytest.mark.django_db

PASSWORD = "pw-Ledger-2026!"
TOKEN_URL = "/api/v1/auth/token/"


@pytest.fixture(autouse=True)
def login_throttling():
    """Overrides tests/conftest.py's fixture of the same name: throttling on."""
    before = settings.AXES_ENABLED
    settings.AXES_ENABLED = True
    yield
    settings.AXES_ENABLED = before


@pytest.fixture
def api():
    return APIClient()


def _page_login(client, password, username="alice", **extra):
    return client.post(reverse("login"), {"username": username, "password": password}, **extra)


def _token(api, password, username="alice", **extra):
    return api.post(TOKEN_URL, {"username": username, "password": password}, **extra)


def _expire_lockout():
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))


def test_settings_lock_a_username_and_address_pair_after_five_failures_for_15_minutes():
    assert settings.AXES_FAILURE_LIMIT == 5
    assert timedelta(minutes=15) == settings.AXES_COOLOFF_TIME
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.AXES_RESET_ON_SUCCESS is True
    assert settings.AUTHENTICATION_BACKENDS[0] == "axes.backends.AxesStandaloneBackend"


def test_login_page_locks_out_after_five_failures(client, user):
    for _ in range(4):
        response = _page_login(client, "wrong")
        assert response.status_code == 200  # the form again, with its error
    response = _page_login(client, "wrong")
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 14 * 60
    text = response.content.decode()
    assert "Too many failed sign-in attempts" in text
    assert "blocked for 15 minutes" in text and "try again after" in text
    until = (timezone.now() + timedelta(minutes=15)).strftime("%H:%M")
    earlier = (timezone.now() + timedelta(minutes=14)).strftime("%H:%M")
    assert until in text or earlier in text

    # The right password is refused too while the lockout lasts, and the session stays anonymous.
    response = _page_login(client, PASSWORD)
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    # Failures during the lockout do not extend it.
    assert AccessAttempt.objects.get().failures_since_start == 5


def test_login_page_lockout_ends_after_the_cool_off(client, user):
    for _ in range(5):
        _page_login(client, "wrong")
    assert _page_login(client, PASSWORD).status_code == 429
    _expire_lockout()
    response = _page_login(client, PASSWORD)
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(user.pk)


def test_a_successful_login_resets_the_count(client, user):
    for _ in range(4):
        _page_login(client, "wrong")
    assert _page_login(client, PASSWORD).status_code == 302
    assert not AccessAttempt.objects.exists()
    client.logout()
    for _ in range(4):
        assert _page_login(client, "wrong").status_code == 200
    assert _page_login(client, PASSWORD).status_code == 302


def test_lockout_is_per_username_and_address(client, user, other_user):
    for _ in range(5):
        _page_login(client, "wrong")
    assert _page_login(client, PASSWORD).status_code == 429
    # Another account from the same address, and the same account from another address, go on.
    assert _page_login(client, PASSWORD, username="bob").status_code == 302
    client.logout()
    response = _page_login(client, PASSWORD, REMOTE_ADDR="10.1.2.3")
    assert response.status_code == 302


def test_token_endpoint_locks_out_after_five_failures(api, user):
    for _ in range(4):
        assert _token(api, "wrong").status_code == 401  # wrong credentials
    response = _token(api, "wrong")
    assert response.status_code == 429
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert "Too many failed sign-in attempts" in body["detail"]
    assert 14 * 60 < body["retry_after"] <= 15 * 60
    assert int(response["Retry-After"]) == body["retry_after"]

    # The right password is refused during the lockout: no token is handed out.
    response = _token(api, PASSWORD)
    assert response.status_code == 429 and "token" not in response.json()
    assert not Token.objects.filter(user=user).exists()


def test_token_endpoint_lockout_ends_after_the_cool_off_and_success_resets(api, user):
    for _ in range(5):
        _token(api, "wrong")
    assert _token(api, PASSWORD).status_code == 429
    _expire_lockout()
    response = _token(api, PASSWORD)
    assert response.status_code == 200 and response.json()["token"]
    assert not AccessAttempt.objects.exists()


def test_page_and_api_failures_count_together(client, api, user):
    for _ in range(3):
        _page_login(client, "wrong")
    for _ in range(2):
        _token(api, "wrong")
    assert _page_login(client, PASSWORD).status_code == 429
    assert _token(api, PASSWORD).status_code == 429


def test_spanish_lockout_page(client, user):
    for _ in range(5):
        _page_login(client, "wrong", HTTP_ACCEPT_LANGUAGE="es")
    response = _page_login(client, "wrong", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 429
    assert 'lang="es"' in response.content.decode()


def test_client_address_behind_a_proxy(settings, rf):
    request = rf.get("/", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9", REMOTE_ADDR="127.0.0.1")
    settings.PROXY_COUNT = 0
    assert client_ip(request) == "127.0.0.1"
    settings.PROXY_COUNT = 1
    assert client_ip(request) == "203.0.113.9"  # what nginx appended, not what the client sent
    assert client_ip(rf.get("/", REMOTE_ADDR="127.0.0.1")) == "127.0.0.1"
