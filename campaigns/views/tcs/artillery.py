"""One side's artillery page (phone first): its batteries and ammunition record [18.2]
(private to the side [1.5]), a mission in the Air & Artillery Phase [18.4–18.7], the barrage
attack on a hex [18.3, 18.9], and the operation's public Smoke and Illum markers [19, 26.2]
with the Clean-up Phase and the Action Phase removals.

Mortar and IG rounds [24.3.c, 24.5.a], deleting a battery (confirmed) and removing a marker
by hand (a correction with its reason) are cards too.

Each card posts on its own (htmx swaps the panel, the result where the button was); without
JavaScript the page reloads with the result on top. Only the side and a neutral game master
see the page."""

from __future__ import annotations

from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.idempotency import idempotent_form
from campaigns.selectors.tcs_artillery import (
    adjustment_table,
    ammo_record,
    missions,
    missions_this_turn,
)
from campaigns.services import tcs as svc
from campaigns.tcs import forms as tf
from campaigns.tcs.combat_words import marker_rows, mission_text, mortar_text, result_text
from campaigns.tcs.state import current_turn
from campaigns.views.tcs.common import (
    card_done,
    card_request,
    render_card_page,
    run_card,
)
from rules.tcs.ammo import AMMO_WORDS

CARDS = (
    "battery",
    "stock",
    "mission",
    "attack",
    "clean_up",
    "action_phase",
    "delete_battery",
    "remove_marker",
    "mortar",
)


def _forms(campaign, side, record, data=None, bound=""):
    def d(name):
        return data if bound == name else None

    return {
        "battery": tf.BatteryForm(d("battery"), prefix="battery"),
        "stock": tf.StockForm(d("stock"), prefix="stock"),
        "mission": tf.MissionForm(record.batteries, d("mission"), prefix="mission"),
        "attack": tf.AttackForm(missions_this_turn(campaign, side), d("attack"), prefix="attack"),
        "delete_battery": tf.BatteryDeleteForm(
            record.batteries, d("delete_battery"), prefix="delete_battery"
        ),
        "remove_marker": tf.MarkerRemoveForm(
            marker_rows(campaign), d("remove_marker"), prefix="remove_marker"
        ),
        "mortar": tf.MortarRoundForm(d("mortar"), prefix="mortar"),
    }


def _run(action, form, campaign, side, user):
    d = form.cleaned_data if form is not None else {}
    if action == "battery":
        svc.tcs_artillery_battery_save(
            side=side, actor=user, battery=form.battery(), original=d.get("original") or None
        )
        return _("Battery saved.")
    if action == "stock":
        svc.tcs_artillery_stock_set(
            side=side,
            actor=user,
            ammo_type=d["type"],
            calibre=d["calibre"].strip(),
            volleys=d["volleys"],
            legacy=bool(d.get("legacy")),
        )
        return _("Ammunition record saved.")
    if action == "mission":
        c = svc.tcs_artillery_mission(
            side=side, actor=user, order=d["order"], rolls=d["rolls_list"]
        )
        return _("Mission fired: %(r)s") % {"r": mission_text(c)}
    if action == "attack":
        c = svc.tcs_artillery_attack(side=side, actor=user, order=d["order"], rolls=d["rolls_list"])
        return _("Barrage resolved: %(r)s") % {"r": result_text(c)}
    if action == "delete_battery":
        svc.tcs_artillery_battery_delete(side=side, actor=user, name=d["name"])
        return _("Battery deleted.")
    if action == "remove_marker":
        svc.tcs_marker_remove(
            side=side, actor=user, index=d["index"], hex_=d["hex"], reason=d["reason"]
        )
        return _("Marker removed.")
    if action == "mortar":
        placed = svc.tcs_mortar_round(
            side=side, actor=user, order=d["order"], rolls=d["rolls_list"]
        )
        return mortar_text(d["order"], placed)
    if action == "clean_up":
        svc.tcs_markers_clean_up(campaign=campaign, actor=user)
        return _("Clean-up Phase: markers removed and flipped [19.2, 26.2.c].")
    svc.tcs_markers_action_phase(side=side, actor=user)
    return _("Your mortar and IG markers are removed [19.2].")


@idempotent_form
def tcs_artillery(request, pk: int, side_pk: int):
    campaign, _viewer, side, can_act, action = card_request(request, pk, side_pk, CARDS)
    turn = current_turn(campaign).number
    record = ammo_record(side, turn)
    forms = _forms(campaign, side, record, request.POST, action)
    done = None
    if action:
        form = forms.get(action)
        done = run_card(request, form, lambda: _run(action, form, campaign, side, request.user))
        if response := card_done(request, done, "tcs-artillery", pk, side_pk):
            return response
        if done:
            campaign.refresh_from_db()
            record = ammo_record(side, turn)
            forms = _forms(campaign, side, record)
    context = {
        "campaign": campaign,
        "side": side,
        "can_act": can_act,
        "forms": forms,
        "record": record,
        "stocks": [(say(AMMO_WORDS[s.type]), s) for s in record.stocks],
        "missions": missions(side),
        "markers": marker_rows(campaign),
        "has_table": adjustment_table(campaign) is not None,
        "done": done,
        "card": action,
    }
    return render_card_page(request, "tcs/artillery.html", context, action)
