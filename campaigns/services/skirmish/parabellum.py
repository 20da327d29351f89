"""The Parabellum battle record: sealed orders (§9.2), the tactical phase (§4.1), casualties,
end-of-turn positions, and the finish with its victory points (§9)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.i18n import say
from campaigns.models import SealedOrders, SkirmishBattle, SkirmishEvent, SkirmishSide
from campaigns.rosters.engine import PARABELLUM, jsonable
from campaigns.rosters.readings import battle_readings
from campaigns.services.skirmish.battles import close_battle, record_battle_history
from campaigns.services.skirmish.common import (
    acting_side,
    battle_sides,
    check_playing,
    engine_errors,
    lock_battle,
    log_event,
    playing,
)
from campaigns.services.skirmish.troops import check_turn, find, kill, sid, troops_of
from rules.dice import ServerDice
from rules.i18n import msg
from rules.parabellum import labels as pbl
from rules.parabellum import supports as pbsup
from rules.parabellum.battle import (
    CAUSES,
    DIRECTIVES,
    PRIORITY_ORDERS,
    TURNS,
    Battle,
    BattleSide,
    Casualty,
    ModelState,
    tactical_phase,
    turn_states,
    validate_battle,
)
from rules.parabellum.roster import Roster as PBRoster
from rules.parabellum.victory import score_battle

MODEL_FLAGS = tuple(f for f in ModelState.__dataclass_fields__ if f != "soldier_id")


def skirmish_orders_submit(
    *, battle: SkirmishBattle, actor, priority_order: int | None, directives: list[int]
) -> SealedOrders:
    """Sealed priority order and two officer directives (§9.2). `priority_order=None` has the
    server draw a card the opponent does not hold. Private until the battle ends."""
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        check_playing(battle, PARABELLUM)
        if battle.mode != SkirmishBattle.Mode.ORDERS:
            raise ValidationError({"__all__": [_("Only the orders game has secret orders.")]})
        side = acting_side(battle, actor)
        if SealedOrders.objects.filter(side=side).exists():
            raise ValidationError({"__all__": [_("Your orders are already sealed.")]})
        clean = sorted({int(d) for d in directives if str(d).isdecimal()})
        if len(clean) != 2 or not set(clean) <= set(DIRECTIVES):
            raise ValidationError({"directives": [_("Choose exactly two different directives.")]})
        taken = set(
            SealedOrders.objects.filter(side__battle=battle).values_list(
                "priority_order", flat=True
            )
        )
        drawn = priority_order is None
        if drawn:
            pool = [o for o in PRIORITY_ORDERS if o not in taken]
            roll = ServerDice().roll(f"d{len(pool)}", purpose="priority order card", rule="9.2")
            priority_order = pool[roll.value - 1]
        elif priority_order not in PRIORITY_ORDERS:
            raise ValidationError({"priority_order": [_("A priority order is 1, 2 or 3.")]})
        orders = SealedOrders.objects.create(
            side=side,
            priority_order=priority_order,
            directives=clean,
            drawn_by_server=drawn,
            submitted_by=actor,
        )
        log_event(
            battle,
            kind=SkirmishEvent.Kind.SETUP,
            summary=msg("%(p)s sealed their orders.", p=str(actor)),
            actor=actor,
            rule="9.2",
        )
        log_event(
            battle,
            kind=SkirmishEvent.Kind.SETUP,
            summary=msg(
                "Your sealed orders: priority %(o)s (%(on)s); directives %(d)s",
                o=priority_order,
                on=pbl.PRIORITY_ORDERS[priority_order],
                d=pbl.joined([msg("%(n)s. %(d)s", n=d, d=pbl.DIRECTIVES[d]) for d in clean]),
            ),
            actor=actor,
            rule="9.2",
            private_to=side,
        )
        if not drawn and priority_order in taken:
            _redraw_clash(battle, actor)
            orders.refresh_from_db()
    return orders


def _redraw_clash(battle: SkirmishBattle, actor) -> None:
    """Both players typed the same priority card. Refusing the second would tell him the
    first player's card, so both cards are redrawn by the server instead (each player reads
    only his own); the clashing card is out of play, so knowing it tells nothing (9.2)."""
    sealed = list(SealedOrders.objects.filter(side__battle=battle).select_related("side"))
    pool = list(PRIORITY_ORDERS)
    for orders in sealed:
        roll = ServerDice().roll(f"d{len(pool)}", purpose="priority order card", rule="9.2")
        orders.priority_order = pool.pop(roll.value - 1)
        orders.drawn_by_server = True
        orders.save(update_fields=["priority_order", "drawn_by_server"])
        log_event(
            battle,
            kind=SkirmishEvent.Kind.CORRECTION,
            summary=msg(
                "Your priority order was redrawn by the server: %(o)s (%(on)s)",
                o=orders.priority_order,
                on=pbl.PRIORITY_ORDERS[orders.priority_order],
            ),
            actor=actor,
            rule="9.2",
            private_to=orders.side,
        )
    log_event(
        battle,
        kind=SkirmishEvent.Kind.CORRECTION,
        summary=msg(
            "The same priority order card was typed twice: the server redrew both players' "
            "cards (each player sees his own in the log; the directives stay)."
        ),
        actor=actor,
        rule="9.2",
    )


def skirmish_tactical(
    *, battle: SkirmishBattle, actor, turn: int, blue: tuple[int, int]
) -> SkirmishEvent:
    """The tactical phase of a turn (§4.1): both players reveal 6 of their tokens (6 blue, 4
    yellow); more blue takes the initiative (a tie: last turn's holder, the attacker on turn
    1); each yellow gives 1 PO, 2 when the opponent showed none. Turns are entered in order,
    once each; the PO are added to each side's ledger."""
    check_turn(turn)
    with playing(battle, actor, PARABELLUM) as (battle, _side):
        done = list(battle.tactical or [])
        if any(t["turn"] == turn for t in done):
            raise ValidationError(
                {"turn": [_("The tactical phase of turn %(t)s is already recorded.") % {"t": turn}]}
            )
        if turn != len(done) + 1:
            raise ValidationError(
                {
                    "turn": [
                        _("Record the tactical phase of turn %(t)s first.") % {"t": len(done) + 1}
                    ]
                }
            )
        sides = battle_sides(battle)
        attacker = next(s.index for s in sides if s.role == "attacker")
        previous = done[-1]["initiative"] if done else None
        try:
            blue = (int(blue[0]), int(blue[1]))
        except (TypeError, ValueError, IndexError):
            raise ValidationError({"blue_0": [_("Blue tokens shown by each player.")]}) from None
        with engine_errors("blue_0"):
            result = tactical_phase(blue, turn=turn, attacker=attacker, previous_holder=previous)
        for s in sides:
            s.po += result.po_gained[s.index]
            s.save(update_fields=["po"])
        battle.tactical = [
            *done,
            {
                "turn": turn,
                "blue": list(blue),
                "initiative": result.initiative,
                "po_gained": list(result.po_gained),
            },
        ]
        battle.save(update_fields=["tactical"])
        holder = sides[result.initiative].player
        return log_event(
            battle,
            kind=SkirmishEvent.Kind.RULE,
            summary=msg(
                "Turn %(t)s tactical phase: blue %(a)s / %(b)s → initiative %(p)s; PO +%(x)s / +%(y)s",
                t=turn,
                a=blue[0],
                b=blue[1],
                p=str(holder),
                x=result.po_gained[0],
                y=result.po_gained[1],
            ),
            actor=actor,
            rule="4.1",
            data={"explanation": result.explanation.as_list()},
        )


