"""Driving a Combat Commander campaign's state machine: advance, decisions, sealed choices.

`cc_advance` runs the engine from where the campaign stands until it needs something: a
player's decision, a roll entered from the table, or the battle to be played. Decisions are
rows the named side answers (`decision_answer`); answers are fed back to the engine, which
re-runs its procedure with the rolls it already made. Sealed decisions (the simultaneous
secret purchases) stay private until every sealed sibling is answered, then are revealed
together. Everything runs under the campaign row lock, so two players acting at once cannot
double-apply anything.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.cc.engines import CCTemplate, template_for
from campaigns.cc.labels import answer_words, side_word, victory_word
from campaigns.i18n import say
from campaigns.models import Battle, Campaign, Decision, LogEntry, Side
from campaigns.permissions import viewer_context
from campaigns.services._base import append_log, lock_campaign
from campaigns.services.cc_log import log_explanation, log_rolls, show
from campaigns.services.enqueue import resolve_campaign_later
from rules.cc.campaign import Phase
from rules.cc.common import Faction
from rules.dice import EnteredDice, ServerDice, entered_roll, parse_entry
from rules.errors import RollNeeded, RuleError
from rules.explain import Decision as EngineDecision
from rules.i18n import Msg, msg

SEALED_PREFIX = "purchase."


def cc_advance(*, campaign_id: int, actor=None) -> Campaign:
    """Run the engine as far as it can go now (see the module doc).

    When the rules cannot go on (a table value the organiser has not entered), the reason is
    kept on the campaign and logged for everyone, then raised to the caller.
    """
    try:
        with transaction.atomic():
            campaign = lock_campaign(campaign_id)
            _run(campaign, actor)
    except ValidationError as exc:
        cc_resolution_stopped(campaign_id=campaign_id, messages=exc.messages)
        raise
    return campaign


def cc_resolve(*, campaign_id: int) -> Campaign:
    """The worker's entry point: run the engine on after a result or an answer."""
    return cc_advance(campaign_id=campaign_id)


def cc_resolution_stopped(*, campaign_id: int, messages: list[str]) -> None:
    """Keep and log why the rules stopped: fixing the tables (or "Resume") runs them again."""
    with transaction.atomic():
        _stopped(lock_campaign(campaign_id), messages)


def _stopped(campaign: Campaign, messages: list[str]) -> None:
    reason = " ".join(messages)
    if campaign.stopped_reason == reason:
        return  # already said: a retry does not repeat it in the log
    campaign.stopped_reason = reason
    campaign.save(update_fields=["stopped_reason", "updated_at"])
    append_log(
        campaign,
        kind=LogEntry.Kind.RULE,
        summary=msg("The campaign waits for its organiser: %(why)s", why=reason),
    )


def _run(campaign: Campaign, actor) -> None:
    """`_advance`, clearing a stop that no longer holds (caller holds the lock)."""
    _advance(campaign, actor)
    if campaign.stopped_reason:
        campaign.stopped_reason = ""
        campaign.save(update_fields=["stopped_reason", "updated_at"])


def cc_resume(*, campaign: Campaign, actor) -> None:
    """A player or the game master asks the site to run the campaign's procedure again."""
    if not viewer_context(actor, campaign).is_participant:
        raise ValidationError(
            _("Only the campaign's players and game master may do this."), code="forbidden"
        )
    with transaction.atomic():
        resolve_campaign_later(campaign.pk)


