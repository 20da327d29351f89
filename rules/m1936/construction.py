"""Construction points and fortifications (Section VIII).

During deployment the defender gets 4 points per unit with shovels, 16 per unit with
Herramientas de Construcción and 4 per day of waiting (VIII.5), and spends them on
fortifications at their Coste. The pool is a ledger of entries and never goes negative.
HE fire wears fortifications down a structure point at a time (VIII.3).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import Msg, msg, nmsg
from rules.m1936.data import parse_rule
from rules.serial import Serializable

RULE = "M36-VIII.5"
COVER_RULE = "M36-VIII.1"
STRUCTURE_RULE = "M36-VIII.3"
SHOVEL_POINTS = 4
TOOL_POINTS = 16
WAITING_DAY_POINTS = 4
SHOVEL_RULES = frozenset({"Palas improvisadas", "Palas reglamentarias", "Cavar"})
CONSTRUCTION_TOOLS = "Herramientas de Construcción"
EXCAVATION_TOOLS = "Herramientas de Excavación"
RUBBLE = "Escombros"


@dataclass(frozen=True)
class CoverType(Serializable):
    """A row of "Coberturas y fortificaciones". `tools_required` is None where the seed cell
    is blank (read as required, see DECISIONS.md); `cost` None: cannot be built."""

    name: str
    capacity: str
    armour: int
    cover: int
    structure: int | None
    cost: int | None
    tools_required: bool | None


_ONE = "1 sección y 1 peana de individual o 3 peanas individuales"
_INDIVIDUAL = "1 peana individual"
COVER_TYPES: dict[str, CoverType] = {
    c.name: c
    for c in (
        CoverType(RUBBLE, _ONE, 6, 1, None, None, None),
        CoverType("Casa", _ONE, 3, 3, 4, None, None),
        CoverType("Casa de Piedra", _ONE, 5, 3, 5, None, None),
        CoverType("Muro", _ONE, 4, 2, 4, None, None),
        CoverType("Bosque", _ONE, 3, 2, None, None, None),
        CoverType("Pozo de tirador", _ONE, 7, 2, 4, 2, False),
        CoverType("Trinchera", _ONE, 8, 2, 6, 4, False),
        CoverType("Trinchera reforzada", _ONE, 9, 2, 7, 6, None),
        CoverType("Nido", _INDIVIDUAL, 9, 3, 6, 3, None),
        CoverType("Blocao", _ONE, 9, 3, 7, 8, None),
        CoverType("Casamata", _INDIVIDUAL, 15, 3, 8, 8, None),
        CoverType("Búnker", _ONE, 15, 3, 8, 12, None),
        CoverType("Colina nivel 0-1", _ONE, 30, 2, None, None, None),
        CoverType(
            "Colina nivel 2",
            "2 secciónes y 2 peana de individual o 6 peanas individuales",
            30,
            2,
            None,
            None,
            None,
        ),
        CoverType("Alambrada", "-", 3, 1, 1, 1, False),
    )
}


def cover_type(name: str) -> CoverType:
    if name not in COVER_TYPES:
        raise RuleError(
            msg("%(name)s is not in the cover and fortification table", name=str(name)),
            rule=COVER_RULE,
        )
    return COVER_TYPES[name]


@dataclass(frozen=True)
class ConstructionOptions(Serializable):
    """No unit has Herramientas de Construcción; by default Herramientas de Excavación counts
    as it. A unit with shovels and tools gives 16, or 20 with `shovels_add_to_tools`."""

    excavation_tools_count: bool = True
    shovels_add_to_tools: bool = False


DEFAULT_OPTIONS = ConstructionOptions()


@dataclass(frozen=True)
class LedgerEntry(Serializable):
    amount: int
    reason: str | Msg
    rule: str


@dataclass(frozen=True)
class Fortification(Serializable):
    kind: str
    structure: int | None
    max_structure: int | None

    @classmethod
    def of(cls, kind: str) -> Fortification:
        spec = cover_type(kind)
        return cls(spec.name, spec.structure, spec.structure)


@dataclass(frozen=True)
class ConstructionPool(Serializable):
    """The defender's construction points: a ledger and the fortifications bought."""

    entries: tuple[LedgerEntry, ...] = ()
    has_construction_tools: bool = False
    fortifications: tuple[Fortification, ...] = ()
    explanation: Explanation = field(default_factory=Explanation, compare=False)

    @property
    def balance(self) -> int:
        return sum(e.amount for e in self.entries)

    def add(self, amount: int, reason: str | Msg, rule: str = RULE) -> ConstructionPool:
        """Record points gained (amount > 0) or spent (amount < 0); the pool stays ≥ 0."""
        if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0:
            raise RuleError(
                msg(
                    "a ledger entry is a non-zero whole number, not %(amount)s", amount=str(amount)
                ),
                rule=rule,
            )
        if self.balance + amount < 0:
            raise RuleError(
                msg(
                    "%(reason)s needs %(v)s construction points; only %(balance)s left",
                    reason=reason,
                    v=-amount,
                    balance=self.balance,
                ),
                rule=rule,
            )
        exp = Explanation(list(self.explanation))
        exp.add(rule, reason, amount)
        return dataclasses.replace(
            self, entries=(*self.entries, LedgerEntry(amount, reason, rule)), explanation=exp
        )