def skirmish_casualty(
    *,
    battle: SkirmishBattle,
    actor,
    soldier: str,
    turn: int,
    cause: str = "other",
    healed_turn: int | None = None,
    remove: bool = False,
) -> SkirmishEvent:
    """Record a casualty by hand, mark a medic's heal, or remove a wrong entry (logged)."""
    check_turn(turn)
    with playing(battle, actor, PARABELLUM) as (battle, _side):
        troop = find(troops_of(battle), soldier, "soldier")
        soldier_id = sid(soldier)
        listed = [c for c in troop.side.casualties if c["soldier_id"] == soldier_id]
        if remove:
            if not listed:
                raise ValidationError(
                    {
                        "soldier": [
                            _("%(s)s is not a casualty.") % {"s": say(troop.named(soldier_id))}
                        ]
                    }
                )
            troop.side.casualties = [
                c for c in troop.side.casualties if c["soldier_id"] != soldier_id
            ]
            summary = msg("Correction: %(s)s is not a casualty", s=troop.named(soldier_id))
            kind = SkirmishEvent.Kind.CORRECTION
        elif healed_turn is not None:
            if not listed or healed_turn < listed[0]["turn"] or healed_turn > TURNS:
                raise ValidationError({"healed_turn": [_("Heal a casualty on or after its turn.")]})
            troop.side.casualties = [
                {**c, "healed_turn": healed_turn} if c["soldier_id"] == soldier_id else c
                for c in troop.side.casualties
            ]
            summary = msg(
                "%(s)s healed by the medic on turn %(t)s", s=troop.named(soldier_id), t=healed_turn
            )
            kind = SkirmishEvent.Kind.EVENT
        else:
            if listed:
                raise ValidationError(
                    {
                        "soldier": [
                            _("%(s)s is already a casualty.") % {"s": say(troop.named(soldier_id))}
                        ]
                    }
                )
            if cause not in CAUSES:
                raise ValidationError({"cause": [_("Choose a cause.")]})
            kill(troop, soldier_id, turn, cause)
            summary = msg(
                "Turn %(t)s: %(s)s eliminated (%(c)s)",
                t=turn,
                s=troop.named(soldier_id),
                c=pbl.label(pbl.CAUSES, cause),
            )
            kind = SkirmishEvent.Kind.EVENT
        troop.side.save(update_fields=["casualties"])
        return log_event(battle, kind=kind, summary=summary, actor=actor, rule="9")


