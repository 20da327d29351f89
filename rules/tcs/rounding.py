"""Standard rounding [1.4]: .00–.49 down, .50–.99 up, once, after every modification."""

from __future__ import annotations

import math
from fractions import Fraction


def round_std(value: Fraction | int) -> int:
    """Round a non-negative exact value the TCS way [1.4]; pass fractions, never floats."""
    return math.floor(Fraction(value) + Fraction(1, 2))
