"""Combat Commander words on the site (issue 17, findings 5, 6, 8, 18 and 33).

A whole Stalingrad battle played through the services leaves a log whose engine entries
keep their message (data["msg"]), so the log page reads in Spanish for a Spanish reader,
even for entries written while the writer read English; decision prompts are stored as
messages and name the sides as the site does; every decision family has words; an option
that yields nothing says so; a seat given by the organiser is credited to him.
"""

import dataclasses

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.cc.engines import TEMPLATES
from campaigns.cc.labels import FAMILIES, OPTION_WORDS, answer_text, option_labels
from campaigns.i18n import say_entry
from campaigns.models import Battle, Decision, LogEntry
from campaigns.services.battles import battle_result_submit
from campaigns.services.campaigns import side_invite
from campaigns.services.cc_campaigns import cc_campaign_create, cc_tables_update
from campaigns.services.cc_engine import cc_advance
from tests.rules.cc.campaign_helpers import STALINGRAD_DATA
from tests.web.test_cc_campaign_flow import _answer_all

pytestmark = pytest.mark.django_db

ENGINE_KINDS = (LogEntry.Kind.RULE, LogEntry.Kind.ROLL, LogEntry.Kind.SETUP, LogEntry.Kind.RESULT)


@pytest.fixture
def kurgan(user, other_user):
    c = cc_campaign_create(creator=user, name="Kurgan", template="stalingrad", creator_side=0)
    side_invite(campaign=c, actor=user, username=other_user.username, side=c.sides.get(order=1))
    cc_tables_update(campaign=c, actor=user, data=STALINGRAD_DATA)
    return c


def _play_battle_one(c, user, other_user, capture):
    cc_advance(campaign_id=c.pk, actor=user)
    _answer_all(c, user, other_user, capture)
    battle = Battle.objects.get(campaign=c, number=1)
    with capture(execute=True):
        battle_result_submit(
            battle=battle,
            actor=user,
            winner=c.sides.get(order=0),
            details={"survivors": {"axis": [], "allies": []}},
        )
    _answer_all(c, user, other_user, capture)
    c.refresh_from_db()
    return battle


def test_a_whole_battle_logs_messages_that_read_in_spanish(
    kurgan, user, other_user, client, django_capture_on_commit_callbacks
):
    _play_battle_one(kurgan, user, other_user, django_capture_on_commit_callbacks)
    assert kurgan.state["battle"] == 2
    engine = list(kurgan.log.filter(kind__in=ENGINE_KINDS, private_to__isnull=True))
    assert len(engine) > 30
    assert [e.summary for e in engine if "msg" not in e.data] == []
    summaries = [e.summary for e in engine]
    assert "Battle 1 won by Germans." in summaries
    assert any(s.startswith("Waiting for Germans: Germans: secretly choose") for s in summaries)

    client.force_login(other_user)
    client.cookies["django_language"] = "es"
    page = client.get(reverse("campaign-log", args=[kurgan.pk]), HTTP_ACCEPT_LANGUAGE="es")
    text = page.content.decode()
    assert "Soviéticos: calidad de tropa Línea" in text
    assert "Batalla 1 ganada por Alemanes." in text
    assert "troop quality" not in text and "Waiting for" not in text
    waiting = kurgan.log.get(summary__startswith="Waiting for Germans: Germans: secretly")
    with translation.override("es"):  # written in English, read in Spanish
        assert say_entry(waiting).startswith(
            "Esperando a Alemanes: Alemanes: elegid en secreto cuántas Patrullas"
        )


def test_a_decision_prompt_is_stored_as_a_message_and_names_the_sides(
    kurgan, user, client, django_capture_on_commit_callbacks
):
    cc_advance(campaign_id=kurgan.pk, actor=user)
    axis = kurgan.decisions.get(key="purchase.axis")
    assert axis.prompt_msg["id"].startswith("%(side)s: secretly choose")
    assert axis.prompt.startswith("Germans: secretly choose")
    with translation.override("es"):
        assert axis.prompt_text.startswith("Alemanes: elegid en secreto")
    client.force_login(user)
    page = client.get(kurgan.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Alemanes: elegid en secreto" in page
    assert "German: secretly" not in page and "Russian" not in page


def test_the_answer_in_the_log_is_the_option_label_in_the_readers_language(
    kurgan, user, other_user, django_capture_on_commit_callbacks
):
    _play_battle_one(kurgan, user, other_user, django_capture_on_commit_callbacks)
    chose = kurgan.log.get(summary__startswith="Germans chose Raise your own troop quality")
    assert "raise_own" not in chose.summary
    answer = chose.data["msg"]["params"]["answer"]["msg"]["id"]
    assert answer == "Raise your own troop quality one level"
    with translation.override("es"):
        assert say_entry(chose).startswith(
            "Alemanes eligió Subir un nivel la calidad de tus tropas: Alemanes: subid"
        )


def test_every_decision_family_has_words(
    kurgan, user, other_user, django_capture_on_commit_callbacks
):
    _play_battle_one(kurgan, user, other_user, django_capture_on_commit_callbacks)
    keys = set(Decision.objects.filter(campaign=kurgan).values_list("key", flat=True))
    assert keys and {k.split(".", 1)[0] for k in keys} <= set(FAMILIES)
    for d in Decision.objects.filter(campaign=kurgan).exclude(options=[]):
        for o in option_labels(d):
            assert "_" not in o["label"], (d.key, o)


def test_an_option_that_yields_nothing_says_so_before_it_is_chosen(user, other_user):
    c = cc_campaign_create(creator=user, name="Cotentin", template="gastadores", creator_side=0)
    asked = Decision(campaign=c, key="resource_available.axis", options=[True, False])
    assert [o["label"] for o in option_labels(asked)] == [
        "Yes",
        "No — not available: you would receive nothing",
    ]
    with translation.override("es"):
        assert answer_text(asked, False) == "No — no disponible: no recibiríais nada"
    armor = Decision(campaign=c, key="us_armor", options=[True, False])
    assert [o["label"] for o in option_labels(armor)] == ["Yes", "No"]


def test_a_seat_given_by_the_organiser_is_credited_to_him(kurgan, user, other_user):
    seated = kurgan.log.get(summary__contains="seated")
    assert seated.summary == f"{user.username} seated {other_user.username} with the Soviets."
    assert seated.actor == user
    with translation.override("es"):
        assert say_entry(seated) == (
            f"{user.username} sentó a {other_user.username} con los Soviéticos."
        )
    assert not kurgan.log.filter(summary=f"{other_user.username} joined Soviets.").exists()
    own = kurgan.log.get(summary=f"{user.username} joined Germans.")
    assert own.actor == user


def test_every_campaign_option_has_words_in_both_languages(client, user):
    """The new-campaign form labels each option and says the reading it changes, in words of
    the reader's language, never the option's identifier."""
    for tpl in TEMPLATES.values():
        for f in dataclasses.fields(tpl.options_cls):
            assert f.name in OPTION_WORDS, f"{tpl.key}: {f.name} has no label"
    client.force_login(user)
    page = client.get(reverse("cc-new", args=["normandy"]), HTTP_ACCEPT_LANGUAGE="es").text
    assert "Cargas Satchel solo con blindados" in page and "Satchels with armor" not in page
    assert "Apoyo Blindado estadounidense" in page
