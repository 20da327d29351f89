"""A Parabellum battle for the turn-flow tests: Germans (user, attacker, a medic) against
Americans (other_user, defender), simple mode, both joined; actions posted as the page does."""

from django.urls import reverse

from campaigns.models import SkirmishBattle
from campaigns.services.rosters import roster_create, roster_edit
from campaigns.services.skirmish import skirmish_create, skirmish_join


def pb_battle(
    user, other_user, *, home="GER/grenadier", away="USA/rifleman", medic=True, mode="simple"
):
    ger = roster_create(owner=user, system="parabellum", name="Grenadiers", squad_type=home)
    if medic:
        ger = roster_edit(
            roster=ger,
            actor=user,
            edit={"soldier_id": "rifleman-4", "field": "specialist", "value": "medic"},
        )
    usa = roster_create(owner=other_user, system="parabellum", name="Easy", squad_type=away)
    battle = skirmish_create(
        creator=user, roster=ger, role="attacker", opponent=other_user, mode=mode
    )
    skirmish_join(battle=battle, actor=other_user, roster=usa)
    return SkirmishBattle.objects.get(pk=battle.pk)


def post(client, battle, name, data=None):
    return client.post(reverse("skirmish-action", args=[battle.pk, name]), data or {})


def api(client, battle, name, body=None):
    return client.post(
        f"/api/v1/skirmishes/{battle.pk}/actions/{name}/",
        body or {},
        content_type="application/json",
    )


class Table:
    """Two logged-in clients acting in turn (the page's posts)."""

    def __init__(self, client_a, client_b, battle):
        self.clients = (client_a, client_b)
        self.battle = battle

    def do(self, who: int, name: str, data=None, status=302):
        response = post(self.clients[who], self.battle, name, data)
        assert response.status_code == status, (name, response.status_code, _errors(response))
        self.battle.refresh_from_db()
        return response

    def to_activations(self, turn=1, blue=(4, 3), first=0):
        """Tactical phase recorded, reinforcements passed, `first` plays the activations first."""
        holder = 0 if blue[0] > blue[1] else 1
        self.do(0, "tactical", {"turn": turn, "blue_0": blue[0], "blue_1": blue[1]})
        self.do(holder, "pb_first", {"first": first})
        self.do(first, "pb_finish")
        self.do(1 - first, "pb_finish")
        self.do(holder, "pb_first", {"first": first})


def _errors(response):
    ctx = getattr(response, "context", None)
    if not ctx or "forms" not in ctx:
        return response.content[:300]
    return {k: f.errors for k, f in ctx["forms"].items() if f is not None and f.errors}