def _advance(campaign: Campaign, actor) -> None:
    tpl = template_for(campaign.template)
    while True:
        state = tpl.load(campaign.state)
        if state.phase is Phase.ENDED or campaign.decisions.filter(status="open").exists():
            return
        battle = current_battle(campaign, tpl, state)
        result = None
        if state.phase is Phase.BATTLE:
            if not battle.result:
                return  # the battle is being played: wait for its result
            result = tpl.make_result(Faction(battle.result["winner"]), battle.result, state)
        answered = list(campaign.decisions.filter(status="answered").order_by("created_at", "id"))
        choices = {d.key: d.answer for d in answered if not d.is_roll}
        server = campaign.options.get("dice", "server") == "server"
        dice = ServerDice() if server else EnteredDice(d.answer for d in answered if d.is_roll)
        try:
            outcome = tpl.step(state, _tables(tpl, campaign), dice, choices, result)
        except RuleError as err:
            raise ValidationError(rule_error_text(err)) from None
        # The answers are applied exactly when the state that now holds them is saved: the
        # two never disagree, whatever the engine waits for next.
        _mark_applied(answered)
        campaign.state = outcome.state.to_dict()
        campaign.save(update_fields=["state", "updated_at"])
        if not outcome.done:
            log_rolls(campaign, battle, dice.history)
            if outcome.roll is not None:
                _open_roll_entry(campaign, battle, outcome.roll)
            else:
                _open_decisions(tpl, campaign, battle, outcome)
            return
        log_explanation(campaign, battle, outcome.explanation)
        _reveal_sealed(campaign, battle)
        if not _after_step(tpl, campaign, battle, state.phase, outcome.state):
            return


def rule_error_text(err: RuleError) -> str:
    """A rules error in the reader's language, with the rule it names."""
    text = say(err.message)
    return f"[{err.rule}] {text}" if err.rule else text


def _tables(tpl: CCTemplate, campaign: Campaign):
    try:
        return tpl.tables(campaign.tables)
    except (KeyError, TypeError, AttributeError):
        raise ValidationError(_("The campaign tables are incomplete: edit them first.")) from None


def current_battle(campaign: Campaign, tpl: CCTemplate, state) -> Battle:
    """The Battle row of the battle the engine is at, made when first needed."""
    playing = state.phase is Phase.BATTLE
    battle, created = Battle.objects.get_or_create(
        campaign=campaign,
        number=tpl.number(state),
        defaults={
            "position": tpl.position(state),
            "status": Battle.Status.PLAYING if playing else Battle.Status.SETUP,
        },
    )
    if created and campaign.status == Campaign.Status.SETUP:
        campaign.status = Campaign.Status.ACTIVE
        campaign.save(update_fields=["status", "updated_at"])
    if created and playing:
        _announce_play(campaign, battle)
    return battle


def _announce_play(campaign: Campaign, battle: Battle) -> None:
    append_log(
        campaign,
        kind=LogEntry.Kind.SETUP,
        summary=msg(
            "Battle %(n)s is set up: play it at the table, then enter the result.", n=battle.number
        ),
        battle=battle,
    )


def _after_step(tpl, campaign: Campaign, battle: Battle, before: Phase, state) -> bool:
    """Move the site's records along with the engine; True to keep running the engine."""
    if state.phase is Phase.SUPPORT:
        return True
    if before is not Phase.BATTLE:  # the set-up is complete: the battle is played now
        battle.status = Battle.Status.PLAYING
        battle.save(update_fields=["status"])
        _announce_play(campaign, battle)
        return False
    battle.status = Battle.Status.RESOLVED
    battle.finished_at = timezone.now()
    battle.save(update_fields=["status", "finished_at"])
    if state.phase is Phase.BATTLE:  # a campaign of back-to-back battles (Gastadores)
        current_battle(campaign, tpl, state)
        return False
    if state.phase is Phase.ENDED:
        campaign.status = Campaign.Status.FINISHED
        campaign.save(update_fields=["status", "updated_at"])
        winner = dict((f, n) for n, f in tpl.sides)[state.winner]
        append_log(
            campaign,
            kind=LogEntry.Kind.RESULT,
            summary=msg(
                "The campaign is over: %(side)s win %(victory)s.",
                side=side_word(winner),
                victory=victory_word(state.victory),
            ),
            battle=battle,
            data={"winner": state.winner.value, "victory": state.victory},
        )
    return False


# --- decisions -----------------------------------------------------------------------------


def _side_for(campaign: Campaign, chooser: str) -> Side | None:
    return campaign.sides.filter(faction=chooser).first() if chooser else None


