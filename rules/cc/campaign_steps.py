"""Steps the linked Combat Commander campaigns share: the pre-battle sequence (VP marker,
sealed purchase, RS.7–RS.9, totals) and the post-battle one (quality, Divisional Reserve).

Every text is a message (`rules.i18n.msg`) naming the sides as the site does; see
`rules.cc.campaign` for the state machine the steps run in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rules.cc.campaign import BattleRecord, Session, VPEntry, stored
from rules.cc.campaign_tables import CampaignTables
from rules.cc.common import Faction, Posture, Quality
from rules.errors import RuleError
from rules.i18n import Msg, msg
from rules.tables import MISSING

POSTURE_WORDS = {
    Posture.ATTACK: msg("Attack"),
    Posture.RECON: msg("Recon"),
    Posture.DEFEND: msg("Defend"),
    Posture.BANZAI: msg("Banzai"),
    Posture.INVADER: msg("Invader"),
}
QUALITY_WORDS = {
    Quality.ELITE: msg("Elite"),
    Quality.LINE: msg("Line"),
    Quality.GREEN: msg("Green"),
}


# ---------------------------------------------------------------------------------------------
# Steps shared by the campaigns' pre-battle sequences

COMPASS_EDGE = {
    1: msg("the top edge of the map"),
    2: msg("the right edge of the map"),
    3: msg("the right edge of the map"),
    4: msg("the bottom edge of the map"),
    5: msg("the left edge of the map"),
    6: msg("the left edge of the map"),
}
"""Where a compass direction points [2.2.2]: 1 to the top of the map, 4 to the bottom, 2 and 3
to the right, 5 and 6 to the left (see DECISIONS.md)."""


def vp_text(ctx: Session, vp_axis: int) -> Msg:
    if vp_axis == 0:
        return msg("VP marker on 0")
    side = Faction.AXIS if vp_axis > 0 else Faction.ALLIES
    return msg("VP marker %(n)s on the side of the %(side)s", n=abs(vp_axis), side=ctx.name(side))


def move_vp(ctx: Session, record: BattleRecord, delta_axis: int, *, reason: Msg, rule: str) -> None:
    record.vp_axis += delta_axis
    record.vp_ledger.append(VPEntry(delta_axis, stored(reason), rule))
    ctx.step(
        rule,
        msg("%(reason)s: %(vp)s", reason=reason, vp=vp_text(ctx, record.vp_axis)),
        record.vp_axis,
    )


def pay_vp(
    ctx: Session, record: BattleRecord, side: Faction, amount: int, *, reason: Msg, rule: str
) -> None:
    """`side` moves the VP marker `amount` spaces toward its opponent."""
    move_vp(
        ctx,
        record,
        -amount if side is Faction.AXIS else amount,
        reason=msg(
            "%(side)s pay %(n)s VP for %(reason)s", side=ctx.name(side), n=amount, reason=reason
        ),
        rule=rule,
    )


def sealed_purchase(
    ctx: Session,
    pools: Mapping[Faction, list[str]],
    tables: CampaignTables,
    *,
    rule: str,
    cost_rule: str,
    noun: Msg,
    order: list[Faction],
) -> dict[Faction, list[str]]:
    """Both players secretly fist any number of leaders from their pools, then reveal.

    Every formation on offer must have its cost in the tables before anyone chooses: an error
    found after a secret choice would say what was chosen, so the check names the whole
    (public) pools' missing costs and no sealed choice opens until they are entered.
    """
    missing = [f for side in order for f in pools[side] if tables.get(f, "cost") is MISSING]
    if missing:
        raise RuleError(
            msg(
                "the Campaign Forces Table gives no cost for %(missing)s: the organiser enters "
                "them in the campaign's tables before the secret purchase of %(noun)s",
                missing=", ".join(missing),
                noun=noun,
            ),
            rule=cost_rule,
        )
    bought = {
        side: ctx.choose_some(
            f"purchase.{side.value}",
            rule=rule,
            prompt=msg(
                "%(side)s: secretly choose any number (0 or more) of the %(noun)s in the pool to "
                "buy; both choices are revealed together",
                side=ctx.name(side),
                noun=noun,
            ),
            options=pools[side],
            chooser=side,
        )
        for side in order
    }
    for side in order:
        for formation in bought[side]:
            pools[side].remove(formation)
        text = (
            msg(
                "%(side)s reveal %(listed)s; they leave the pool",
                side=ctx.name(side),
                listed=", ".join(bought[side]),
            )
            if bought[side]
            else msg("%(side)s reveal that they buy no %(noun)s", side=ctx.name(side), noun=noun)
        )
        ctx.step(rule, text, bought[side])
    return bought


def standard_support(ctx: Session, record: BattleRecord) -> None:
    """RS.7 is played as written (outside the campaign); the players enter the VP marker."""
    if record.vp_axis == 0:
        ctx.step("RS.7", msg("VP marker on 0: no standard support rolls"))
        return
    after = ctx.enter_int(
        "rs7.vp_axis",
        rule="RS.7",
        prompt=msg("VP marker after the RS.7 support purchases (positive: Axis side)"),
        chooser="both",
        low=-99,
        high=99,
    )
    move_vp(ctx, record, after - record.vp_axis, reason=msg("RS.7 support purchases"), rule="RS.7")


def set_postures(ctx: Session, record: BattleRecord) -> None:
    """RS.8: the side ahead on VP defends, the other attacks; on 0 both are Recon."""
    if record.vp_axis == 0:
        record.posture = {f: Posture.RECON for f in Faction}
    else:
        ahead = Faction.AXIS if record.vp_axis > 0 else Faction.ALLIES
        record.posture = {ahead: Posture.DEFEND, ahead.other: Posture.ATTACK}
    for side in Faction:
        ctx.step(
            "RS.8",
            msg(
                "%(side)s: posture %(posture)s",
                side=ctx.name(side),
                posture=POSTURE_WORDS[record.posture[side]],
            ),
            record.posture[side].value,
        )


def defender_fortifications(ctx: Session, record: BattleRecord) -> None:
    """RS.9: the Defender may spend up to his VP on Fortification OBs (VP toward the Attacker)."""
    defenders = [s for s, p in record.posture.items() if p is Posture.DEFEND]
    if not defenders:
        ctx.step("RS.9", msg("no Defender: no RS.9 fortifications"))
        return
    side = defenders[0]
    spent = ctx.enter_int(
        "rs9.cost",
        rule="RS.9",
        prompt=msg("%(side)s: VP spent on RS.9 Fortification OBs", side=ctx.name(side)),
        chooser=side,
        low=0,
        high=abs(record.vp_axis),
    )
    if spent:
        pay_vp(ctx, record, side, spent, reason=msg("RS.9 Fortification OBs"), rule="RS.9")


TOTAL_WORDS = {
    "orders": msg("%(side)s: orders %(text)s"),
    "initiative": msg("%(side)s: Initiative %(text)s"),
    "surrender": msg("%(side)s: Surrender level %(text)s"),
}


def force_totals(ctx: Session, tables: CampaignTables, record: BattleRecord, *, rule: str) -> None:
    """Orders, Initiative and Surrender are sums over the fielded formations (RS.8, RS.14-16)."""
    for side in Faction:
        totals: dict[str, int | None] = {}
        for name in ("orders", "initiative", "surrender"):
            values = [tables.get(f, name) for f in record.fielded[side]]
            missing = [f for f, v in zip(record.fielded[side], values, strict=True) if v is MISSING]
            totals[name] = None if missing else sum(values)
            text = (
                " + ".join(map(str, values))
                if not missing
                else msg("not entered for %(missing)s", missing=", ".join(missing))
            )
            ctx.step(rule, msg(TOTAL_WORDS[name].id, side=ctx.name(side), text=text), totals[name])
        record.totals[side] = totals
    initiative = {s: record.totals[s]["initiative"] for s in Faction}
    if None not in initiative.values() and initiative[Faction.AXIS] != initiative[Faction.ALLIES]:
        holder = max(Faction, key=lambda s: initiative[s])
        record.extras["initiative_card"] = holder.value
        ctx.step(
            "RS.15",
            msg("%(side)s have the higher Initiative and take the card", side=ctx.name(holder)),
        )
    else:
        ctx.step(
            "RS.15", msg("Initiative tied or not entered: the players decide who holds the card")
        )


# ---------------------------------------------------------------------------------------------
# Steps shared by the campaigns' post-battle sequences

_UP = {Quality.GREEN: Quality.LINE, Quality.LINE: Quality.ELITE}
_DOWN = {Quality.ELITE: Quality.LINE, Quality.LINE: Quality.GREEN}


def adjust_quality(
    ctx: Session, quality: dict[Faction, Quality], winner: Faction, *, rule: str
) -> None:
    """The winner may raise his own quality one level or lower his opponent's one level."""
    loser = winner.other
    options = [
        *(["raise_own"] if quality[winner] in _UP else []),
        *(["lower_opponent"] if quality[loser] in _DOWN else []),
        "none",
    ]
    choice = ctx.choose(
        "quality",
        rule=rule,
        prompt=msg(
            "%(side)s: raise your troop quality, lower your opponent's, or neither",
            side=ctx.name(winner),
        ),
        options=options,
        chooser=winner,
    )
    if choice == "raise_own":
        quality[winner] = _UP[quality[winner]]
        ctx.step(
            rule,
            msg(
                "%(side)s raise their troop quality to %(quality)s",
                side=ctx.name(winner),
                quality=QUALITY_WORDS[quality[winner]],
            ),
            quality[winner].value,
        )
    elif choice == "lower_opponent":
        quality[loser] = _DOWN[quality[loser]]
        ctx.step(
            rule,
            msg(
                "%(side)s lower the %(other)s troop quality to %(quality)s",
                side=ctx.name(winner),
                other=ctx.name(loser),
                quality=QUALITY_WORDS[quality[loser]],
            ),
            quality[loser].value,
        )
    else:
        ctx.step(rule, msg("%(side)s leave both troop qualities unchanged", side=ctx.name(winner)))