def skirmish_turn_record(
    *, battle: SkirmishBattle, actor, turn: int, po: list[int], models: dict[str, list[str]]
) -> SkirmishEvent:
    """Positions at the end of a turn, as §9 scores them: `models` maps "side:soldier" to the
    flags that hold (e.g. `wholly_in_enemy_half`); PO held by each side. Re-recording a turn
    replaces it (logged as a correction)."""
    check_turn(turn)
    with playing(battle, actor, PARABELLUM) as (battle, _side):
        troops = troops_of(battle)
        if len(po) != 2 or any(not isinstance(p, int) or p < 0 for p in po):
            raise ValidationError({"po": [_("PO held by each side, 0 or more.")]})
        sides: list[dict] = [{"po": po[0], "models": []}, {"po": po[1], "models": []}]
        for key, flags in models.items():
            troop = find(troops, key, "models")
            bad = [f for f in flags if f not in MODEL_FLAGS]
            if bad:
                raise ValidationError({"models": [_("Unknown position %(f)s.") % {"f": bad[0]}]})
            sides[troop.side.index]["models"].append(
                {"soldier_id": sid(key), **{f: True for f in flags}}
            )
        turns = [t for t in battle.turns if t["turn"] != turn]
        replaced = len(turns) != len(battle.turns)
        turns.append({"turn": turn, "sides": sides})
        battle.turns = sorted(turns, key=lambda t: t["turn"])
        battle.save(update_fields=["turns"])
        return log_event(
            battle,
            kind=SkirmishEvent.Kind.CORRECTION if replaced else SkirmishEvent.Kind.EVENT,
            summary=msg("End of turn %(t)s recorded (PO %(a)s / %(b)s)", t=turn, a=po[0], b=po[1]),
            actor=actor,
            rule="9",
            data={"turn": turn, "sides": sides},
        )


