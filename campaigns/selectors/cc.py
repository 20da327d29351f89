"""Combat Commander dashboard: what a campaign page shows, read from the engine state.

The engine state also holds private data (a sealed answer waiting for its sibling sits in
`pending`); nothing here reads `pending`, so the dashboard never leaks it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.cc.engines import CCTemplate, template_for
from campaigns.cc.labels import example_words, side_word, victory_short
from campaigns.cc.track_svg import track_svg
from campaigns.i18n import say
from campaigns.models import Battle, Campaign, Decision
from campaigns.paging import Window as Page
from campaigns.permissions import Viewer
from campaigns.selectors.cc_battle import QUALITIES
from campaigns.selectors.history import battles_window
from campaigns.services.cc_engine import can_answer
from rules.cc.campaign import Phase, Pool
from rules.cc.campaign_tables import gaps
from rules.cc.common import Faction


@dataclass
class SideView:
    name: str
    faction: str
    quality: str
    wins: int
    quality_label: str = ""
    lists: list[tuple[str, list[str]]] = field(default_factory=list)


@dataclass
class Dashboard:
    template: CCTemplate
    phase: str
    battle_number: int
    position: str
    sides: list[SideView]
    pools: list[Pool]
    battles: Page
    decisions: list[tuple[Decision, bool]]
    waiting_for: str
    track: str
    victory: str | None
    current_battle: Battle | None
    missing_values: int
    tables_note: str
    setup_refusal: str = ""


LISTS = {
    "pool": gettext_lazy("Regimental pool"),
    "regimental": gettext_lazy("Regimental pool"),
    "divisional": gettext_lazy("Divisional reserves"),
    "exhausted": gettext_lazy("Exhausted"),
    "resources": gettext_lazy("Resources"),
}


def cc_dashboard(
    campaign: Campaign, viewer: Viewer, *, battles_cursor: str | None = None
) -> Dashboard:
    """Everything the campaign page shows (3 queries beyond the campaign and its sides); the
    battles a window at a time, latest first."""
    tpl = template_for(campaign.template)
    state = tpl.read(campaign)
    sides = {s.faction: s for s in campaign.sides.annotate(seated=Count("seats"))}
    battles = battles_window(campaign, cursor=battles_cursor)
    decisions = list(
        campaign.decisions.filter(status=Decision.Status.OPEN).select_related("chooser")
    )
    wins = {f: 0 for f in Faction}
    for record in getattr(state, "battles", None) or getattr(state, "results", []):
        if record.winner is not None:
            wins[record.winner] += 1
    quality = getattr(state, "quality", {})
    side_views = []
    for name, faction in tpl.sides:
        view = SideView(
            name=sides[faction.value].name if faction.value in sides else name,
            faction=faction.value,
            quality=quality[faction].value if faction in quality else "",
            wins=wins[faction],
        )
        view.quality_label = str(QUALITIES.get(view.quality, view.quality))
        for attr, label in LISTS.items():
            value = getattr(state, attr, None)
            if isinstance(value, dict) and faction in value:
                view.lists.append((label, list(value[faction])))
        reinforcements = getattr(state, "reinforcements", {}).get(faction)
        if reinforcements is not None:
            view.lists.append((_("Reinforcements"), [_unit(u) for u in reinforcements]))
        rank = getattr(state, "rank", {}).get(faction)
        if rank:
            view.lists.append((_("Command leader"), [state.command_leader(faction)]))
        net = getattr(state, "net_vp", {}).get(faction)
        if net is not None:
            view.lists.append((_("Net VP"), [str(net)]))
        side_views.append(view)
    ended = state.phase is Phase.ENDED
    path = [b.position for b in getattr(state, "battles", [])]
    number = tpl.number(state)
    current = next((b for b in battles if b.number == number), None)
    if current is None and battles_cursor:  # an older window: the latest battle is elsewhere
        current = campaign.battles.select_related("winner").filter(number=number).first()
    return Dashboard(
        template=tpl,
        phase=state.phase.value,
        battle_number=number,
        position=tpl.position(state),
        sides=side_views,
        pools=_pools(state),
        battles=battles,
        decisions=[(d, can_answer(viewer, d)) for d in decisions],
        waiting_for=_waiting_for(
            campaign,
            state.phase,
            decisions,
            current,
            seated=any(s.seated for s in sides.values()),
        ),
        track=track_svg(
            tpl.positions,
            tpl.maps,
            path,
            None if ended else state.position,
            title=_("%(label)s: campaign positions") % {"label": tpl.title},
            ends=(
                _("← %(side)s end") % {"side": say(side_word(tpl.sides[0][0]))},
                _("%(side)s end →") % {"side": say(side_word(tpl.sides[1][0]))},
            )
            if tpl.key == "stalingrad"
            else ("", ""),
        )
        if tpl.positions
        else "",
        victory=(
            f"{say(side_word(sides[state.winner.value].name))} — {say(victory_short(state.victory))}"
            if ended and state.winner
            else None
        ),
        current_battle=current,
        missing_values=_missing(campaign.tables) if tpl.needs_tables else 0,
        tables_note=example_words(str(campaign.tables.get("_note", ""))),
        setup_refusal=setup_refusal(campaign, state),
    )


POOLS = ("pool", "regimental")
"""The state's lists of formations a side may buy before a battle (Stalingrad, Normandy)."""


