"""The top of a "1936" battle page and its API answer: the turn and phase, who acts, what
the table does now, and each side's battalion morale and units, as this reader may see
them (a hidden enemy unit is only its token)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from campaigns.i18n import say
from rules.i18n import Msg, msg
from rules.m1936.morale import battalion_morale
from rules.m1936.units import UnitStatus, battalion_state
from rules.m1936.weather import SmokeOrigin

PHASES = {
    "attack": msg("Attack phase"),
    "defence": msg("Defence phase"),
    "end": msg("End of turn"),
}
NOW = {
    "attack": msg(
        "Attack phase: the attacker's units act; the defender's unmarked units may react "
        "(fire, cuerpo a tierra)"
    ),
    "defence": msg(
        "Defence phase: the defender's units act; the attacker's unmarked units may react "
        "(fire, cuerpo a tierra)"
    ),
    "end": msg(
        "End of turn: resolve assaults still in contact, each player makes the recovery "
        "of his units, check the fog-of-war tokens"
    ),
}
ROLES = {"attacker": msg("Attacker"), "defender": msg("Defender")}


def _detail(u: UnitStatus) -> str:
    parts = [say(msg("morale %(m)s/%(x)s", m=u.morale, x=u.max_morale))]
    if u.suppression:
        parts.append(say(msg("suppression %(n)s", n=u.suppression)))
    if u.kind == "vehicle":
        parts.append(say(msg("PE %(n)s/%(x)s", n=u.pe, x=u.pe_initial)))
        parts += [f.replace("_", " ") for f in u.flags]
    else:
        parts.append(say(msg("casualties %(n)s/%(x)s", n=u.casualties, x=u.casualty_capacity)))
    if u.decimated:
        parts.append(say(msg("decimated")))
    if u.prolonged:
        parts.append(say(msg("%(a)s (%(n)s turns)", a=u.prolonged, n=u.prolonged_turns_left)))
    elif u.acted:
        parts.append(say(msg("acted")))
    if u.reacted:
        parts.append(say(msg("reacted")))
    if u.prone:
        parts.append(say(msg("cuerpo a tierra")))
    if u.token is not None:
        parts.append(
            say(msg("token %(n)s", n=u.token)) + ("" if u.revealed else " " + say(msg("(hidden)")))
        )
    return ", ".join(parts)


def _unit_row(u: UnitStatus, *, own: bool) -> dict:
    if not own and not u.revealed and u.token is not None:
        return {"key": u.key, "name": say(msg("Token %(n)s", n=u.token)), "state": "", "detail": ""}
    return {"key": u.key, "name": u.name, "state": u.state, "detail": _detail(u)}


def _side(side, me, units: list[UnitStatus]) -> dict:
    own = me is not None and me.index == side.index
    row = {
        "index": side.index,
        "player": str(side.player),
        "role": say(ROLES.get(side.role, side.role)),
        "score_label": _("Battalion morale"),
        "points_label": _("Units"),
        "units": [_unit_row(u, own=own) for u in units],
    }
    if not units:
        row.update(score=_("Units not set up"), points="—")
        return row
    result = battalion_morale([battalion_state(u) for u in units])
    out = result.destroyed + result.panicked
    row["score"] = _("%(o)s of %(t)s out (broken at %(b)s)") % {
        "o": out,
        "t": result.total,
        "b": result.total // 2 + 1,
    }
    fit = sum(1 for u in units if not u.out_of_play and u.state != "Panicked")
    row["points"] = _("%(n)s fit") % {"n": fit}
    return row


def m36_summary(battle, sides, me) -> dict:
    """The state of a 1936 battle being played, for the page and the API."""
    play = battle.play or {}
    sides = sorted(sides, key=lambda s: s.index)
    units = {s.index: [UnitStatus.from_dict(v) for v in (s.units or {}).values()] for s in sides}
    set_up = all(units.values()) and "turn" in play
    phase = play.get("phase", "attack")
    attacker = next((s.index for s in sides if s.role == "attacker"), 0)
    acting = None
    if set_up and phase != "end":
        acting = attacker if phase == "attack" else 1 - attacker
    acting_player = next((str(s.player) for s in sides if s.index == acting), "")
    if not set_up:
        now = [_("Each player sets up his units: the bases of each section and the tokens.")]
    else:
        now = [say(NOW[phase])]
        initiative = play.get("initiative", {}).get(str(play.get("turn")))
        if initiative is None:
            now.append(_("Decide this turn's initiative (VI.1)."))
        else:
            first = next((str(s.player) for s in sides if s.index == initiative), "")
            now.append(_("%(p)s resolves first this turn.") % {"p": first})
        if phase == "end" and play.get("turn", 1) % 10 == 0:
            now.append(_("Turn %(t)s: roll for a weather change (XV.4).") % {"t": play["turn"]})
        now += [say(smoke_words(cloud)) for cloud in play.get("smoke", [])]
    broken = play.get("broken")
    if broken is not None:
        loser = next((str(s.player) for s in sides if s.index == broken), "")
        now = [
            _("%(p)s's battalion has broken: the battle is over (XI.7). End the battle.")
            % {"p": loser}
        ]
    return {
        "turn": play.get("turn") if set_up else None,
        "phase": say(PHASES[phase]) if set_up else _("Set-up"),
        "acting": acting,
        "acting_player": acting_player,
        "broken": broken,
        "now": now,
        "sides": [_side(s, me, units[s.index]) for s in sides],
    }


ORIGIN_WORDS = {
    SmokeOrigin.BURNING_VEHICLE: msg("burning vehicle"),
    SmokeOrigin.BOMBARDMENT: msg("bombardment"),
    SmokeOrigin.SMOKE_BOMBS: msg("smoke bombs"),
}


def smoke_words(cloud: dict) -> Msg:
    origin = ORIGIN_WORDS[SmokeOrigin(cloud["origin"])]
    if cloud["dissipate"] is None:
        return msg(
            "Smoke %(n)s (%(o)s, %(w)s): permanent", n=cloud["n"], o=origin, w=cloud["where"]
        )
    if cloud["disperse"] is not None and cloud["disperse"] > 0:
        return msg(
            "Smoke %(n)s (%(o)s, %(w)s): a screen for %(d)s more turn(s), gone in %(g)s",
            n=cloud["n"],
            o=origin,
            w=cloud["where"],
            d=cloud["disperse"],
            g=cloud["dissipate"],
        )
    return msg(
        "Smoke %(n)s (%(o)s, %(w)s): dispersed, conceals; gone in %(g)s turn(s)",
        n=cloud["n"],
        o=origin,
        w=cloud["where"],
        g=cloud["dissipate"],
    )
