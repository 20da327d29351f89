"""Shared fixtures. Services are the way data is made, as in the application."""

import os

import pytest
from django.conf import settings as django_settings
from django.utils import translation
from hypothesis import settings as hypothesis_settings

from campaigns.services import campaign_create, side_join
from config.celery import app

IN_CI = bool(os.environ.get("CI"))

# Property tests check outcomes, not speed: a loaded CI machine must not fail them on time.
hypothesis_settings.register_profile("ledger", deadline=None)
hypothesis_settings.load_profile("ledger")


@pytest.fixture(scope="session", autouse=True)
def private_media(tmp_path_factory):
    """Uploads made by tests go to a temporary folder, not the project's."""
    django_settings.PRIVATE_MEDIA_ROOT = tmp_path_factory.mktemp("private-media")


@pytest.fixture(autouse=True)
def default_language():
    """A request in Spanish leaves Spanish active in the thread: each test starts in English."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def login_throttling():
    """Sign-in throttling (django-axes) is off in tests, so no test is locked out by another's
    failures and `client.login()` needs no request; tests/web/test_throttling.py overrides this
    fixture to switch it on."""
    before = django_settings.AXES_ENABLED
    django_settings.AXES_ENABLED = False
    yield
    django_settings.AXES_ENABLED = before


@pytest.fixture(autouse=True)
def eager_celery(request):
    """Tasks run in-process in tests, whatever the broker; the `worker` test uses the real one."""
    if request.node.get_closest_marker("worker"):
        yield
        return
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


@pytest.fixture
def make_user(django_user_model):
    def make(username="player", password="pw-Ledger-2026!", **extra):
        return django_user_model.objects.create_user(username=username, password=password, **extra)

    return make


@pytest.fixture
def user(make_user):
    return make_user("alice")


@pytest.fixture
def other_user(make_user):
    return make_user("bob")


@pytest.fixture
def campaign(user, other_user):
    c = campaign_create(creator=user, name="Kurgan", system="cc", side_names=["Germans", "Soviets"])
    germans, soviets = c.sides.order_by("order")
    side_join(user=user, side=germans)
    side_join(user=other_user, side=soviets)
    return c


def require_service(reason: str):
    """Skip locally when a service is absent; in CI the same absence is a failure."""
    if IN_CI:
        pytest.fail(f"CI must provide this: {reason}")
    pytest.skip(reason)
