"""Every message the engine stored while the demo campaigns were played has its Spanish
words in the catalogue, so a Spanish reader's log is Spanish throughout (issue 17)."""

import re

import pytest
from django.core.management import call_command
from django.utils import translation

from campaigns.models import LogEntry, SkirmishEvent

pytestmark = pytest.mark.django_db


def untranslated_messages() -> set[str]:
    """Message ids the engine stored (with their nested parameters) that have no Spanish."""
    missing: set[str] = set()

    def check(stored: dict) -> None:
        with translation.override("es"):
            if translation.gettext(stored["id"]) == stored["id"] and re.search(
                r"[A-Za-z]{3}", re.sub(r"%\(\w+\)s", "", stored["id"])
            ):
                missing.add(stored["id"])
        for value in (stored.get("params") or {}).values():
            if isinstance(value, dict) and "msg" in value:
                check(value["msg"])

    for model in (LogEntry, SkirmishEvent):
        for data in model.objects.filter(data__has_key="msg").values_list("data", flat=True):
            check(data["msg"])
    return missing


def test_every_stored_engine_message_has_its_spanish_words():
    call_command("load_demo")
    assert LogEntry.objects.filter(data__has_key="msg").exists()
    assert untranslated_messages() == set()
