"""Artillery ammunition records [18.2, 24.6.c]: battery volleys by type and calibre.

A side's `AmmoRecord` holds its stocks (initial and remaining battery volleys per ammunition
type and calibre, as the scenario gives them) and its batteries. Every change validates
first, then changes the record and returns an `Explanation`; a refused change leaves the
record untouched. The record is JSON-safe (`to_dict` / `from_dict`). On-map artillery's
own limits (default factors, two steps to fire a mission) close the module [24.6].
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg
from rules.serial import Serializable
from rules.tcs.rounding import round_std

LEGACY_DIVISOR = 4  # TCS 2-01 … 2-05 allocations ÷ 4, Illum unchanged [18.2]
BATTALION_VOLLEYS = 3  # a battalion barrage marker costs three battery volleys [18.2.c]
ON_MAP_MIN_STEPS = 2  # on-map artillery needs two usable steps for a mission [24.6.e, 18.10.b]


class AmmoType(StrEnum):
    HE = "he"
    SMOKE = "smoke"
    ILLUM = "illum"


AMMO_WORDS: dict[AmmoType, Msg] = {
    AmmoType.HE: msg("HE"),
    AmmoType.SMOKE: msg("Smoke"),
    AmmoType.ILLUM: msg("Illum"),
}


@dataclass
class Stock(Serializable):
    """Battery volleys of one type and calibre: as issued and still unfired."""

    type: AmmoType
    calibre: str
    initial: int
    remaining: int


@dataclass
class Battery(Serializable):
    """A firing battery: barrage factors of its marker (Good / Bad Shoot side), whether it is
    on-map or rockets, the scenario's adjustment value if any, and what it did this turn."""

    name: str
    calibre: str
    calibre_mm: int | None = None
    on_map: bool = False
    good_af: int = 0
    bad_af: int = 0
    rocket: bool = False
    adjustment: int | None = None
    mission_used: bool = False
    illum_used: bool = False
    direct_fire_phase: str | None = None


@dataclass(frozen=True)
class Spent(Serializable):
    """What one mission took from the record, so a No Shoot can give it back [18.7.b]."""

    type: AmmoType
    calibre: str
    volleys: int
    batteries: tuple[str, ...]


@dataclass(frozen=True)
class AmmoChange:
    spent: Spent | None
    explanation: Explanation


def legacy_allocation(ammo_type: AmmoType, volleys: int) -> int:
    """A TCS 2-0x allocation in v4 battery volleys: ÷ 4 (standard rounding), Illum as is."""
    if volleys < 0:
        raise RuleError(msg("an allocation is not negative"), rule="18.2")
    if ammo_type is AmmoType.ILLUM:
        return volleys
    return round_std(Fraction(volleys, LEGACY_DIVISOR))


