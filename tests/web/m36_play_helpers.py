"""A small "1936" battle for the in-battle tests: alice attacks with Nacionales, bob defends
with Republicanos; `act` posts one action through the REST API."""

from campaigns.models import SkirmishBattle, SkirmishSide
from tests.web.roster_helpers import m1936_battle

# attacker (side 0): 1 line section, 2 Oficial, 3 Panzer I, 4 Schneider 75 (Bombardeo(4))
ATTACKER = ("Sección Infantería de Línea", "Oficial", "Panzer I Ausf A/B", "Schneider 75mm 1900")
# defender (side 1): 1 line section, 2 T-26 B, 3 Oficial, 4 Zapadores (Explosivos)
DEFENDER = ("Sección Infantería de Línea", "T-26 B", "Oficial", "Sección de Zapadores")


def act(client, battle, name, data=None):
    return client.post(
        f"/api/v1/skirmishes/{battle.pk}/actions/{name}/",
        data or {},
        content_type="application/json",
    )


def new_battle(alice, bob) -> SkirmishBattle:
    return m1936_battle(alice, bob, ATTACKER, DEFENDER)


def set_up(client, battle, alice, bob, *, bob_tokens="", bob_decoys=""):
    """Both sides set up: 3 bases per section (the line sections, the gun crew of 2)."""
    client.force_login(alice)
    r = act(client, battle, "m36setup", {"bases": "1: 3, 4: 2"})
    assert r.status_code == 200, r.json()
    client.force_login(bob)
    r = act(
        client,
        battle,
        "m36setup",
        {"bases": "1: 3, 4: 3", "tokens": bob_tokens, "decoys": bob_decoys},
    )
    assert r.status_code == 200, r.json()


def units(battle, index) -> dict:
    return SkirmishSide.objects.get(battle=battle, index=index).units


def fire(client, battle, **data):
    body = {"band": "corta", "bases": 3, "performance": 0, "in_command": True, **data}
    return act(client, battle, "m36fire", body)


def odds(client, battle, name, data) -> list[tuple[str, str]]:
    """The preview lines of `POST …/odds/<name>/` (the exact odds before rolling)."""
    r = client.post(
        f"/api/v1/skirmishes/{battle.pk}/odds/{name}/", data, content_type="application/json"
    )
    assert r.status_code == 200, r.json()
    return [(line["label"], line["value"]) for line in r.json()["lines"]]
