"""Fog of war in a "1936" battle (XIV.1–5): a token is revealed by its owner, by the other
side when the end-of-turn check (XIV.4) says so with the inputs typed, or by a bombardment of
its square (XIV.5). A decoy revealed leaves play. Until then the other side sees only the
token's number."""

from __future__ import annotations

from dataclasses import replace

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.models import SkirmishBattle, SkirmishEvent
from campaigns.rosters.engine import M1936
from campaigns.services.skirmish.common import engine_errors, log_event, playing
from campaigns.services.skirmish.m36_battle import state as st
from rules.explain import Explanation
from rules.i18n import msg
from rules.m1936 import fog as m36f


def reveal_numbers(battle, side, units, numbers, exp: Explanation, rule: str) -> list[int]:
    """Reveal `side`'s tokens with these numbers in `units` (changed in place) and drop its
    decoys among them from `battle.play`; returns the numbers revealed or removed."""
    decoys = list((battle.play or {}).get("decoys", {}).get(str(side.index), []))
    tokens = [m36f.Token(u.token, k, "") for k, u in units.items() if u.token is not None]
    tokens += [m36f.Token(n, None, "") for n in decoys]
    known = {t.number for t in tokens if not t.revealed}
    hidden = {t.number for t in tokens if t.unit_key is None or not units[t.unit_key].revealed}
    wanted = [n for n in numbers if n in known & hidden]
    update = m36f.reveal_tokens(tokens, wanted, rule)
    for step in update.explanation:
        exp.add(step.rule, msg("token revealed"), step.value)
    for t in update.tokens:
        if t.unit_key is not None and t.number in update.revealed:
            units[t.unit_key] = replace(units[t.unit_key], revealed=True)
    if update.decoys_removed:
        play = dict(battle.play)
        play["decoys"] = {
            **play.get("decoys", {}),
            str(side.index): [n for n in decoys if n not in update.decoys_removed],
        }
        battle.play = play
    return sorted(wanted)


def m36_reveal(
    *,
    battle: SkirmishBattle,
    actor,
    whose: str,
    token: int,
    in_los: bool,
    square_has_cover: bool,
    squares_away: int | None,
    observer: str,
) -> SkirmishEvent:
    """`whose` "mine": the owner reveals his token. "theirs": a revealed unit of mine
    (`observer`) checks an enemy token at the end of the turn (XIV.4) with the inputs typed."""
    with playing(battle, actor, M1936) as (battle, side):
        target_side = side if whose == "mine" else st.other_side(battle, side)
        st.require_set_up(target_side, "token")
        units = st.units_of(target_side)
        decoys = (battle.play or {}).get("decoys", {}).get(str(target_side.index), [])
        hidden = {u.token for u in units.values() if u.token is not None and not u.revealed}
        if token not in hidden | set(decoys):
            raise ValidationError({"token": [_("No hidden token has that number.")]})
        exp = Explanation()
        rule = m36f.REVEAL_RULE
        if whose != "mine":
            if st.turn_of(battle).phase.value != "end":
                raise ValidationError({"token": [_("Tokens are checked at the end of the turn.")]})
            mine = st.units_of(side)
            seer = st.unit_of(mine, observer, "observer")
            if not seer.revealed or seer.out_of_play:
                raise ValidationError(
                    {"observer": [_("The observer must be revealed and in play.")]}
                )
            if squares_away is None:
                raise ValidationError({"squares_away": [_("Give the squares between them.")]})
            with engine_errors("squares_away"):
                seen, check = m36f.revealed_at_end_of_turn(
                    in_los=in_los,
                    square_has_cover=square_has_cover,
                    squares_away=squares_away,
                    observer_rules=seer.rules,
                    options=st.options(battle).fog,
                )
            exp.extend(check)
            if not seen:
                return log_event(
                    battle,
                    kind=SkirmishEvent.Kind.RULE,
                    summary=msg("Token %(n)s stays hidden", n=token),
                    actor=actor,
                    rule=rule,
                    data={"explanation": exp.as_list()},
                )
        revealed = reveal_numbers(battle, target_side, units, [token], exp, rule)
        st.save_units(target_side, units)
        battle.save(update_fields=["play"])
        unit = next((u for u in units.values() if u.token == token), None)
        return log_event(
            battle,
            kind=SkirmishEvent.Kind.EVENT,
            summary=msg("Token %(n)s revealed: %(u)s", n=token, u=unit.name)
            if unit is not None
            else msg("Token %(n)s was a decoy: removed", n=token),
            actor=actor,
            rule=rule,
            data={"explanation": exp.as_list(), "revealed": revealed},
        )