def _open(campaign: Campaign, battle: Battle, d: EngineDecision, *, sealed: bool) -> Decision:
    side = _side_for(campaign, d.chooser)
    decision = Decision.objects.create(
        campaign=campaign,
        battle=battle,
        key=d.key,
        rule=d.rule,
        prompt=str(d.prompt),
        prompt_msg=d.prompt.as_dict() if isinstance(d.prompt, Msg) else {},
        options=[o.value if hasattr(o, "value") else o for o in d.options],
        min_choices=d.min_choices,
        max_choices=d.max_choices,
        chooser=side,
        sealed=sealed,
    )
    append_log(
        campaign,
        kind=LogEntry.Kind.SETUP,
        summary=msg(
            "Waiting for %(who)s: %(prompt)s",
            who=side_word(side.name) if side else msg("the players"),
            prompt=d.prompt,
        ),
        rule=d.rule,
        battle=battle,
    )
    return decision


def _open_decisions(tpl: CCTemplate, campaign: Campaign, battle: Battle, outcome) -> None:
    """Open the engine's decision; a sealed one opens with its sealed sibling when possible."""
    decision = outcome.decision
    sealed = decision.key.startswith(SEALED_PREFIX)
    _open(campaign, battle, decision, sealed=sealed)
    if not sealed:
        return
    sibling = _probe_sibling(tpl, campaign, outcome.state, decision)
    if sibling is not None and not campaign.decisions.filter(key=sibling.key).exists():
        _open(campaign, battle, sibling, sealed=True)


def _probe_sibling(tpl: CCTemplate, campaign: Campaign, state, decision: EngineDecision):
    """Ask the engine what the other sealed decision would be, without keeping anything.

    The engine works on a copy and, with no dice available, cannot roll: if it would need a
    roll before the sibling question, the sibling simply opens after the first answer.
    """
    try:
        probe = tpl.step(state, _tables(tpl, campaign), EnteredDice(), {decision.key: []})
    except (RuleError, ValidationError):
        return None
    found = probe.decision
    if found is not None and found.key.startswith(SEALED_PREFIX) and found.key != decision.key:
        return found
    return None


def _open_roll_entry(campaign: Campaign, battle: Battle, need: RollNeeded) -> None:
    n = campaign.decisions.filter(roll_kind__gt="").count() + 1
    prompt = msg(
        "Roll %(kind)s at the table for: %(purpose)s", kind=need.kind, purpose=msg(need.purpose)
    )
    Decision.objects.create(
        campaign=campaign,
        battle=battle,
        key=f"roll.{n}",
        rule=need.rule,
        prompt=str(prompt),
        prompt_msg=prompt.as_dict(),
        roll_kind=need.kind,
    )


def _mark_applied(decisions: list[Decision]) -> None:
    if decisions:
        Decision.objects.filter(pk__in=[d.pk for d in decisions]).update(status="applied")


def can_answer(viewer, decision: Decision) -> bool:
    if decision.status != Decision.Status.OPEN:
        return False
    if decision.chooser_id is None:
        return viewer.is_participant
    return viewer.is_gm or viewer.plays(decision.chooser_id)


def decision_answer(*, decision: Decision, actor, answer: Any) -> Decision:
    """Record a player's answer and let the campaign go on (under the campaign lock).

    Answering an already answered decision (a double click, two players at once) is refused
    and changes nothing.
    """
    with transaction.atomic():
        campaign = lock_campaign(decision.campaign_id)
        decision = Decision.objects.select_related("chooser", "battle").get(pk=decision.pk)
        if decision.status != Decision.Status.OPEN:
            raise ValidationError(_("This decision has already been answered."))
        if not can_answer(viewer_context(actor, campaign), decision):
            raise ValidationError(_("Only the side named by the rules may answer this."))
        decision.answer = _clean_answer(decision, answer)
        decision.status = Decision.Status.ANSWERED
        decision.answered_by = actor
        decision.answered_at = timezone.now()
        decision.save(update_fields=["answer", "status", "answered_by", "answered_at"])
        _log_answer(campaign, decision, actor)
        if decision.sealed and campaign.decisions.filter(status="open", sealed=True).exists():
            return decision
        state_phase = template_for(campaign.template).load(campaign.state).phase
        if state_phase is Phase.BATTLE:
            resolve_campaign_later(campaign.pk)
            return decision
        try:
            with transaction.atomic():  # a savepoint: the answer stays whatever the rules say
                _run(campaign, actor)
        except ValidationError as exc:
            _stopped(campaign, exc.messages)
    return decision


