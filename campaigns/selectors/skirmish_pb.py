"""The top of a Parabellum battle page (and the API): turn, phase, who acts, what the table
does now, each side's VP so far, PO and soldiers' states — in words. Sealed orders never
appear: the VP so far count only what is public."""

from __future__ import annotations

from campaigns.i18n import say
from campaigns.models import SkirmishBattle
from campaigns.rosters.engine import PARABELLUM
from campaigns.rosters.readings import battle_readings
from campaigns.rosters.words import soldier_name
from campaigns.services.skirmish.pb_play.activation import reaction_words
from campaigns.services.skirmish.pb_play.state import load
from campaigns.services.skirmish.pb_play.turn import PHASE_WORDS
from rules.errors import RuleError
from rules.i18n import msg
from rules.parabellum import labels as pbl
from rules.parabellum import turn as pbt
from rules.parabellum.battle import Battle, BattleSide, Casualty, turn_states
from rules.parabellum.ledger import ACTION_COSTS, ATTACKS, Activation, SideTurn
from rules.parabellum.movement import MOVES
from rules.parabellum.victory import score_battle

ROLE_WORDS = {"attacker": msg("attacker"), "defender": msg("defender")}


def _vp(battle: SkirmishBattle, sides, rosters) -> list[str]:
    """VP so far from the turns recorded; none in the orders game (they hang on sealed
    orders) or before a turn is recorded."""
    if not battle.turns or battle.mode == "orders":
        return ["—", "—"]
    record = Battle(
        mode=battle.mode,
        sides=tuple(
            BattleSide(
                player=str(s.player),
                roster=r,
                role=s.role,
                start_po=s.start_po,
                casualties=tuple(Casualty(**c) for c in s.casualties),
            )
            for s, r in zip(sides, rosters, strict=True)
        ),
        turns=turn_states(battle.turns),
    )
    try:
        cumulative = battle_readings(PARABELLUM, battle.readings)["cumulative_bands"]
        score = score_battle(record, cumulative_bands=cumulative)
    except (RuleError, TypeError, KeyError):
        return ["—", "—"]
    return [str(s.total) for s in score.sides]


def _may_still(a: Activation, suppressed: bool) -> list[str]:
    """What the activated soldier may still do, by PA left and the order of actions."""
    if suppressed:
        return [say(pbl.ACTIONS["return_to_action"])] if a.pa_left >= 2 else []
    out = []
    for action, cost in ACTION_COSTS.items():
        if cost > a.pa_left or action == "return_to_action":
            continue
        if action in MOVES and (a.movement is not None or a.attack or a.aimed):
            continue
        if action == "covering_fire" and (a.covering_called or a.movement or a.attack):
            continue
        if action == "aim" and (a.aimed or a.attack):
            continue
        if action in ATTACKS and a.attack not in (None, "shoot" if action == "shoot" else None):
            continue
        if a.via == "anticipation" and action != "crawl":
            continue
        out.append(say(pbl.ACTIONS[action]))
    return out


def _state_words(sid: str, ledger: SideTurn, downed: list[str], down: set[str]) -> list[str]:
    rec = ledger.soldiers.get(sid)
    if sid in downed:
        return [say(msg("downed"))]
    if sid in down:
        return [say(msg("eliminated"))]
    words = [say(msg("suppressed")) if rec and rec.suppressed else say(msg("active"))]
    if rec is None:
        return words
    if rec.activations:
        words.append(say(msg("activated ×%(n)s", n=rec.activations)))
    if rec.order_received:
        words.append(say(msg("order received")))
    if sid in ledger.pending_orders:
        words.append(say(msg("must activate next (order)")))
    if sid in ledger.anticipations:
        words.append(say(msg("anticipation announced")))
    if rec.rests:
        words.append(say(msg("rests until next turn (medic)")))
    return words


def pb_summary(battle: SkirmishBattle, sides: list, me) -> dict:
    if len(sides) != 2 or not all(s.snapshot for s in sides):
        return {"turn": None, "phase": "", "acting": None, "acting_player": "", "now": []}
    play = load(battle, sides)
    state = play.state
    acting = state.acting
    now = []
    if state.phase == pbt.Phase.ACTIVATIONS and acting is not None:
        now.append(
            say(
                msg(
                    "Activations: %(a)s's soldiers act; %(b)s's may react after each activation",
                    a=str(sides[acting].player),
                    b=str(sides[1 - acting].player),
                )
            )
        )
    if me is not None:
        now.extend(say(m) for m in pbt.next_steps(state, me.index))
    for s, ledger in zip(sides, play.ledgers, strict=True):
        a = ledger.active
        if a is None:
            continue
        rec = ledger.soldiers[a.soldier_id]
        now.append(
            say(
                msg(
                    "%(p)s's %(s)s is activated: %(pa)s PA left",
                    p=str(s.player),
                    s=pbl.soldier_name(a.soldier_id),
                    pa=a.pa_left,
                )
            )
        )
        may = _may_still(a, rec.suppressed)
        if may:
            now.append(say(msg("may still: %(w)s", w=", ".join(may))))
        now.append(say(msg("if it ends now: %(w)s", w=reaction_words(a))))
    vp = _vp(battle, sides, play.rosters)
    label = (
        say(msg("VP so far (sealed orders count at the end)"))
        if battle.mode == "orders"
        else say(msg("VP so far"))
    )
    out_sides = []
    for s, roster, ledger, downed in zip(
        sides, play.rosters, play.ledgers, play.downed, strict=True
    ):
        down = {c["soldier_id"] for c in s.casualties if c.get("healed_turn") is None}
        out_sides.append(
            {
                "index": s.index,
                "player": str(s.player),
                "role": say(ROLE_WORDS.get(s.role, s.role)),
                "score_label": label,
                "score": vp[s.index],
                "points_label": say(msg("PO")),
                "points": str(s.po),
                "units": [
                    {
                        "key": f"{s.index}:{x.id}",
                        "name": soldier_name(x.id),
                        "state": ", ".join(_state_words(x.id, ledger, downed, down)),
                        "detail": say(pbl.label(pbl.EXPERIENCES, x.experience)),
                    }
                    for x in roster.active
                ],
            }
        )
    return {
        "turn": state.turn,
        "phase": say(PHASE_WORDS[state.phase]),
        "acting": acting,
        "acting_player": str(sides[acting].player) if acting is not None else "",
        "now": now,
        "sides": out_sides,
    }
