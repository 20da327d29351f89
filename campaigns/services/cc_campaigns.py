"""Creating Combat Commander campaigns from a template and editing their user tables."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.cc.engines import template_for
from campaigns.i18n import say, say_problems
from campaigns.models import Campaign, LogEntry, Side, bounds
from campaigns.services._base import append_log, lock_campaign
from campaigns.services.campaigns import campaign_create, side_join
from campaigns.services.cc_engine import current_battle
from campaigns.services.enqueue import resolve_campaign_later
from rules.cc.campaign import Phase
from rules.cc.campaign_tables import CampaignTablesError
from rules.errors import RuleError, TableDataError
from rules.i18n import Msg, msg

DICE_MODES = ("server", "entered")


def cc_campaign_create(
    *,
    creator,
    name: str,
    template: str,
    visibility: str = Campaign.Visibility.PRIVATE,
    options: dict[str, Any] | None = None,
    dice_mode: str = "server",
    creator_side: int | None = None,
    as_game_master: bool = False,
    description: str = "",
    club=None,
) -> Campaign:
    """A campaign from a template: its sides, options, example tables and initial state.

    `creator_side` is the index of the side the creator plays (None: take no seat yet).
    """
    try:
        tpl = template_for(template)
        engine_options = tpl.clean_options(options or {})
    except (RuleError, ValueError, TypeError) as exc:
        raise ValidationError({"template": str(exc)}) from None
    if dice_mode not in DICE_MODES:
        raise ValidationError({"dice_mode": _("Choose server rolls or entered rolls.")})
    if creator_side is not None and not 0 <= creator_side < len(tpl.sides):
        raise ValidationError({"creator_side": _("Choose one of the template's sides.")})
    if creator_side is not None and as_game_master:
        raise ValidationError({"creator_side": _("A neutral game master cannot also play a side.")})
    with transaction.atomic():
        campaign = campaign_create(
            creator=creator,
            name=name,
            system="cc",
            template=tpl.key,
            side_names=[n for n, _f in tpl.sides],
            description=description,
            visibility=visibility,
            club=club,
            as_game_master=as_game_master,
        )
        sides = list(campaign.sides.order_by("order"))
        for side, (_n, faction) in zip(sides, tpl.sides, strict=True):
            side.faction = faction.value
        Side.objects.bulk_update(sides, ["faction"])
        state = tpl.new_state(engine_options)
        campaign.options = {"engine": engine_options, "dice": dice_mode}
        campaign.tables = tpl.example_tables()
        campaign.state = state.to_dict()
        campaign.save(update_fields=["options", "tables", "state", "updated_at"])
        append_log(
            campaign,
            kind=LogEntry.Kind.CAMPAIGN,
            summary=msg(
                "%(template)s: battle %(n)s will be fought at position %(pos)s.",
                template=msg(tpl.label),
                n=tpl.number(state),
                pos=tpl.position(state),
            ),
            actor=creator,
            data={"options": engine_options, "dice": dice_mode},
        )
        if creator_side is not None:
            side_join(user=creator, side=sides[creator_side])
        if state.phase is Phase.BATTLE:  # no set-up procedure: battle 1 is played at once
            current_battle(campaign, tpl, state)
    return campaign


def cc_tables_update(
    *, campaign: Campaign, actor, data: Any, summary: Msg | None = None
) -> Campaign:
    """Replace the campaign's user-supplied tables after validating every row; `summary`
    is the log entry's words (by default "Campaign tables updated.")."""
    tpl = template_for(campaign.template)
    if not isinstance(data, dict):
        raise ValidationError({"tables": _("The tables must be a JSON object.")})
    bounds.check_values(Campaign, {"tables": data})
    try:
        tpl.tables(data)
    except CampaignTablesError as exc:
        raise ValidationError({"tables": [say(p.text) for p in exc.found]}) from None
    except TableDataError as exc:
        raise ValidationError({"tables": say_problems(exc.problems)}) from None
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValidationError({"tables": _("Missing section %(name)s.") % {"name": exc}}) from None
    with transaction.atomic():
        campaign = lock_campaign(campaign.pk)
        campaign.tables = data
        campaign.save(update_fields=["tables", "updated_at"])
        append_log(
            campaign,
            kind=LogEntry.Kind.CORRECTION,
            summary=summary or msg("Campaign tables updated."),
            actor=actor,
        )
        if campaign.stopped_reason:  # the rules stopped on these tables: try them again
            resolve_campaign_later(campaign.pk)
    return campaign