def _has(rules: Collection[str], names: Collection[str]) -> bool:
    return any(parse_rule(r)[0] in names for r in rules)


def construction_pool(
    units: Mapping[str, Collection[str]],
    waiting_days: int = 0,
    options: ConstructionOptions = DEFAULT_OPTIONS,
) -> ConstructionPool:
    """Points from the defender's units (label → special rules, e.g. from
    `army.effective_rules`) and days of waiting."""
    if isinstance(waiting_days, bool) or not isinstance(waiting_days, int) or waiting_days < 0:
        raise RuleError(
            msg(
                "days of waiting is a whole number ≥ 0, not %(waiting_days)s",
                waiting_days=str(waiting_days),
            ),
            rule=RULE,
        )
    tools = {CONSTRUCTION_TOOLS} | ({EXCAVATION_TOOLS} if options.excavation_tools_count else set())
    pool = ConstructionPool(has_construction_tools=any(_has(r, tools) for r in units.values()))
    for label, rules in units.items():
        has_tools, has_shovels = _has(rules, tools), _has(rules, SHOVEL_RULES)
        if has_tools:
            pool = pool.add(
                TOOL_POINTS, msg("%(unit)s: construction tools", unit=label), "M36-VIII.5.2"
            )
        if has_shovels and (options.shovels_add_to_tools or not has_tools):
            pool = pool.add(SHOVEL_POINTS, msg("%(unit)s: shovels", unit=label), "M36-VIII.5.1")
    if waiting_days:
        pool = pool.add(
            WAITING_DAY_POINTS * waiting_days,
            nmsg("%(n)s day of waiting", "%(n)s days of waiting", waiting_days),
            "M36-VIII.5.3",
        )
    return pool


def buy_fortification(pool: ConstructionPool, kind: str, count: int = 1) -> ConstructionPool:
    """Spend the fortification's Coste per piece (VIII.5.4: only those with a cost; some need
    construction tools)."""
    spec = cover_type(kind)
    if spec.cost is None:
        raise RuleError(
            msg("%(name)s has no cost and cannot be built", name=spec.name), rule="M36-VIII.5.4"
        )
    if spec.tools_required is not False and not pool.has_construction_tools:
        raise RuleError(
            msg(
                "%(name)s needs a unit with %(construction_tools)s",
                name=spec.name,
                construction_tools=CONSTRUCTION_TOOLS,
            ),
            rule="M36-VIII.5.4",
        )
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise RuleError(
            msg("buy at least one %(name)s, not %(count)s", name=spec.name, count=str(count)),
            rule=RULE,
        )
    bought = pool.add(
        -spec.cost * count,
        msg("%(count)s × %(name)s at %(cost)s", count=count, name=spec.name, cost=spec.cost),
        RULE,
    )
    return dataclasses.replace(
        bought, fortifications=(*pool.fortifications, *[Fortification.of(kind)] * count)
    )


@dataclass(frozen=True)
class FortificationDamage(Serializable):
    fortification: Fortification
    structure_lost: int
    destroyed: bool
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def damage_fortification(fort: Fortification, damage: int, *, he: bool) -> FortificationDamage:
    """Only HE damages fortifications: damage ≥ current structure costs 1 structure point;
    at 0 the element is destroyed and becomes Escombros (VIII.3)."""
    exp = Explanation()
    if isinstance(damage, bool) or not isinstance(damage, int):
        raise RuleError(
            msg("damage is a whole number, not %(damage)s", damage=str(damage)), rule=STRUCTURE_RULE
        )
    if not he or fort.structure is None:
        why = "only HE ammunition damages fortifications" if not he else "it has no structure"
        exp.add(STRUCTURE_RULE, msg("%(kind)s unharmed: %(why)s", kind=fort.kind, why=why), 0)
        return FortificationDamage(fort, 0, False, exp)
    lost = exp.add(
        STRUCTURE_RULE,
        msg(
            "HE damage %(damage)s against %(kind)s structure %(structure)s",
            damage=damage,
            kind=fort.kind,
            structure=fort.structure,
        ),
        1 if damage >= fort.structure else 0,
    )
    left = fort.structure - lost
    if left > 0:
        return FortificationDamage(dataclasses.replace(fort, structure=left), lost, False, exp)
    exp.add(STRUCTURE_RULE, msg("%(kind)s destroyed, replaced by rubble", kind=fort.kind), RUBBLE)
    return FortificationDamage(Fortification.of(RUBBLE), lost, True, exp)
