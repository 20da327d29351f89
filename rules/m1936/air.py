"""Air support: what the seed gives while Section XIII is "in development" — the weather's
delay or ban of aircraft (XV.2–3) and the XVI.3 modifiers to an air attack.

The aircraft's base arrival time, its attack factor and the effect of its attack are not in
the seed: they are the caller's inputs. A bombed square reveals its tokens (`fog`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.errors import RuleError
from rules.explain import Explanation
from rules.i18n import msg
from rules.m1936.weather import EFFECTS_RULE, Weather, weather_effects
from rules.serial import Serializable

MODIFIER_RULE = "M36-XVI.3"
VENTISCA_TEXT_DELAY = 2  # XV.2: Ventisca applies Nevada's "+2 turns"


@dataclass(frozen=True)
class AirOptions(Serializable):
    """`ventisca_follows_text`: in Ventisca aircraft arrive 2 turns late (the XV.2 text gives
    it Nevada's effects) instead of not flying (the XV.3 summary table, the default)."""

    ventisca_follows_text: bool = False


DEFAULT_OPTIONS = AirOptions()


@dataclass(frozen=True)
class AirAvailability(Serializable):
    """Whether aircraft may fly in this weather and how many turns later than usual they
    arrive (None when they cannot fly)."""

    weather: Weather
    available: bool
    delay_turns: int | None
    explanation: Explanation = field(default_factory=Explanation, compare=False)


def air_available(weather: Weather, options: AirOptions = DEFAULT_OPTIONS) -> AirAvailability:
    exp = Explanation()
    weather = Weather(weather)
    delay = weather_effects(weather, exp).air_delay
    if weather is Weather.VENTISCA and options.ventisca_follows_text:
        delay = exp.add(
            "M36-XV.2",
            msg("Ventisca has the effects of Nevada: aircraft are delayed"),
            VENTISCA_TEXT_DELAY,
        )
    if delay is None:
        exp.add(EFFECTS_RULE, msg("%(weather)s: no air support", weather=weather), False)
        return AirAvailability(weather, False, None, exp)
    exp.add(
        EFFECTS_RULE,
        msg("%(weather)s: aircraft arrive %(delay)s turns later", weather=weather, delay=delay),
        delay,
    )
    return AirAvailability(weather, True, delay, exp)


def arrival_turn(
    *, requested_turn: int, base_turns: int, weather: Weather, options: AirOptions = DEFAULT_OPTIONS
) -> tuple[int | None, Explanation]:
    """The turn aircraft requested on `requested_turn` arrive: the scenario's base time (not
    in the seed) plus the weather's delay; None if they cannot fly."""
    for name, value in (("requested_turn", requested_turn), ("base_turns", base_turns)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RuleError(
                msg("%(name)s is a whole number ≥ 0, not %(value)s", name=name, value=str(value)),
                rule=EFFECTS_RULE,
            )
    status = air_available(weather, options)
    exp = Explanation(list(status.explanation))
    if not status.available:
        return None, exp
    turn = exp.add(
        EFFECTS_RULE,
        msg(
            "turn %(turn)s + %(base)s base turns (scenario) + %(delay)s (weather)",
            turn=requested_turn,
            base=base_turns,
            delay=status.delay_turns,
        ),
        requested_turn + base_turns + status.delay_turns,
    )
    return turn, exp


@dataclass(frozen=True)
class AirAttackMods(Serializable):
    """The XVI.3 situations of the target of an air attack."""

    prone: bool = False
    small_target: bool = False
    concealed: bool = False


def air_attack_modifier(mods: AirAttackMods) -> tuple[int, Explanation]:
    """The FA modifier of an air attack: −1 each for prone, small target, concealed."""
    exp = Explanation()
    total = 0
    for flag, text in (
        (mods.prone, msg("prone")),
        (mods.small_target, msg("small target")),
        (mods.concealed, msg("concealed")),
    ):
        if flag:
            total += exp.add(MODIFIER_RULE, text, -1)
    exp.add(MODIFIER_RULE, msg("air attack FA modifier"), total)
    return total, exp
