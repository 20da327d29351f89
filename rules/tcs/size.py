"""Op sheet size with the staff modifier [6.9.b, 6.9.c]."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from rules.explain import Explanation
from rules.i18n import msg
from rules.tcs.units import OrderOfBattle


@dataclass
class SizeResult:
    """`raw` counts elements [6.9.b]; `size` applies the staff modifier once [6.9.c]."""

    raw: int
    staff_modifier: int
    size: int
    elements: tuple[str, ...]
    complete_battalions: tuple[str, ...]
    explanation: Explanation = field(default_factory=Explanation)


def sheet_size(unit_ids: Iterable[str], oob: OrderOfBattle) -> SizeResult:
    """Count the elements among the listed units and apply the staff modifier.

    An element is one formation with battalion or vehicle morale [6.9.b]. A battalion among
    the elements whose surviving units are all listed gives −1, once per sheet [6.9.c]; a
    battalion without such morale is not an element and so never gives it (ambiguity 15).
    """
    listed = set(unit_ids)
    exp = Explanation()
    elements = tuple(sorted({e for u in listed if (e := oob.element(u)) is not None}))
    ignored = sorted(u for u in listed if oob.element(u) is None)
    if ignored:
        exp.add(
            "6.9.b",
            msg("no battalion or vehicle morale, add 0: %(units)s", units=", ".join(ignored)),
        )
    exp.add(
        "6.9.b", msg("elements: %(units)s", units=", ".join(elements) or msg("none")), len(elements)
    )
    complete = tuple(
        f
        for f in elements
        if oob.formations[f].battalion and oob.surviving(f) and oob.surviving(f) <= listed
    )
    staff = -1 if complete else 0
    if complete:
        exp.add(
            "6.9.c",
            msg("complete battalion listed (%(units)s): staff modifier", units=", ".join(complete)),
            -1,
        )
    size = len(elements) + staff
    exp.add("6.9.b", msg("op sheet size"), size)
    return SizeResult(len(elements), staff, size, elements, complete, exp)
