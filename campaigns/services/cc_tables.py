"""Filling a Combat Commander campaign's tables with the site's example placeholders."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.services.cc_campaigns import cc_tables_update
from rules.i18n import msg
from rules.tables import load_json

PLACEHOLDER_FILES = {
    "stalingrad": Path(__file__).resolve().parents[1] / "demo" / "stalingrad_tables.json",
}
"""Per template, made-up values that let a campaign be played through without printed
tables: placeholders, never the rulebook's values."""


def example_tables(template: str) -> dict[str, Any] | None:
    """The template's placeholder tables (a fresh copy), or None when it has none."""
    path = PLACEHOLDER_FILES.get(template)
    return copy.deepcopy(load_json(path)) if path else None


def cc_tables_use_example(*, campaign: Campaign, actor) -> Campaign:
    """Replace the campaign's tables by the template's placeholder tables, and log it."""
    data = example_tables(campaign.template)
    if data is None:
        raise ValidationError({"tables": _("This campaign has no example tables.")})
    return cc_tables_update(
        campaign=campaign,
        actor=actor,
        data=data,
        summary=msg(
            "Campaign tables replaced by the site's example tables: made-up placeholders, "
            "not the rulebook's values."
        ),
    )