def _clean_answer(decision: Decision, raw: Any) -> Any:
    if decision.is_roll:
        try:
            record = entered_roll(decision.roll_kind, parse_entry(raw), purpose=decision.prompt)
        except RuleError as err:
            raise ValidationError(err.message) from None
        return list(record.faces) if len(record.faces) > 1 else record.value
    if decision.is_multiple:
        chosen = raw if isinstance(raw, list | tuple) else [raw] if raw not in (None, "") else []
        chosen = [_match_option(decision, c) for c in chosen]
        if len(set(map(str, chosen))) != len(chosen):
            raise ValidationError(_("Choose each option once."))
        if decision.max_choices is not None and len(chosen) > decision.max_choices:
            raise ValidationError(_("Choose at most %(n)s.") % {"n": decision.max_choices})
        if decision.min_choices and len(chosen) < decision.min_choices:
            raise ValidationError(_("Choose at least %(n)s.") % {"n": decision.min_choices})
        return chosen
    if decision.options:
        return _match_option(decision, raw)
    try:
        return int(str(raw).strip())
    except ValueError:
        raise ValidationError(_("Enter a whole number.")) from None


def _match_option(decision: Decision, raw: Any) -> Any:
    for option in decision.options:
        if str(option) == str(raw).strip():
            return option
    raise ValidationError(
        _("“%(value)s” is not one of the choices: %(options)s")
        % {"value": raw, "options": ", ".join(map(str, decision.options))}
    )


def _log_answer(campaign: Campaign, decision: Decision, actor) -> None:
    who = side_word(decision.chooser.name) if decision.chooser else actor.get_username()
    if decision.sealed:
        append_log(
            campaign,
            kind=LogEntry.Kind.SETUP,
            summary=msg(
                "%(who)s submitted a sealed choice; it is revealed when both are in.", who=who
            ),
            rule=decision.rule,
            actor=actor,
            battle=decision.battle,
        )
        append_log(
            campaign,
            kind=LogEntry.Kind.SETUP,
            summary=msg(
                "Your sealed choice: %(answer)s", answer=answer_words(decision, decision.answer)
            ),
            rule=decision.rule,
            actor=actor,
            battle=decision.battle,
            private_to=decision.chooser,
        )
        return
    prompt = Msg.from_dict(decision.prompt_msg) if decision.prompt_msg else decision.prompt
    if decision.is_roll:
        summary = msg(
            "%(user)s entered %(roll)s for %(purpose)s",
            user=actor.get_username(),
            roll=show(decision.answer),
            purpose=prompt,
        )
        kind = LogEntry.Kind.ROLL
    else:
        summary = msg(
            "%(who)s chose %(answer)s: %(prompt)s",
            who=who,
            answer=answer_words(decision, decision.answer),
            prompt=prompt,
        )
        kind = LogEntry.Kind.EVENT
    append_log(
        campaign,
        kind=kind,
        summary=summary,
        rule=decision.rule,
        actor=actor,
        battle=decision.battle,
        data={"answer": decision.answer},
    )


def _reveal_sealed(campaign: Campaign, battle: Battle) -> None:
    """Once every sealed decision is in and applied, reveal them all in one public entry."""
    hidden = list(
        campaign.decisions.filter(sealed=True, revealed_at__isnull=True)
        .exclude(status="open")
        .select_related("chooser")
    )
    if not hidden:
        return
    Decision.objects.filter(pk__in=[d.pk for d in hidden]).update(revealed_at=timezone.now())
    parts = {
        f"side{i}": msg(
            "%(side)s: %(answer)s",
            side=side_word(d.chooser.name) if d.chooser else "?",
            answer=show(d.answer),
        )
        for i, d in enumerate(hidden)
    }
    text = msg("; ".join(f"%({k})s" for k in parts), **parts)
    append_log(
        campaign,
        kind=LogEntry.Kind.SETUP,
        summary=msg("Sealed choices revealed together — %(text)s", text=text),
        rule=hidden[0].rule,
        battle=battle,
        data={d.key: d.answer for d in hidden},
    )
