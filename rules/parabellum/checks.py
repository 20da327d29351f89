"""Squad-formation checks (§8.1-§8.4): each returns the violations of one rule, worded as
messages (`rules.i18n.msg`) the site shows in the reader's language."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from rules.i18n import Msg, msg, nmsg
from rules.parabellum import labels as pbl
from rules.parabellum.data import (
    EXPERIENCES,
    ROLES,
    SquadType,
    WeaponOption,
    costs,
    nation,
    raw,
    special_rule,
)
from rules.parabellum.squad import Roster, Soldier


@dataclass(frozen=True)
class Violation:
    """One broken rule; `code` plus `soldier_id` identify it across edits."""

    rule: str
    code: str
    message: str | Msg
    soldier_id: str | None = None

    @property
    def text(self) -> str:
        return f"[{self.rule}] {self.message}"

    def to_dict(self) -> dict[str, Any]:
        data = {
            "rule": self.rule,
            "code": self.code,
            "message": str(self.message),
            "soldier_id": self.soldier_id,
            "text": self.text,
        }
        if isinstance(self.message, Msg):
            data["msg"] = self.message.as_dict()
        return data


def swap_option(st: SquadType, base: str, current: str) -> WeaponOption | None:
    return next(
        (o for o in st.options if o.kind == "swap" and base in o.sources and current in o.targets),
        None,
    )


def check_ids(roster: Roster) -> list[Violation]:
    counts = Counter(s.id for s in roster.soldiers)
    return [
        Violation(
            "8",
            "duplicate_id",
            nmsg(
                "%(soldier)s is listed %(n)s time",
                "%(soldier)s is listed %(n)s times",
                c,
                soldier=pbl.soldier_name(sid),
            ),
            sid,
        )
        for sid, c in counts.items()
        if c > 1
    ]


def check_composition(roster: Roster, st: SquadType, understrength_ok: bool) -> list[Violation]:
    n = nation(st.nation)
    have = Counter(s.role for s in roster.active)
    out = []
    for role in ROLES:
        need, got = n.role_count(role), have.get(role, 0)
        if got > need or (got < need and not understrength_ok):
            out.append(
                Violation(
                    "8.1",
                    f"composition:{role}",
                    msg(
                        "the basic squad of %(nation)s has %(need)s × %(role)s (%(ref)s); "
                        "this roster fields %(got)s",
                        nation=pbl.nation_label(n.code, n.name),
                        need=need,
                        role=pbl.role_label(role),
                        ref=n.ref,
                        got=got,
                    ),
                )
            )
    return out


def check_weapons(roster: Roster, st: SquadType, s: Soldier) -> list[Violation]:
    n = nation(st.nation)
    out = []
    base = n.base_weapon(s.role)
    if s.specialist == "political_officer":
        pistol = raw()["specialists"]["political_officer"]["weapon"]
        if s.weapon != pistol:
            out.append(
                Violation(
                    "8.3.3",
                    "political_weapon",
                    msg("the political officer carries a pistol"),
                    s.id,
                )
            )
    elif s.weapon != base and not swap_option(st, base, s.weapon):
        out.append(
            Violation(
                "8.2.1",
                "swap",
                msg(
                    "%(squad)s does not let the %(soldier)s swap the %(base)s for the "
                    "%(weapon)s (%(ref)s)",
                    squad=pbl.squad_label(st.id, st.name),
                    soldier=pbl.soldier_name(s.id),
                    base=pbl.label(pbl.WEAPONS, base),
                    weapon=pbl.label(pbl.WEAPONS, s.weapon),
                    ref=st.ref,
                ),
                s.id,
            )
        )
    if len(set(s.extras)) != len(s.extras):
        out.append(Violation("8.2.1", "extras", msg("an extra weapon is listed twice"), s.id))
    for extra in s.extras:
        opt = st.option(extra)
        if not opt or opt.kind != "extra":
            out.append(
                Violation(
                    "8.2.1",
                    "extras",
                    msg(
                        "%(squad)s cannot carry the %(extra)s (%(ref)s)",
                        squad=pbl.squad_label(st.id, st.name),
                        extra=pbl.option_label(extra),
                        ref=st.ref,
                    ),
                    s.id,
                )
            )
    return out


def check_option_limits(st: SquadType, active: tuple[Soldier, ...]) -> list[Violation]:
    n = nation(st.nation)
    out = []
    for opt in st.options:
        if opt.limit is None:
            continue
        if opt.kind == "swap":
            used = sum(1 for s in active if swap_option(st, n.base_weapon(s.role), s.weapon) == opt)
        else:
            used = sum(1 for s in active if opt.id in s.extras)
        if used > opt.limit:
            out.append(
                Violation(
                    "8.2.1",
                    f"limit:{opt.id}",
                    nmsg(
                        "%(squad)s allows %(n)s soldier to take the %(option)s (%(ref)s); "
                        "this roster has %(used)s",
                        "%(squad)s allows %(n)s soldiers to take the %(option)s (%(ref)s); "
                        "this roster has %(used)s",
                        opt.limit,
                        squad=pbl.squad_label(st.id, st.name),
                        option=pbl.option_label(opt.id),
                        ref=st.ref,
                        used=used,
                    ),
                )
            )
    return out


def check_experience(st: SquadType, active: tuple[Soldier, ...]) -> list[Violation]:
    out = []
    for s in active:
        if s.experience not in EXPERIENCES:
            out.append(
                Violation(
                    "8.2.2",
                    "experience",
                    msg("unknown experience %(experience)s", experience=str(s.experience)),
                    s.id,
                )
            )
    for level, cap in (("veteran", st.veterans), ("recruit", st.recruits)):
        bought = sum(1 for s in active if s.experience == level and s.experience_source == "bought")
        if cap is not None and bought > cap:
            squad = pbl.squad_label(st.id, st.name)
            words = {"squad": squad, "ref": st.ref, "have": bought}
            if cap == 0:
                text = (
                    msg("%(squad)s offers no veterans (%(ref)s); this roster has %(have)s", **words)
                    if level == "veteran"
                    else msg(
                        "%(squad)s offers no recruits (%(ref)s); this roster has %(have)s", **words
                    )
                )
            elif level == "veteran":
                text = nmsg(
                    "%(squad)s allows at most %(n)s veteran (%(ref)s); this roster has %(have)s",
                    "%(squad)s allows at most %(n)s veterans (%(ref)s); this roster has %(have)s",
                    cap,
                    **words,
                )
            else:
                text = nmsg(
                    "%(squad)s allows at most %(n)s recruit (%(ref)s); this roster has %(have)s",
                    "%(squad)s allows at most %(n)s recruits (%(ref)s); this roster has %(have)s",
                    cap,
                    **words,
                )
            out.append(Violation("8.2.2", f"cap:{level}", text))
    return out


def check_specialists(st: SquadType, active: tuple[Soldier, ...]) -> list[Violation]:
    n = nation(st.nation)
    rules = raw()["specialist_excluded_roles"]
    specialists = [s for s in active if s.specialist]
    out = []
    limit = costs()["max_specialists"]
    if len(specialists) > limit:
        out.append(
            Violation(
                "8.2.3",
                "specialists:count",
                msg(
                    "too many specialists: %(have)s (at most %(limit)s)",
                    have=len(specialists),
                    limit=limit,
                ),
            )
        )
    for kind, c in Counter(s.specialist for s in specialists).items():
        if c > 1:
            out.append(
                Violation(
                    "8.2.3",
                    f"specialists:{kind}",
                    msg(
                        "only one %(specialist)s is allowed",
                        specialist=pbl.label(pbl.SPECIALISTS, kind),
                    ),
                )
            )
    for s in specialists:
        if s.specialist not in n.specialists:
            out.append(
                Violation(
                    "8.3",
                    "specialist_kind",
                    msg(
                        "squads of %(nation)s have no %(specialist)s (%(ref)s)",
                        nation=pbl.nation_label(n.code, n.name),
                        specialist=pbl.label(pbl.SPECIALISTS, s.specialist),
                        ref=n.ref,
                    ),
                    s.id,
                )
            )
        if s.role in rules["roles"] or s.experience in rules["excluded_experience"]:
            text = (
                msg(
                    "%(soldier)s is a recruit: only regular or veteran riflemen can become "
                    "specialists",
                    soldier=pbl.soldier_name(s.id),
                )
                if s.role not in rules["roles"]
                else msg(
                    "%(soldier)s cannot become a specialist: only riflemen can "
                    "(not the officer, the NCO or the MG team)",
                    soldier=pbl.soldier_name(s.id),
                )
            )
            out.append(Violation("8.2.3", "specialist_eligible", text, s.id))
    return out


def check_scouts(st: SquadType, roster: Roster, understrength_ok: bool) -> list[Violation]:
    scouts = [s for s in roster.active if s.scout]
    out = []
    if "scouts" not in st.special_rules:
        if scouts:
            out.append(
                Violation(
                    "10",
                    "scouts",
                    msg(
                        "only US squads have scouts, not %(squad)s",
                        squad=pbl.squad_label(st.id, st.name),
                    ),
                    scouts[0].id,
                )
            )
        return out
    rule = special_rule("scouts")
    out += [
        Violation(rule["ref"], "scout_role", msg("only riflemen can be scouts"), s.id)
        for s in scouts
        if s.role != "rifleman"
    ]
    short = len(scouts) < rule["count"] and not understrength_ok
    if len(scouts) > rule["count"] or short:
        out.append(
            Violation(
                rule["ref"],
                "scouts",
                nmsg(
                    "exactly %(n)s rifleman must be a scout; %(have)s are",
                    "exactly %(n)s riflemen must be scouts; %(have)s are",
                    rule["count"],
                    have=len(scouts),
                ),
            )
        )
    return out