def setup_refusal(campaign: Campaign, state: Any = None) -> str:
    """Why the next battle cannot be set up yet, or "": the campaign tables give no cost for
    a formation the sides may buy (the pools are public, so naming them reveals nothing)."""
    tpl = template_for(campaign.template)
    state = state or tpl.read(campaign)
    if not tpl.needs_tables or state.phase is not Phase.FORCES:
        return ""
    free = set(getattr(tpl.module, "COMMAND", {}).values())  # Command formations cost nothing
    rows = (campaign.tables.get("campaign_forces") or {}).get("rows") or []
    costs = {r.get("formation"): r.get("cost") for r in rows if isinstance(r, dict)}
    missing = [
        formation
        for attr in POOLS
        for formations in (getattr(state, attr, None) or {}).values()
        for formation in formations
        if costs.get(formation) is None and formation not in free
    ]
    if not missing:
        return ""
    return _(
        "Battle %(n)s cannot be set up yet: the campaign tables give no cost for %(names)s. "
        "The organiser enters them from the printed Campaign Forces Table."
    ) % {"n": tpl.number(state), "names": ", ".join(missing)}


def _missing(tables: dict[str, Any]) -> int:
    """How many values of the user tables are still empty (null): what the players must enter."""
    return sum(gap.count for gap in gaps(tables))


def _unit(unit: Any) -> str:
    text = f"{unit.id} ({unit.kind}"
    if unit.weapon:
        text += f", {unit.weapon}"
    if unit.veteran:
        text += ", " + _("veteran")
    return text + ")"


def _pools(state: Any) -> list[Pool]:
    found: list[Pool] = []
    for f in dataclasses.fields(state):
        value = getattr(state, f.name)
        if isinstance(value, Pool):
            found.append(value)
        elif isinstance(value, dict):
            found.extend(v for v in value.values() if isinstance(v, Pool))
    return found


def _waiting_for(
    campaign: Campaign,
    phase: Phase,
    decisions: list[Decision],
    battle: Battle | None,
    *,
    seated: bool = True,
) -> str:
    if phase is Phase.ENDED:
        return _("The campaign is over.")
    if not seated:
        return _("Waiting for players: nobody has taken a side yet. Invite them to join a side.")
    if campaign.stopped_reason:
        return _(
            "Waiting for the organiser to complete the campaign tables (%(why)s); the rules go "
            "on as soon as they are saved."
        ) % {"why": campaign.stopped_reason}
    if decisions:
        names = sorted({d.chooser.name if d.chooser else _("the players") for d in decisions})
        return _("Waiting for %(names)s.") % {"names": _(" and ").join(names)}
    if phase is Phase.BATTLE:
        if battle is not None and battle.result:
            return _("Resolving the battle's consequences.")
        return _("The battle is being played: enter its result when it ends.")
    return _("Ready to set up the next battle.")