def engine_battle(battle: SkirmishBattle, sides: list[SkirmishSide]) -> Battle:
    orders = {o.side_id: o for o in SealedOrders.objects.filter(side__battle=battle)}
    bsides = []
    for s in sides:
        o = orders.get(s.pk)
        bsides.append(
            BattleSide(
                player=str(s.player),
                roster=PBRoster.from_dict(s.snapshot),
                role=s.role,
                start_po=s.start_po,
                priority_order=o.priority_order if o else None,
                directives=tuple(o.directives) if o else (),
                casualties=tuple(Casualty(**c) for c in s.casualties),
                calls=tuple(pbsup.Call(**c) for c in s.calls),
            )
        )
    turns = turn_states(battle.turns)
    return Battle(mode=battle.mode, sides=tuple(bsides), turns=turns)


def skirmish_finish(*, battle: SkirmishBattle, actor) -> SkirmishBattle:
    """End a Parabellum battle: reveal every side's sealed orders together, score VP (§9)
    and name the winner (a draw on equal VP). Finishing twice changes nothing."""
    with transaction.atomic():
        battle = lock_battle(battle.pk)
        if battle.status == SkirmishBattle.Status.FINISHED:
            raise ValidationError({"__all__": [_("The battle is already over.")]})
        check_playing(battle, PARABELLUM)
        acting_side(battle, actor)
        sides = battle_sides(battle)
        if not any(t["turn"] == TURNS for t in battle.turns):
            # §9.1.7, §9.2.10: the game is 5 turns, scored once the 5th is over; finishing
            # earlier would also reveal the sealed orders before the battle ends
            raise ValidationError(
                {
                    "__all__": [
                        _(
                            "Record the positions at the end of turn %(n)s first: the game is "
                            "%(n)s turns [9]."
                        )
                        % {"n": TURNS}
                    ]
                }
            )
        record = engine_battle(battle, sides)
        problems = validate_battle(record)
        if battle.mode == SkirmishBattle.Mode.ORDERS and any(
            not SealedOrders.objects.filter(side=s).exists() for s in sides
        ):
            raise ValidationError({"__all__": [_("Both players must seal their orders first.")]})
        if problems:
            raise ValidationError({"__all__": [v.text for v in problems]})
        with engine_errors():
            score = score_battle(
                record,
                cumulative_bands=battle_readings(PARABELLUM, battle.readings)["cumulative_bands"],
            )
        now = timezone.now()
        close_battle(battle, score.winner, now, score=jsonable(score.to_dict()))
        SealedOrders.objects.filter(side__battle=battle).update(revealed_at=now)
        if battle.mode == SkirmishBattle.Mode.ORDERS:
            parts = [
                msg(
                    "%(p)s: %(o)s; %(d)s",
                    p=str(s.player),
                    o=pbl.PRIORITY_ORDERS[o.priority_order],
                    d=pbl.joined([pbl.DIRECTIVES[d] for d in o.directives]),
                )
                for s, o in ((s, record.sides[s.index]) for s in sides)
            ]
            log_event(
                battle,
                kind=SkirmishEvent.Kind.RESULT,
                summary=msg("Sealed orders revealed together — %(p)s", p=pbl.joined(parts)),
                actor=actor,
                rule="9.2",
            )
        totals = " – ".join(f"{s['player']} {s['total']} VP" for s in battle.score["sides"])
        winner = sides[score.winner].player if score.winner is not None else None
        log_event(
            battle,
            kind=SkirmishEvent.Kind.RESULT,
            summary=msg(
                "Battle over: %(t)s. %(w)s",
                t=totals,
                w=msg("%(p)s wins.", p=str(winner)) if winner else msg("A draw."),
            ),
            actor=actor,
            rule="9",
            data={"explanation": score.explanation.as_list()},
        )
        record_battle_history(battle, sides, actor)
    return battle
