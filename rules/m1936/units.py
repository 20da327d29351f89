"""One unit's condition inside a battle: morale, suppression, casualties, vehicle damage
(Section XI; vehicle crews XI.5) and the end-of-turn recovery (V.6, XI.1, XI.4, III).

Morale lost to suppression (and to Terror, for the turn) is tracked apart from the rest
(digest §8.3.23): `suppression` is the morale actually lost to suppression points, so that it
can be given back at the end of a turn in which the unit was not fired upon. Readings of
points the rulebook leaves open are `MoraleOptions` fields (see the decisions file).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg
from rules.m1936.army import quality_effects
from rules.m1936.data import Category, Profile, Quality, parse_rule
from rules.m1936.morale import PINNED_AT_MOST, UnitState
from rules.serial import Serializable

MORALE_RULE = "M36-XI.1"
STATE_RULE = "M36-XI.2"
RETREAT_RULE = "M36-XI.3"
RECOVERY_RULE = "M36-XI.4"
VEHICLE_RULE = "M36-XI.5"
DECIMATION_RULE = "M36-XI.8"
PROLONGED_RULE = "M36-V.5"
DECIMATION_MORALE = 3

KINDS = ("infantry", "individual", "vehicle", "gun")
NORMAL, PINNED, PANICKED = "Normal", "Pinned", "Panicked"
RETREATING, DESTROYED, OUT = "Retreating", "Destroyed", "Out of action"
STATES = (NORMAL, PINNED, PANICKED, RETREATING, DESTROYED, OUT)
TERMINAL = (DESTROYED, OUT)
FACINGS = ("front", "side", "rear")
VEHICLE_FLAGS = (
    "turret_jammed",
    "main_gun_out",
    "secondary_out",
    "immobilised",
    "controllable_fire",
    "crew_out",
    "destroyed",
    "bogged",
)
PROLONGED = ("Atrincherarse", "Observación", "Reorganización", "Reagrupamiento")
_KIND_OF = {
    Category.LIGHT_VEHICLE: "vehicle",
    Category.TANK: "vehicle",
    Category.TRANSPORT: "vehicle",
    Category.AT_GUN: "gun",
    Category.AA_GUN: "gun",
    Category.ARTILLERY: "gun",
}


@dataclass(frozen=True)
class MoraleOptions(Serializable):
    """Readings of Section XI the rulebook leaves open (each in the decisions file)."""

    casualties_before_suppression: bool = True
    suppression_back_every_turn: bool = False
    panicked_casualty_per_point: bool = False
    panic_ends_with_morale: bool = False
    destroyed_at_full_casualties: bool = True
    pe_zero: Literal["destroyed", "out_of_action"] = "destroyed"
    vehicle_recovery: bool = False
    panic_sight_is_temporary: bool = False
    terror_is_temporary: bool = True
    decimate_guns: bool = False


DEFAULT_OPTIONS = MoraleOptions()


@dataclass(frozen=True)
class UnitStatus(Serializable):
    key: str
    name: str
    kind: str
    quality: str
    max_morale: int
    morale: int
    base_morale: int = 0
    suppression: int = 0
    terror_loss: int = 0
    terrorised: bool = False
    casualties: int = 0
    casualty_capacity: int = 0
    decimated: bool = False
    state: str = NORMAL
    acted: bool = False
    reacted: bool = False
    prone: bool = False
    fired_upon: bool = False
    prolonged: str | None = None
    prolonged_turns_left: int = 0
    observation_bonus: bool = False
    rules: tuple[str, ...] = ()
    pe: int | None = None
    pe_initial: int | None = None
    armour_loss: dict[str, int] = field(default_factory=dict)
    flags: tuple[str, ...] = ()
    token: int | None = None
    revealed: bool = True

    def has_rule(self, name: str) -> bool:
        return name.casefold() in {r.casefold() for r in self.rules}

    @property
    def out_of_play(self) -> bool:
        return self.state in TERMINAL


@dataclass(frozen=True)
class Hit(Serializable):
    """A unit after something happened to it, and whether it just panicked or was lost."""

    unit: UnitStatus
    panicked_now: bool = False
    destroyed_now: bool = False
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def new_status(
    *,
    key: str,
    name: str,
    profile: Profile,
    quality: str,
    casualty_capacity: int,
    token: int | None = None,
) -> UnitStatus:
    """A fresh unit: Moral Base from quality (XI.1, also for vehicle crews); vehicles get PE (E)."""
    if profile.category is Category.AIRCRAFT:
        raise RuleError(msg("aircraft are not table units (Section XIII)"), rule="M36-XIII")
    kind = _KIND_OF.get(profile.category) or ("individual" if profile.tipo == "Ind" else "infantry")
    if isinstance(casualty_capacity, bool) or not isinstance(casualty_capacity, int):
        raise RuleError(msg("casualty points are a whole number"), rule=DECIMATION_RULE)
    if kind == "vehicle" and casualty_capacity != 0:
        raise RuleError(msg("vehicles lose PE, not casualty points"), rule=VEHICLE_RULE)
    if kind != "vehicle" and casualty_capacity < 1:
        raise RuleError(msg("a unit has at least 1 casualty point"), rule=DECIMATION_RULE)
    base = quality_effects(Quality(quality)).morale
    pe = profile.stats.get("e") if kind == "vehicle" else None
    if kind == "vehicle" and not isinstance(pe, int):
        raise RuleError(msg("%(name)s has no structure points (E)", name=name), rule=VEHICLE_RULE)
    return UnitStatus(
        key=key,
        name=name,
        kind=kind,
        quality=Quality(quality).value,
        max_morale=base,
        morale=base,
        base_morale=base,
        casualty_capacity=casualty_capacity,
        rules=tuple(parse_rule(r)[0] for r in profile.rules),
        pe=pe,
        pe_initial=pe,
        token=token,
        revealed=token is None,
    )


def derived_state(u: UnitStatus) -> str:
    """State from morale (XI.2), keeping Panicked (until regrouped) and terminal states."""
    if u.state in TERMINAL:
        return u.state
    if u.morale == 0:
        return OUT if u.kind == "vehicle" else PANICKED
    if u.state in (PANICKED, RETREATING):
        return u.state
    return PINNED if u.morale <= PINNED_AT_MOST else NORMAL


def legal_problems(u: UnitStatus) -> list[str]:
    """Every broken invariant of a status (empty when the status is consistent)."""
    p = []
    if u.kind not in KINDS:
        p.append(f"unknown kind {u.kind}")
    if u.state not in STATES:
        p.append(f"unknown state {u.state}")
    if not 0 <= u.morale <= u.max_morale:
        p.append("morale outside 0..max_morale")
    if u.suppression < 0 or u.terror_loss not in (0, 1 if u.terrorised else 0):
        p.append("negative suppression or Terror loss without Terror")
    if u.suppression + u.terror_loss > u.max_morale - u.morale:
        p.append("temporary loss larger than the morale lost")
    if not 0 <= u.casualties <= u.casualty_capacity:
        p.append("casualties outside 0..capacity")
    decimable = u.kind in ("infantry", "individual", "gun") and u.casualty_capacity > 0
    if u.decimated and not (decimable and u.casualties * 2 >= u.casualty_capacity):
        p.append("decimated without half the casualty points lost")
    if u.max_morale != max(0, u.base_morale - DECIMATION_MORALE * u.decimated):
        p.append("max_morale disagrees with base morale and decimation")
    if u.acted and u.reacted:
        p.append("acted and reacted in the same turn")
    if (u.prolonged is None) != (u.prolonged_turns_left == 0) or (u.prolonged and not u.acted):
        p.append("prolonged action without turns left or acted marker")
    if u.state not in TERMINAL:
        if u.morale == 0 and u.state != PANICKED:
            p.append("morale 0 but not Panicked")
        elif u.state == NORMAL and u.morale <= PINNED_AT_MOST:
            p.append("Normal with morale 4 or less")
        elif u.state == PINNED and u.morale > PINNED_AT_MOST:
            p.append("Pinned with morale above 4")
    if u.kind == "vehicle":
        if u.pe is None or u.pe_initial is None or not 0 <= u.pe <= u.pe_initial:
            p.append("vehicle PE outside 0..initial")
        if u.casualty_capacity or u.decimated:
            p.append("vehicle with casualty points")
        if set(u.flags) - set(VEHICLE_FLAGS) or set(u.armour_loss) - set(FACINGS):
            p.append("unknown vehicle flag or facing")
        if "crew_out" in u.flags and u.state != OUT:
            p.append("crew_out flag but not Out of action")
        if "destroyed" in u.flags and u.state != DESTROYED:
            p.append("destroyed flag but not Destroyed")
    elif u.pe is not None or u.flags or u.armour_loss:
        p.append("vehicle damage on a unit that is not a vehicle")
    elif u.state == OUT:
        p.append("only a vehicle is put out of action by its crew")
    return p


def _refuse_terminal(u: UnitStatus, rule: str) -> None:
    if u.out_of_play:
        raise RuleError(
            msg("%(name)s is %(state)s and takes no further effects", name=u.name, state=u.state),
            rule=rule,
        )


def _count(value: object, what: str, rule: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RuleError(msg("%(what)s is a whole number ≥ 0", what=what), rule=rule)
    return value


class _Change:
    """Applies losses to one unit in order, recording each step."""

    def __init__(self, u: UnitStatus, options: MoraleOptions) -> None:
        self.u, self.o, self.exp = u, options, Explanation()
        self.was = u.state

    def lose(self, points: int, *, temporary: str = "", convert: bool = False) -> int:
        """Lose morale (floor 0); `temporary` names the tracked part ("suppression" or Terror).

        With `convert`, a permanent loss the floor stops turns held suppression into
        permanent loss instead (a casualty's point is never given back)."""
        lost = min(points, self.u.morale)
        if lost:
            self.u = replace(self.u, morale=self.u.morale - lost)
            if temporary:
                self.u = replace(self.u, **{temporary: getattr(self.u, temporary) + lost})
        if convert and points > lost:
            held = min(points - lost, self.u.suppression)
            self.u = replace(self.u, suppression=self.u.suppression - held)
            lost += held
        return lost

    def casualties(self, n: int, why: Msg) -> None:
        u = self.u
        room = u.casualty_capacity - u.casualties
        taken = self.exp.add(MORALE_RULE, why, min(n, room))
        if taken < n:
            self.exp.add(
                MORALE_RULE, msg("casualty points beyond the unit's total are lost"), n - taken
            )
        self.u = replace(u, casualties=u.casualties + taken)
        self.exp.add(MORALE_RULE, msg("morale lost to casualties"), self.lose(taken, convert=True))
        self._decimation()
        if (
            self.o.destroyed_at_full_casualties
            and u.casualty_capacity
            and self.u.casualties == u.casualty_capacity
        ):
            self.exp.add(DECIMATION_RULE, msg("every casualty point lost: destroyed"), True)
            self.u = replace(self.u, state=DESTROYED)

    def _decimation(self) -> None:
        u = self.u
        kinds = ("infantry", "individual") + (("gun",) if self.o.decimate_guns else ())
        if u.decimated or u.kind not in kinds or u.casualties * 2 < u.casualty_capacity:
            return
        top = max(0, u.base_morale - DECIMATION_MORALE)
        morale = min(u.morale, top)
        temp = min(u.suppression + u.terror_loss, top - morale)
        terror = min(u.terror_loss, temp)
        self.u = replace(
            u,
            decimated=True,
            max_morale=top,
            morale=morale,
            terror_loss=terror,
            suppression=temp - terror,
        )
        self.exp.add(
            DECIMATION_RULE,
            msg("half the casualty points or more lost: decimated, FA halved, maximum morale −3"),
            top,
        )

    def settle(self) -> Hit:
        """Fix the state after losses: panic (+1 casualty) or crew abandoning the vehicle."""
        state = derived_state(self.u)
        if self.u.kind == "vehicle" and state == OUT and self.u.state != OUT:
            self.exp.add(VEHICLE_RULE, msg("crew morale 0: the crew abandons the vehicle"), OUT)
            self.u = replace(self.u, flags=_flag(self.u.flags, "crew_out"))
        panicked_now = state == PANICKED and self.was != PANICKED and self.u.state not in TERMINAL
        self.u = replace(self.u, state=state)
        if panicked_now:
            self.exp.add(STATE_RULE, msg("morale 0: Panicked, must retreat at once"), PANICKED)
            self.casualties(1, msg("Panicked: 1 casualty at once (desertion or surrender)"))
            self.u = replace(self.u, state=derived_state(self.u))
        if self.u.kind == "vehicle" and self.u.state == PINNED:
            self.exp.add(VEHICLE_RULE, msg("crew morale 4 or less: must withdraw"), True)
        if self.u.prolonged and self.u.state in (PANICKED, DESTROYED, OUT):
            self.exp.add(PROLONGED_RULE, msg("prolonged action abandoned"), self.u.prolonged)
            self.u = replace(self.u, prolonged=None, prolonged_turns_left=0)
        destroyed_now = self.u.state in TERMINAL and self.was not in TERMINAL
        return Hit(self.u, panicked_now, destroyed_now, self.exp)


def _flag(flags: tuple[str, ...], flag: str) -> tuple[str, ...]:
    return flags if flag in flags else (*flags, flag)


def take_fire(
    u: UnitStatus,
    *,
    suppression: int,
    casualties: int,
    terror: bool = False,
    options: MoraleOptions = DEFAULT_OPTIONS,
) -> Hit:
    """A fire or assault result on a unit (XI.1–2, XI.8, III Terror)."""
    _refuse_terminal(u, MORALE_RULE)
    s = _count(suppression, msg("suppression"), MORALE_RULE)
    c = _count(casualties, msg("casualties"), MORALE_RULE)
    ch = _Change(replace(u, fired_upon=True), options)
    was_panicked = u.state == PANICKED
    if was_panicked and s:
        extra = s if options.panicked_casualty_per_point else 1
        ch.exp.add(STATE_RULE, msg("Panicked unit receives suppression: extra casualties"), extra)
        c += extra
    if options.casualties_before_suppression:
        ch.casualties(c, msg("casualty points taken"))
    if ch.u.state not in TERMINAL:
        ch.exp.add(
            MORALE_RULE,
            msg("morale lost to suppression (temporary)"),
            ch.lose(s, temporary="suppression"),
        )
    if not options.casualties_before_suppression and ch.u.state not in TERMINAL:
        ch.casualties(c, msg("casualty points taken"))
    if terror and ch.u.state not in TERMINAL:
        if ch.u.terrorised:
            ch.exp.add("M36-III Terror", msg("Terror already suffered this turn"), 0)
        else:
            temp = "terror_loss" if options.terror_is_temporary else ""
            ch.u = replace(ch.u, terrorised=True)
            ch.exp.add(
                "M36-III Terror", msg("Terror: −1 morale this turn"), ch.lose(1, temporary=temp)
            )
    return ch.settle()


def take_vehicle_damage(
    u: UnitStatus,
    *,
    crew_suppression: int,
    pe_loss: int,
    armour_loss: dict[str, int] | None = None,
    flags: tuple[str, ...] = (),
    options: MoraleOptions = DEFAULT_OPTIONS,
) -> Hit:
    """A vehicle hit: PE, armour and damage flags, crew morale (XI.5); PE 0 as `options.pe_zero`."""
    _refuse_terminal(u, VEHICLE_RULE)
    if u.kind != "vehicle":
        raise RuleError(msg("%(name)s is not a vehicle", name=u.name), rule=VEHICLE_RULE)
    s = _count(crew_suppression, msg("crew suppression"), VEHICLE_RULE)
    loss = _count(pe_loss, msg("PE loss"), VEHICLE_RULE)
    armour = dict(u.armour_loss)
    for facing, points in (armour_loss or {}).items():
        if facing not in FACINGS:
            raise RuleError(msg("unknown facing %(facing)s", facing=str(facing)), rule=VEHICLE_RULE)
        armour[facing] = armour.get(facing, 0) + _count(points, msg("armour loss"), VEHICLE_RULE)
    unknown = set(flags) - set(VEHICLE_FLAGS)
    if unknown:
        raise RuleError(
            msg("unknown vehicle damage %(flags)s", flags=", ".join(sorted(unknown))),
            rule=VEHICLE_RULE,
        )
    new_flags = u.flags
    for f in flags:
        if f != "crew_out":
            new_flags = _flag(new_flags, f)
    ch = _Change(replace(u, fired_upon=True, armour_loss=armour, flags=new_flags), options)
    pe = ch.exp.add(VEHICLE_RULE, msg("structure points (PE) left"), max(0, u.pe - loss))
    ch.u = replace(ch.u, pe=pe)
    ch.exp.add(
        VEHICLE_RULE, msg("crew morale lost to suppression"), ch.lose(s, temporary="suppression")
    )
    if "crew_out" in flags:
        ch.lose(ch.u.morale)
    if "destroyed" in new_flags or (pe == 0 and options.pe_zero == "destroyed"):
        ch.exp.add("M36-VI.3", msg("vehicle destroyed"), DESTROYED)
        ch.u = replace(ch.u, state=DESTROYED, flags=_flag(ch.u.flags, "destroyed"))
    elif pe == 0:
        ch.exp.add("M36-VI.3", msg("no PE left: out of action"), OUT)
        ch.u = replace(ch.u, state=OUT)
    return ch.settle()


def friends_see_panic(
    friends: list[UnitStatus], *, options: MoraleOptions = DEFAULT_OPTIONS
) -> list[Hit]:
    """Friendly units with LoS on a unit that panics lose 1 morale (XI.2); Indisciplinados
    3, Moral Férrea none (III). A unit panicking from this is reported; the caller repeats
    the call for the units that see it."""
    hits = []
    for u in friends:
        ch = _Change(u, options)
        if u.out_of_play:
            ch.exp.add(STATE_RULE, msg("out of play: unaffected"), 0)
            hits.append(Hit(u, explanation=ch.exp))
            continue
        if u.has_rule("Moral Férrea"):
            points = ch.exp.add(
                "M36-III Moral Férrea", msg("Moral Férrea ignores panicking friends"), 0
            )
        elif u.has_rule("Indisciplinados"):
            points = ch.exp.add("M36-III Indisciplinados", msg("Indisciplinados: −3 morale"), 3)
        else:
            points = ch.exp.add(STATE_RULE, msg("a friendly unit in sight panics: −1 morale"), 1)
        temp = "suppression" if options.panic_sight_is_temporary else ""
        ch.exp.add(STATE_RULE, msg("morale lost"), ch.lose(points, temporary=temp))
        hits.append(ch.settle())
    return hits


def begin_retreat(u: UnitStatus) -> UnitStatus:
    """A Pinned unit chooses voluntary retreat (XI.3); `end_retreat` when it reaches cover."""
    if u.state != PINNED or u.kind == "vehicle":
        raise RuleError(msg("only a Pinned unit may retreat voluntarily"), rule=RETREAT_RULE)
    return replace(u, state=RETREATING)


def end_retreat(u: UnitStatus) -> UnitStatus:
    """The retreating unit reached cover out of enemy sight: its state follows its morale."""
    if u.state != RETREATING:
        raise RuleError(msg("%(name)s is not retreating", name=u.name), rule=RETREAT_RULE)
    return replace(u, state=NORMAL if u.morale > PINNED_AT_MOST else PINNED)


def effective_fa(u: UnitStatus, fa: int | None) -> int | None:
    """FA of a decimated unit is halved, rounding down, at every range (XI.8)."""
    return fa // 2 if u.decimated and fa is not None else fa


def battalion_state(u: UnitStatus) -> UnitState:
    """The unit as counted by `morale.battalion_morale` (XI.7): a vehicle out of action counts
    as destroyed, a retreating unit as neither destroyed nor Panicked."""
    if u.out_of_play:
        return UnitState.DESTROYED
    return {PANICKED: UnitState.PANICKED, PINNED: UnitState.PINNED}.get(u.state, UnitState.NORMAL)
