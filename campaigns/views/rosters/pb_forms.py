"""The turn's forms a Parabellum player may use now, for the battle page's actions. Kept out
of `actions_pb` (which imports the action table, itself importing `battle_pages`) so that
`battle_pages` may import it at the top."""

from __future__ import annotations

from campaigns.rosters import forms as rf
from campaigns.services.skirmish.pb_play.state import load
from rules.parabellum import turn as pbt


def pb_play_forms(request, battle, me) -> dict:
    """The turn's forms the user may use now (none for a reader who is not a player)."""
    if me is None or battle.status != "playing" or battle.system != "parabellum":
        return {}
    sides = list(battle.sides.all())
    if not all(s.snapshot for s in sides) or len(sides) != 2:
        return {}
    play = load(battle, sides)
    state, ledger = play.state, play.ledgers[me.index]
    kw = {"battle": battle, "me": me}
    f: dict = {}
    if not battle.tactical and not (battle.play or {}).get("roles"):
        f["pb_roles"] = rf.RoleRollForm()
    sequential = state.phase in pbt.SEQUENTIAL
    acting = sequential and state.first is not None and state.acting == me.index
    if sequential and state.first is None and state.initiative == me.index:
        f["pb_first"] = rf.ChooseFirstForm(**kw)
    if acting:
        called = any(c["turn"] == state.turn for c in me.calls)
        if state.phase == pbt.Phase.REINFORCEMENTS and not ledger.anticipations and not called:
            f["pb_anticipate"] = rf.AnticipateForm(**kw)
        if ledger.active is None and (state.phase == pbt.Phase.ACTIVATIONS or ledger.anticipations):
            via = (
                "order"
                if ledger.pending_orders
                else "anticipation"
                if ledger.anticipations
                else "blue"
            )
            f["pb_activate"] = rf.ActivateForm(initial={"via": via}, **kw)
        if ledger.active is not None:
            f["pb_act"] = rf.ActForm(**kw)  # the page adds the "end the activation" button
            if play.downed[me.index]:
                f["pb_tend"] = rf.TendForm(**kw)
    mine = acting or state.phase == pbt.Phase.END
    if mine and me.index not in state.done and ledger.active is None:
        f["pb_finish"] = rf.FinishPhaseForm(**kw)
    down = {c["soldier_id"] for c in me.casualties if c.get("healed_turn") is None}
    if state.phase != pbt.Phase.OVER and down - set(play.downed[me.index]):
        f["pb_downed"] = rf.DownedForm(**kw)
    return f
