"""What a battle action is: the service it calls and how a form's data become its arguments,
with the builders of its bound form. The pages (battle_actions) and the REST API
(campaigns/api/rosters) run every action from the same table."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.ids import as_id
from campaigns.permissions import player_side
from campaigns.rosters import forms as rf
from campaigns.services import skirmish as sk
from campaigns.views.rosters.choices import soldier_choices, unit_labels


def dice_of(data):
    return sk.dice_from(data["dice_mode"], data.get("dice") or "")


def engine_params(form) -> dict:
    return {k: form.cleaned_data.get(k) for k in form.ENGINE}


def builder(cls, build):
    """A form builder that remembers its form class (the API documents its fields)."""
    build.form_class = cls
    return build


def plain(cls):
    return builder(cls, lambda request, battle, post: cls(post))


def with_sides(cls):
    return builder(cls, lambda request, battle, post: cls(post, sides=list(battle.sides.all())))


def with_soldiers(cls):
    def build(request, battle, post):
        form = cls(post)
        form.set_soldiers(soldier_choices(list(battle.sides.all())))
        return form

    return builder(cls, build)


def with_units(cls):
    def build(request, battle, post):
        me = player_side(request.user, battle)
        return cls(post, units=unit_labels(me.snapshot if me else {}))

    return builder(cls, build)


def with_battle(cls):
    """A form that reads the battle and the user's side (the in-battle procedures)."""
    return builder(
        cls,
        lambda request, battle, post: cls(
            post, battle=battle, me=player_side(request.user, battle)
        ),
    )


def _tie(request, battle, post):
    pending = (battle.scenario or {}).get("pending") or {"options": []}
    return rf.TieForm(post, options=[tuple(o) for o in pending["options"]])


tie_form = builder(rf.TieForm, _tie)


def correction_id(post) -> dict:
    correction_id = as_id(post.get("correction", ""))
    if correction_id is None:
        raise ValidationError(_("That proposal is no longer pending: reload the page."))
    return {"correction_id": correction_id}


@dataclass(frozen=True)
class Action:
    """A battle action: the service it calls and how the form's data become its arguments.

    `form` builds the bound form (None: the action has none); `fields` are the cleaned fields
    passed on by name (None: all of them); `dice` adds the dice chosen on the form; `extra`
    adds arguments computed from the form (or from the post, without a form). The service's
    errors go next to the form's fields, or above the actions when `field_errors` is off."""

    service: Callable[..., Any]
    form: Callable[..., Any] | None = None
    fields: tuple[str, ...] | None = None
    dice: bool = False
    extra: Callable[[Any], dict] | None = None
    field_errors: bool = True

    def arguments(self, form, post) -> dict:
        if form is None:
            return self.extra(post) if self.extra else {}
        d = form.cleaned_data
        kwargs = dict(d) if self.fields is None else {k: d[k] for k in self.fields}
        if self.dice:
            kwargs["dice"] = dice_of(d)
        if self.extra:
            kwargs.update(self.extra(form))
        return kwargs
