"""The limits of every free value the app stores: one constant per quantity.

Models declare them (`max_length` plus `MaxLengthValidator` on text, `Min`/`MaxValueValidator`
on numbers, `finite` on floats, `JsonSize` on JSON); forms and serializers derive theirs from
the model field or import the same constant; services that take values from elsewhere (JSON
and CSV imports) check them with `check_values`. A test walks every model so a new field
without bounds fails the suite (tests/web/test_input_bounds.py).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator, MaxValueValidator, MinValueValidator
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext_lazy as _

# Text (characters).
DESCRIPTION_MAX = 4_000  # campaign and club descriptions
NOTES_MAX = 4_000  # what a player writes on an op sheet
SERVER_TEXT_MAX = 4_000  # text the rules engine writes (prompts, why a procedure stopped)

# Numbers: (lowest, highest), both included.
COUNTER = (0, 2_147_483_647)  # server-assigned sequence numbers, versions, list positions
SIDE_ORDER = (0, 99)
BATTLE_NUMBER = (0, 9_999)
CHOICES = (0, 100)  # how many options a decision asks for
LEAGUE_POINTS = (-100.0, 100.0)  # points for a win, a draw or a loss
ELO_RATING = (0.0, 4_000.0)  # initial Elo and the lowest rating of a K band
K_FACTOR = (0.0, 200.0)  # Elo K of a band (the engine also wants K > 0)
K_BANDS_MAX = 20  # rating bands in a league
BALANCE_MIN_PLAYS = (1, 1_000)
ROUND = (1, 999)
VP = (0, 999)  # victory points of one side
VP_MARGIN = (-999, 999)  # a VP change or a winner's margin
DECISION_NUMBER = (-9_999, 9_999)  # a number a decision asks for
CASUALTIES = (0, 999)
TIME_SPACE = (0, 99)
RESULT_DETAILS = {  # a league result's Combat Commander figures
    "time_space": TIME_SPACE,
    "vp_a": VP_MARGIN,  # a skirmish scores below zero (Parabellum: −3)
    "vp_b": VP_MARGIN,
    "casualties_a": CASUALTIES,
    "casualties_b": CASUALTIES,
}
RATING_VALUE = (-10_000.0, 10_000.0)  # Elo or OpenSkill ordinal, and their changes
RATING_SIGMA = (0.0, 10_000.0)  # OpenSkill mu and sigma
GAMES = COUNTER
SIDE_INDEX = (0, 1)  # the two sides of a skirmish
PRIORITY_ORDER = (1, 3)  # Parabellum sealed priority order [9.2]
PO = (0, 999)  # Parabellum orders points
COMMAND_PREP_RATING = (0, 12)  # TCS [6.9.a]
STEPS = (1, 30)  # steps of a TCS unit
STEPS_LOST = (0, 30)
TURN = (0, 9_999)
MORALE = (0, 99)  # a TCS battalion morale value
UNIT_MORALE = (0, 20)  # a TCS counter's printed morale [17.2]
TRACK_BOX_POINTS = (0, 3)  # a vehicle morale track box: 0 a circle, 1-3 a square [17.8.a]
TRACK_BOXES_MAX = 60
BATTLES_TO_PROMOTE = (1, 99)  # Parabellum house rule HR-2
ROSTER_POINTS = (1, 9_999)  # an agreed army budget
DISTANCE_CM = (0.0, 500.0)  # a measured distance on the table
ELEMENT_COUNT = (0, 999)  # how many of one element (1936 plans)
ELEMENT_COUNT_1 = (1, 999)
WAITING_DAYS = (0, 999)
HOUSE_RULES = {  # the numbers of a roster's house rules
    "recovery_target": (3, 19),  # HR-1: a 3D6 target
    "battles_to_regular": BATTLES_TO_PROMOTE,
    "battles_to_veteran": BATTLES_TO_PROMOTE,
    "po_carry_over_cap": PO,
}

# JSON the user writes (serialised size, characters).
JSON_SMALL = 10_000  # details of a result, house rules, an answer, settings lists
JSON_TABLES = 200_000  # Combat Commander tables, a TCS Command Prep table

# Other text a form or serializer takes (characters).
DICE_TEXT_MAX = 40  # dice typed as on the table: "3,4"
CSV_TEXT_MAX = 2_000_000  # a pasted CSV (results, order of battle)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


@deconstructible
class FiniteValidator:
    """Refuse infinities and NaN (a float field would otherwise store `1e309` as inf)."""

    message = _("Enter a finite number.")
    code = "not_finite"

    def __call__(self, value: Any) -> None:
        if isinstance(value, float) and not math.isfinite(value):
            raise ValidationError(self.message, code=self.code)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FiniteValidator)

    def __hash__(self) -> int:
        return hash(type(self))


finite = FiniteValidator()


@deconstructible
class JsonSizeValidator:
    """Refuse JSON whose serialised form is longer than `limit` characters."""

    code = "json_too_large"

    def __init__(self, limit: int):
        self.limit = limit

    def __call__(self, value: Any) -> None:
        try:
            size = len(json.dumps(value, allow_nan=False, default=str))
        except (TypeError, ValueError, RecursionError):
            raise ValidationError(
                _("Enter valid JSON of finite numbers."), code=self.code
            ) from None
        if size > self.limit:
            raise ValidationError(
                _("Keep it to %(limit)s characters of JSON (it has %(size)s).")
                % {"limit": self.limit, "size": size},
                code=self.code,
            )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JsonSizeValidator) and other.limit == self.limit

    def __hash__(self) -> int:
        return hash((type(self), self.limit))


def text(limit: int) -> dict[str, Any]:
    """Keyword arguments of a bounded TextField: `max_length` (forms and serializers read it)
    and the validator that enforces it on the model."""
    return {"max_length": limit, "validators": [MaxLengthValidator(limit)]}


def between(bounds: tuple[float, float]) -> list:
    low, high = bounds
    return [MinValueValidator(low), MaxValueValidator(high)]


def real(bounds: tuple[float, float]) -> list:
    """Validators of a float quantity: its range, and finite."""
    return [finite, *between(bounds)]


def form_range(bounds: tuple[float, float]) -> dict[str, float]:
    """`min_value`/`max_value` of a form or serializer field."""
    return {"min_value": bounds[0], "max_value": bounds[1]}


def json_size(limit: int) -> list:
    return [JsonSizeValidator(limit)]


def in_range(value: Any, bounds: tuple[float, float]) -> bool:
    """A number (not a bool, not NaN) from low to high; any size of int is fine to ask."""
    return _number(value) and bounds[0] <= value <= bounds[1]


def range_message(bounds: tuple[float, float]) -> str:
    low, high = bounds
    if isinstance(low, int) and isinstance(high, int):
        return _("Enter a whole number from %(low)s to %(high)s.") % {"low": low, "high": high}
    return _("Enter a number from %(low)g to %(high)g.") % {"low": low, "high": high}


def check_values(model, values: Mapping[str, Any], fields: Iterable[str] | None = None) -> None:
    """Run the model fields' own validators over `values` (the ones among `fields`, default
    all that are model fields): one mechanism for services that take values from elsewhere.
    Raises one ValidationError naming every refused field."""
    names = {f.name: f for f in model._meta.concrete_fields}
    errors: dict[str, list] = {}
    for key in fields if fields is not None else values:
        field = names.get(key)
        if field is None or key not in values:
            continue
        value = values[key]
        if value in field.empty_values:
            continue
        try:
            field.run_validators(value)
        except ValidationError as exc:
            errors[key] = exc.messages
    if errors:
        raise ValidationError(errors)