def divisional_requests(
    ctx: Session,
    tables: CampaignTables,
    winner: Faction,
    *,
    available: Callable[[Faction, str], bool],
    grant: Callable[[Faction, str], None],
    rule: str,
) -> None:
    """The loser rolls once, the winner twice keeping one; an available result is granted.

    Only results that would bring someone are offered: an unavailable one gives nothing, so
    a player is never asked to choose it; a single usable result is kept without asking.
    """
    for side, count in ((winner.other, 1), (winner, 2)):
        results = []
        for i in range(count):
            record = ctx.roll(
                f"divisional.{side.value}.{i + 1}",
                purpose=msg("Divisional Reserve roll"),
                rule=rule,
            )
            result = tables.divisional_result(side, record.value, rule=rule)
            ctx.step(
                rule,
                msg(
                    "%(side)s: Divisional Reserve roll %(roll)s",
                    side=ctx.name(side),
                    roll=record.value,
                ),
                result,
                record,
            )
            results.append(result)
        usable = [r for r in dict.fromkeys(results) if available(side, r)]
        if not usable:
            ctx.step(
                rule,
                msg(
                    "%(results)s not available: the %(side)s receive nothing",
                    results=", ".join(dict.fromkeys(results)),
                    side=ctx.name(side),
                ),
            )
            continue
        kept = ctx.choose(
            f"divisional.{side.value}",
            rule=rule,
            prompt=msg(
                "%(side)s: keep one of the two Divisional Reserve results", side=ctx.name(side)
            ),
            options=usable,
            chooser=side,
        )
        grant(side, kept)
        ctx.step(
            rule,
            msg(
                "%(kept)s is available and joins the Regimental pool of the %(side)s",
                kept=kept,
                side=ctx.name(side),
            ),
            kept,
        )
