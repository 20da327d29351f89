"""Firing units and target units typed one per line, as read off the counters on the map.

A firer line is "name; kind; factor; steps; range", then any of "printed N" (its printed
range), "max N" (its printed steps, for halving after a loss [10.0.b]), "p" (a P-firer that
may area fire to twice its range [11.1.e]) and "high" (high trajectory), and what the fire
action rules ask of it [13.1, 14.1, 15.3]: "fired", "moved", "unassigned", "suppressed",
"paralyzed", "mounted", "towed", "switched" (not in Fire mode since the phase began), "sfa"
or "at" (already made one this phase), "pfas N" and "hex X" (its hex). A target line is
"name; steps; type; mode", then any of "pdef N" (its P-defence), "carried", "on vehicle" and
"towed". The rulebook's Spanish words are read too ("infantería", "mortero", "movimiento",
"atrincherada" …), accents optional.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.tcs.fire import Firer, FirerKind, TargetType, TargetUnit
from rules.tcs.fire_actions import FirerState
from rules.tcs.fire_tables import Posture

MAX_LINES = 24
SPANISH = {
    "infanteria": "infantry",
    "ametralladora": "mg",
    "mortero": "mortar",
    "transporte": "transport",
    "anticarro": "at_gun",
    "at": "at_gun",
    "canon": "gun",
    "artilleria": "artillery",
    "vehiculo": "vehicle",
    "fuego": "fire",
    "movimiento": "move",
    "atrincherada": "dug_in",
    "atrincherado": "dug_in",
    "transportada": "carried",
    "transportado": "carried",
    "remolcada": "towed",
    "remolcado": "towed",
    "impreso": "printed",
    "movida": "moved",
    "movido": "moved",
    "suprimida": "suppressed",
    "suprimido": "suppressed",
    "paralizada": "paralyzed",
    "paralizado": "paralyzed",
    "montada": "mounted",
    "montado": "mounted",
    "hexagono": "hex",
    "alta": "high",
    "pdef": "pdef",
}
ALIASES = {"dug in": "dug_in", "at gun": "at_gun", "on vehicle": "on_vehicle", "b0": "B-0"}
FIRER_HELP = gettext_lazy(
    "One firing unit per line: “name; kind; factor; steps; range”, then any of “printed N” "
    "(its printed range), “max N” (its printed steps), “p” (a P-firer), “high” (high "
    "trajectory), and for the fire action's checks: fired, moved, unassigned, suppressed, "
    "paralyzed, mounted, towed, switched, sfa, at, “pfas N”, “hex X”. Kinds: infantry, mg, "
    "mortar, transport, at gun, gun, artillery, vehicle."
)
STATE_FLAGS = {
    "fired",
    "moved",
    "unassigned",
    "suppressed",
    "paralyzed",
    "mounted",
    "towed",
    "switched",
    "sfa",
    "at",
}
TARGET_HELP = gettext_lazy(
    "One unit of the target hex per line: “name; steps; type; mode”, then any of “pdef N” "
    "(its P-defence), “carried”, “on vehicle” and “towed”. Types: A, P, B-0, B-1; modes: "
    "fire, move, dug in."
)


def word(text: str) -> str:
    """A typed word as its English keyword: lower-cased, accents off, Spanish read."""
    plain = "".join(
        c
        for c in unicodedata.normalize("NFD", text.strip().lower())
        if not unicodedata.combining(c)
    )
    plain = ALIASES.get(plain, plain)
    return SPANISH.get(plain, plain)


def _lines(text: str | Iterable[str], field: str) -> list[tuple[int, list[str]]]:
    raw = text.splitlines() if isinstance(text, str) else [str(t) for t in text]
    rows = [(n, [p.strip() for p in line.split(";")]) for n, line in enumerate(raw, 1)]
    rows = [(n, parts) for n, parts in rows if any(parts)]
    if not rows:
        raise ValidationError({field: _("Write at least one line.")})
    if len(rows) > MAX_LINES:
        raise ValidationError({field: _("At most %(n)s lines.") % {"n": MAX_LINES}})
    return rows


def _number(text: str, n: int, what: str, field: str, low: int = 0, high: int = 999) -> int:
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise ValidationError(
            {
                field: _("Line %(n)s: the %(what)s must be a whole number from %(a)s to %(b)s.")
                % {"n": n, "what": what, "a": low, "b": high}
            }
        )
    return value


def _extras(parts: list[str], n: int, field: str, numbers: set[str], flags: set[str]):
    found: dict[str, int | bool | str] = {}
    for part in parts:
        name, _space, rest = part.strip().partition(" ")
        raw = part.strip().lower()
        key = raw if raw in flags else word(part) if word(part) in flags else word(name)
        if key == "hex" and rest:
            found["hex"] = rest.strip()[:20]
        elif key in numbers and rest:
            found[key] = _number(rest, n, key, field)
        elif key in flags:
            found[key] = True
        elif part.strip():
            raise ValidationError(
                {field: _("Line %(n)s: “%(part)s” is not understood.") % {"n": n, "part": part}}
            )
    return found


def parse_firers(text: str | Iterable[str], field: str = "firers") -> list[Firer]:
    return [firer for firer, _state in parse_firer_lines(text, field)]


def parse_firer_lines(
    text: str | Iterable[str], field: str = "firers"
) -> list[tuple[Firer, FirerState]]:
    """Each firer with what the fire action rules ask of it [13.1, 14.1, 15.3]."""
    firers = []
    for n, parts in _lines(text, field):
        if len(parts) < 5 or not parts[0]:
            raise ValidationError(
                {field: _("Line %(n)s: write “name; kind; factor; steps; range”.") % {"n": n}}
            )
        try:
            kind = FirerKind(word(parts[1]))
        except ValueError:
            raise ValidationError(
                {field: _("Line %(n)s: “%(k)s” is not a kind of firer.") % {"n": n, "k": parts[1]}}
            ) from None
        extra = _extras(
            parts[5:], n, field, {"printed", "max", "pfas"}, {"p", "high", *STATE_FLAGS}
        )
        firer = Firer(
            id=parts[0][:40],
            kind=kind,
            af=_number(parts[2], n, _("factor"), field, 0, 200),
            steps=_number(parts[3], n, _("steps"), field, 1, 30),
            range=_number(parts[4], n, _("range"), field, 0, 200),
            printed_range=extra.get("printed"),
            max_steps=extra.get("max"),
            p_firer=bool(extra.get("p")),
            high_trajectory=bool(extra.get("high")),
        )
        state = FirerState(
            id=firer.id,
            kind=kind,
            hex=str(extra.get("hex", "")),
            fire_mode_since_start=not extra.get("switched"),
            fired_marker=bool(extra.get("fired")),
            unassigned=bool(extra.get("unassigned")),
            suppressed=bool(extra.get("suppressed")),
            paralyzed=bool(extra.get("paralyzed")),
            mounted=bool(extra.get("mounted")),
            towed=bool(extra.get("towed")),
            moved=bool(extra.get("moved")),
            made_sfa=bool(extra.get("sfa")),
            made_at_roll=bool(extra.get("at")),
            pfas=int(extra.get("pfas", 0)),
        )
        firers.append((firer, state))
    return firers


def parse_targets(text: str | Iterable[str], field: str = "targets") -> list[TargetUnit]:
    targets = []
    for n, parts in _lines(text, field):
        if len(parts) < 4 or not parts[0]:
            raise ValidationError(
                {field: _("Line %(n)s: write “name; steps; type; mode”.") % {"n": n}}
            )
        kind = parts[2].strip().upper().replace(" ", "")
        kind = ALIASES.get(kind.lower(), kind)
        if kind not in {t.value for t in TargetType}:
            raise ValidationError(
                {field: _("Line %(n)s: the type is A, P, B-0 or B-1.") % {"n": n}}
            )
        try:
            posture = Posture(word(parts[3]))
        except ValueError:
            raise ValidationError(
                {field: _("Line %(n)s: the mode is fire, move or dug in.") % {"n": n}}
            ) from None
        extra = _extras(parts[4:], n, field, {"pdef"}, {"carried", "on_vehicle", "towed"})
        targets.append(
            TargetUnit(
                id=parts[0][:40],
                steps=_number(parts[1], n, _("steps"), field, 1, 30),
                type=TargetType(kind),
                posture=posture,
                p_defense=int(extra.get("pdef", 0)),
                carried=bool(extra.get("carried")),
                on_vehicle=bool(extra.get("on_vehicle")),
                towed=bool(extra.get("towed")),
            )
        )
    return targets
