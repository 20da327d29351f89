"""What happens at the table during a battle, and its result."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns.cc.labels import side_word
from campaigns.models import Battle, BattleTracker, Campaign, Decision, LogEntry, Side
from campaigns.permissions import viewer_context
from campaigns.services._base import append_log, lock_campaign
from campaigns.services.enqueue import resolve_campaign_later
from rules.dice import RollRecord, ServerDice, entered_roll, kind, parse_entry
from rules.errors import DiceError
from rules.i18n import msg

EVENT_IDS = {
    "time": gettext_noop("Time track advance"),
    "vp": gettext_noop("VP change"),
    "casualty": gettext_noop("Casualty"),
    "battle_harden": gettext_noop("Battle Harden (veteran)"),
    "hero": gettext_noop("Hero"),
    "field_promotion": gettext_noop("Field Promotion"),
    "kia": gettext_noop("Killed in action"),
    "light_wounds": gettext_noop("Light Wounds"),
    "sudden_death": gettext_noop("Sudden Death roll"),
    "other": gettext_noop("Other event"),
}
"""Events of play by key; their English words are the message ids the log keeps."""
EVENTS = {key: gettext_lazy(words) for key, words in EVENT_IDS.items()}
TRACKED = frozenset({"time", "vp", "casualty", "sudden_death"})
"""Events a tracked battle keeps on its tracks: logging them freely would split the score."""
UNIT_FIELDS = ("id", "kind", "weapon", "veteran", "leader_of")


def _playing(battle_id: int) -> tuple[Campaign, Battle]:
    battle = Battle.objects.get(pk=battle_id)
    campaign = lock_campaign(battle.campaign_id)
    battle.refresh_from_db()
    return campaign, battle


def battle_event_record(
    *, battle: Battle, actor, category: str, text: str, vp_delta: int | None = None
) -> LogEntry:
    """Log an event of play (time, VP, casualties, roster events such as Hero or KIA)."""
    if category not in EVENTS:
        raise ValidationError({"category": _("Choose one of the listed events.")})
    if category == "vp" and vp_delta is None:
        raise ValidationError({"vp_delta": _("Enter the VP change as a signed number: +2 or −1.")})
    text = text.strip()
    if not text and vp_delta is None:
        raise ValidationError({"text": _("Say what happened.")})
    with transaction.atomic():
        campaign, battle = _playing(battle.pk)
        if battle.status != Battle.Status.PLAYING:
            raise ValidationError(_("Events are logged while the battle is being played."))
        if category in TRACKED and BattleTracker.objects.filter(battle=battle).exists():
            raise ValidationError(
                {
                    "category": _(
                        "This battle is tracked: the Time marker, VP and casualties move with "
                        "the procedures above, so the score stays one."
                    )
                }
            )
        label = msg(EVENT_IDS[category])
        summary = msg("%(label)s: %(text)s", label=label, text=text) if text else label
        if vp_delta:
            summary = msg("%(event)s (VP %(delta)s)", event=summary, delta=f"{vp_delta:+d}")
        return append_log(
            campaign,
            kind=LogEntry.Kind.EVENT,
            summary=summary,
            actor=actor,
            battle=battle,
            data={"category": category, "text": text, "vp_delta": vp_delta},
        )


def battle_roll(
    *, battle: Battle, actor, roll_kind: str, purpose: str, entered: Any = None
) -> RollRecord:
    """A roll during play: by the server, or entered from the table; logged with its purpose."""
    purpose = purpose.strip()
    try:
        spec = kind(roll_kind)
        record = (
            ServerDice().roll(spec, purpose=purpose)
            if entered in (None, "", [])
            else entered_roll(spec, parse_entry(entered), purpose=purpose)
        )
    except DiceError as err:
        raise ValidationError({"entered": err.message}) from None
    with transaction.atomic():
        campaign, battle = _playing(battle.pk)
        if battle.status in (Battle.Status.RESOLVING, Battle.Status.RESOLVED):
            raise ValidationError(
                _("This battle's result is in: its rolls are closed. Roll in the next battle.")
            )
        words = {
            "who": actor.get_username(),
            "kind": record.kind,
            "purpose": purpose or msg("unspecified purpose"),
            "value": record.value,
        }
        append_log(
            campaign,
            kind=LogEntry.Kind.ROLL,
            summary=(
                msg("%(who)s rolled %(kind)s for %(purpose)s: %(value)s", **words)
                if record.source == "server"
                else msg("%(who)s entered %(kind)s for %(purpose)s: %(value)s", **words)
            ),
            actor=actor,
            battle=battle,
            data={"roll": record.as_dict()},
        )
    return record


def parse_units(text: str) -> list[dict[str, Any]]:
    """Survivors typed one per line: `id; kind; weapon; veteran; leader of` (last three optional).

    Errors name the line, so the player can fix exactly that one.
    """
    units, errors, seen = [], [], set()
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = [p.strip() for p in line.split(";")]
        if len(parts) > len(UNIT_FIELDS) or len(parts) < 2 or not parts[0] or not parts[1]:
            errors.append(
                _("Line %(n)s: write “id; kind” and optionally “; weapon; veteran; leader of”.")
                % {"n": n}
            )
            continue
        parts += [""] * (len(UNIT_FIELDS) - len(parts))
        uid, unit_kind, weapon, veteran, leader_of = parts
        if veteran.lower() not in ("", "veteran", "yes", "no", "v"):
            errors.append(_("Line %(n)s: the fourth field is “veteran” or empty.") % {"n": n})
            continue
        if uid in seen:
            errors.append(_("Line %(n)s: the id %(id)s is used twice.") % {"n": n, "id": uid})
            continue
        seen.add(uid)
        units.append(
            {
                "id": uid,
                "kind": unit_kind,
                "weapon": weapon or None,
                "veteran": veteran.lower() in ("veteran", "yes", "v"),
                "leader_of": leader_of or None,
            }
        )
    if errors:
        raise ValidationError(errors)
    return units


def battle_result_submit(
    *, battle: Battle, actor, winner: Side, details: dict[str, Any] | None = None
) -> Battle:
    """Record the result once, then resolve the campaign's consequences in the background.

    `details` holds what the campaign's rules need beside the winner (survivors, the win
    method and VP margin …). Submitting the same result again changes nothing; a different
    one is refused (a game master corrects results).
    """
    payload = {"winner": winner.faction, **(details or {})}
    with transaction.atomic():
        campaign, battle = _playing(battle.pk)
        if winner.campaign_id != campaign.pk:
            raise ValidationError({"winner": _("The winner must be one of this campaign's sides.")})
        if battle.result:
            if battle.result == payload:
                return battle
            raise ValidationError(
                _(
                    "A result was already entered for this battle; ask the game master to correct it."
                )
            )
        if battle.status != Battle.Status.PLAYING:
            raise ValidationError(_("This battle is not being played."))
        battle.result = payload
        battle.winner = winner
        battle.result_submitted_by = actor
        battle.status = Battle.Status.RESOLVING
        battle.state_before = campaign.state
        battle.save(
            update_fields=["result", "winner", "result_submitted_by", "status", "state_before"]
        )
        append_log(
            campaign,
            kind=LogEntry.Kind.RESULT,
            summary=msg(
                "Battle %(n)s won by %(side)s.", n=battle.number, side=side_word(winner.name)
            ),
            actor=actor,
            battle=battle,
            data=payload,
        )
        resolve_campaign_later(campaign.pk)
    return battle


def battle_result_correct(
    *, battle: Battle, actor, winner: Side, details: dict[str, Any] | None = None, reason: str
) -> Battle:
    """The organiser or game master replaces a battle's result and re-runs its consequences.

    Allowed while the campaign has not gone past the next battle's set-up: the campaign
    state goes back to what it was when the result was entered, decisions taken since are
    cancelled, and the log keeps both results with the reason (nothing is erased).
    """
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": _("Say why the result is corrected.")})
    payload = {"winner": winner.faction, **(details or {})}
    with transaction.atomic():
        campaign, battle = _playing(battle.pk)
        if not viewer_context(actor, campaign).can_manage:
            raise ValidationError(_("Only the campaign's organiser or game master may correct."))
        if not battle.result or not battle.state_before:
            raise ValidationError(_("This battle has no result to correct yet."))
        later = Decision.objects.filter(campaign=campaign, battle__number__gt=battle.number)
        if (
            later.exclude(status__in=["open", "cancelled"]).exists()
            or campaign.battles.filter(number__gt=battle.number)
            .exclude(status=Battle.Status.SETUP)
            .exists()
        ):
            raise ValidationError(
                _("The next battle is already under way; this result can no longer be corrected.")
            )
        if battle.result == payload:
            return battle
        Decision.objects.filter(campaign=campaign, battle__number__gte=battle.number).exclude(
            status__in=["applied", "cancelled"]
        ).update(status="cancelled")
        previous = battle.result
        campaign.state = battle.state_before
        if campaign.status == Campaign.Status.FINISHED:
            campaign.status = Campaign.Status.ACTIVE
        campaign.save(update_fields=["state", "status", "updated_at"])
        battle.result = payload
        battle.winner = winner
        battle.status = Battle.Status.RESOLVING
        battle.finished_at = None
        battle.save(update_fields=["result", "winner", "status", "finished_at"])
        append_log(
            campaign,
            kind=LogEntry.Kind.CORRECTION,
            summary=msg(
                "Result of battle %(n)s corrected: now won by %(side)s (%(reason)s). "
                "The consequences logged before this entry are superseded.",
                n=battle.number,
                side=side_word(winner.name),
                reason=reason,
            ),
            actor=actor,
            battle=battle,
            data={"before": previous, "after": payload, "reason": reason},
        )
        resolve_campaign_later(campaign.pk)
    return battle