@dataclass
class AmmoRecord(Serializable):
    side: str
    stocks: list[Stock] = field(default_factory=list)
    batteries: list[Battery] = field(default_factory=list)

    def stock(self, ammo_type: AmmoType, calibre: str) -> Stock:
        found = next((s for s in self.stocks if s.type == ammo_type and s.calibre == calibre), None)
        if found is None:
            raise RuleError(
                msg(
                    "%(side)s has no %(type)s ammunition for %(calibre)s",
                    side=self.side,
                    type=AMMO_WORDS[AmmoType(ammo_type)],
                    calibre=calibre,
                ),
                rule="18.2.a",
            )
        return found

    def battery(self, name: str) -> Battery:
        found = next((b for b in self.batteries if b.name == name), None)
        if found is None:
            raise RuleError(msg("no battery named %(name)s", name=name), rule="18.2.a")
        return found

    def add_stock(self, ammo_type: AmmoType, calibre: str, volleys: int) -> Explanation:
        if volleys < 0:
            raise RuleError(msg("an allocation is not negative"), rule="18.2")
        if any(s.type == ammo_type and s.calibre == calibre for s in self.stocks):
            raise RuleError(msg("that stock is already listed"), rule="18.2.a")
        self.stocks.append(Stock(AmmoType(ammo_type), calibre, volleys, volleys))
        exp = Explanation()
        exp.add(
            "18.2",
            msg(
                "%(type)s, %(calibre)s: battery volleys issued",
                type=AMMO_WORDS[ammo_type],
                calibre=calibre,
            ),
            volleys,
        )
        return exp

    def spend_mission(
        self,
        batteries: Sequence[str],
        ammo_type: AmmoType,
        volleys: int,
        *,
        illum: bool = False,
    ) -> AmmoChange:
        """Cross off one mission's volleys when it is fired [18.2.a]: one ammunition type
        [18.2.b], batteries that have not fired this kind of mission this turn [18.1.b]."""
        ammo_type = AmmoType(ammo_type)
        if not batteries:
            raise RuleError(msg("name the firing battery or batteries"), rule="18.2.a")
        if len(set(batteries)) != len(batteries):
            raise RuleError(msg("a battery is named twice"), rule="18.2.a")
        found = [self.battery(n) for n in batteries]
        if illum != (ammo_type is AmmoType.ILLUM):
            raise RuleError(
                msg("an illumination mission fires Illum ammunition and nothing else"),
                rule="18.2.b",
            )
        for b in found:
            if b.illum_used if illum else b.mission_used:
                raise RuleError(
                    msg("%(name)s has already fired its mission this turn", name=b.name),
                    rule="18.1.b",
                )
        calibres = {b.calibre for b in found}
        if len(calibres) > 1:
            raise RuleError(
                msg("one mission spends one calibre: these batteries mix calibres"),
                rule="18.2.b",
            )
        calibre = calibres.pop()
        stock = self.stock(ammo_type, calibre)
        if volleys < 1:
            raise RuleError(msg("a mission costs at least one volley"), rule="18.2.c")
        if volleys > stock.remaining:
            raise RuleError(
                msg(
                    "%(need)s volleys needed, %(left)s %(type)s left for %(calibre)s",
                    need=volleys,
                    left=stock.remaining,
                    type=AMMO_WORDS[ammo_type],
                    calibre=calibre,
                ),
                rule="18.2.a",
            )
        stock.remaining -= volleys
        for b in found:
            if illum:
                b.illum_used = True
            else:
                b.mission_used = True
        exp = Explanation()
        exp.add(
            "18.2.a",
            msg(
                "%(type)s, %(calibre)s: %(n)s volleys crossed off",
                type=AMMO_WORDS[ammo_type],
                calibre=calibre,
                n=volleys,
            ),
            stock.remaining,
        )
        return AmmoChange(Spent(ammo_type, calibre, volleys, tuple(batteries)), exp)

    def refund(self, spent: Spent) -> Explanation:
        """No Shoot: the volleys go back to the stock [18.7.b]; the batteries still count
        their mission as fired (a mission cannot be cancelled [18.1.c])."""
        stock = self.stock(spent.type, spent.calibre)
        if stock.remaining + spent.volleys > stock.initial:
            raise RuleError(msg("this refund would exceed the volleys issued"), rule="18.7.b")
        stock.remaining += spent.volleys
        exp = Explanation()
        exp.add(
            "18.7.b",
            msg("No Shoot: %(n)s volleys returned", n=spent.volleys),
            stock.remaining,
        )
        return exp

    def spend_direct_fire(self, battery: str, phase: str) -> Explanation:
        """On-map artillery firing directly spends 1 HE volley per phase in which it fires,
        whatever the tubes or shots [24.6.c]."""
        b = self.battery(battery)
        exp = Explanation()
        if not b.on_map:
            raise RuleError(msg("%(name)s is not on-map artillery", name=b.name), rule="24.6.c")
        if b.direct_fire_phase == phase:
            exp.add("24.6.c", msg("already paid for direct fire this phase"), 0)
            return exp
        stock = self.stock(AmmoType.HE, b.calibre)
        if stock.remaining < 1:
            raise RuleError(msg("no HE volley left for direct fire"), rule="24.6.c")
        stock.remaining -= 1
        b.direct_fire_phase = phase
        exp.add("24.6.c", msg("direct fire this phase: 1 HE volley"), stock.remaining)
        return exp

    def new_turn(self) -> Explanation:
        """Every battery may fire one mission and one illumination mission again [18.1.b]."""
        for b in self.batteries:
            b.mission_used = b.illum_used = False
        exp = Explanation()
        exp.add("18.1.b", msg("new turn: every battery may fire again"))
        return exp


def on_map_default_factor(calibre_mm: int) -> tuple[int, int]:
    """Area factor and range for on-map artillery with no printed factor [24.6.b]."""
    if calibre_mm < 100:
        return 4, 14
    if calibre_mm <= 130:
        return 6, 24
    return 8, 40


def check_on_map_mission(
    *, steps: int, fire_mode: bool, fired: bool, suppressed: bool, paralyzed: bool
) -> None:
    """On-map artillery may fire a mission with 2+ steps in Fire mode, unmarked [24.6.e]."""
    if steps < ON_MAP_MIN_STEPS:
        raise RuleError(msg("on-map artillery needs two steps to fire a mission"), rule="24.6.e")
    if not fire_mode or fired or suppressed or paralyzed:
        raise RuleError(
            msg("on-map artillery must be in Fire mode, not Fired, Suppressed or Paralyzed"),
            rule="24.6.e",
        )


def continuous_stays(usable_steps: int, exp: Explanation) -> bool:
    """After the overwatch its mission drew, a continuous barrage of on-map artillery stays
    only with 2+ unsuppressed, unparalyzed steps [24.6.f, 18.10.b]."""
    stays = usable_steps >= ON_MAP_MIN_STEPS
    exp.add(
        "18.10.b",
        msg("continuous barrage stays") if stays else msg("continuous barrage removed"),
        usable_steps,
    )
    return stays
