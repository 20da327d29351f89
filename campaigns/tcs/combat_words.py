"""A procedure of the turn in a reader's words: its title and its result, for the resolve,
artillery, minefield and assault pages, the "Latest" lists and the API (`result_words`)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.models.tcs import TcsCombat
from campaigns.selectors.tcs_artillery import markers
from rules.i18n import msg
from rules.tcs.artillery import SHOOT_WORDS, Shoot
from rules.tcs.fire_tables import MORALE_CHECK, NO_EFFECT
from rules.tcs.smoke import MarkerKind, Source

COMBAT_TITLES = {
    "area_fire": msg("Area fire"),
    "point_fire": msg("Point fire"),
    "at_rolls": msg("AT rolls"),
    "artillery": msg("Artillery barrage"),
    "artillery_mission": msg("Artillery mission"),
    "morale_check": msg("Morale check"),
    "recovery": msg("Recovery"),
    "minefield": msg("Minefield attack"),
    "breach": msg("Minefield breach"),
    "assault": msg("Assault"),
    "overrun": msg("Overrun"),
}
FIRE_RESULTS = ("area_fire", "point_fire", "at_rolls", "artillery")


def combat_title(combat: TcsCombat) -> str:
    return say(COMBAT_TITLES.get(combat.kind, msg("Procedure")))


def combat_result(combat: TcsCombat) -> str:
    """The result in words, by kind of procedure."""
    if combat.kind in FIRE_RESULTS:
        return result_text(combat)
    if combat.kind == "morale_check":
        return combat.result.get("result_words", "")
    if combat.kind in ("minefield", "breach"):
        return minefield_text(combat)
    if combat.kind == "artillery_mission":
        return mission_text(combat)
    if combat.kind in ("assault", "overrun"):
        return _("under way") if combat.status == TcsCombat.Status.OPEN else _("over")
    return say(msg("one level recovered"))


def result_text(combat: TcsCombat) -> str:
    """The result in words, for pages and the owner's panel."""
    r = combat.result
    if combat.kind == "at_rolls":
        return _("%(k)s target step(s) destroyed; %(a)s attacking step(s) lost") % {
            "k": r.get("kills", 0),
            "a": r.get("attacker_losses", 0),
        }
    if r.get("cell") in (NO_EFFECT, None):
        return _("No Effect")
    if r.get("cell") == MORALE_CHECK:
        return _("Morale Check")
    return say(r.get("words"))


def minefield_text(combat) -> str:
    r = combat.result
    if not r.get("attacked"):
        text = _("No attack (breach or not entering); +2 MP [21.2].")
    else:
        parts = []
        if r.get("words") is not None:
            parts.append(_("on foot: %(r)s") % {"r": say(r["words"])})
        for unit, n in (r.get("vehicle_losses") or {}).items():
            parts.append(_("%(u)s loses %(n)s vehicle step(s)") % {"u": unit, "n": n})
        text = "; ".join(parts) or _("No Effect")
    if combat.kind == "breach":
        made = _("breach made") if r.get("made") else _("no breach")
        text = f"{text} — {made}"
    check = (combat.applied or {}).get("check")
    if check:
        text = _("%(t)s; morale check: %(r)s") % {"t": text, "r": check["result_words"]}
    return text


def mission_text(combat) -> str:
    r = combat.result
    if r.get("refund"):
        return _("No Shoot: the volleys are returned [18.7.b].")
    shown = say(SHOOT_WORDS[Shoot(r["shoot"])]) if r.get("shoot") else _("Illumination")
    return _("%(r)s on %(hex)s.") % {"r": shown, "hex": r.get("hex", "")}


def mortar_text(order, placed: bool) -> str:
    if not placed:
        return _("No smoke [24.3.c].")
    if order.kind is MarkerKind.ILLUM:
        return _("Illum placed in %(hex)s [26.2.b].") % {"hex": order.hex}
    return _("Smoke placed in %(hex)s only [19.3.c].") % {"hex": order.hex}


def marker_rows(campaign) -> list[dict]:
    words = {MarkerKind.SMOKE: _("Smoke"), MarkerKind.ILLUM: _("Illum")}
    source = {Source.ARTILLERY: _("artillery"), Source.MORTAR_IG: _("mortar or IG")}
    sides = {str(s.pk): s.name for s in campaign.sides.all()}
    return [
        {
            "kind": words[m.kind],
            "hex": m.hex,
            "level": m.level if m.kind is MarkerKind.SMOKE else "",
            "radius": m.radius or "",
            "source": source[m.source],
            "owner": sides.get(m.owner, m.owner),
        }
        for m in markers(campaign).markers
    ]
