import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_sign_up_logs_the_new_player_in(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "newbie",
            "email": "",
            "password1": "Kurgan-1942!",
            "password2": "Kurgan-1942!",
        },
        follow=True,
    )
    assert response.context["user"].username == "newbie"
    assert get_user_model().objects.filter(username="newbie").exists()
    assert "You have no campaigns yet" in response.text


def test_sign_up_with_mismatched_passwords_explains_and_creates_nothing(client):
    response = client.post(
        reverse("signup"),
        {"username": "newbie", "password1": "Kurgan-1942!", "password2": "other-1942!"},
    )
    assert response.status_code == 200
    assert "didn’t match" in response.text or "didn't match" in response.text
    assert not get_user_model().objects.filter(username="newbie").exists()


def test_log_in_and_log_out(client, user):
    response = client.post(
        reverse("login"), {"username": "alice", "password": "pw-Ledger-2026!"}, follow=True
    )
    assert response.context["user"].is_authenticated
    response = client.post(reverse("logout"), follow=True)
    assert not response.context["user"].is_authenticated


def test_wrong_password_is_refused_with_a_message(client, user):
    response = client.post(reverse("login"), {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert "correct username and password" in response.text


def test_password_change(client, user):
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": "pw-Ledger-2026!",
            "new_password1": "Stalingrad-1942!",
            "new_password2": "Stalingrad-1942!",
        },
        follow=True,
    )
    assert response.status_code == 200
    user.refresh_from_db()
    assert user.check_password("Stalingrad-1942!")


def test_switching_to_spanish_translates_the_page(client):
    response = client.post(reverse("set_language"), {"language": "es", "next": "/"}, follow=True)
    assert '<html lang="es">' in response.text
    assert "Iniciar sesión" in response.text and "Registrarse" in response.text
