"""Exports and imports: league results and standings as CSV; a whole campaign as JSON.

A campaign export carries everything the campaign owns that anyone who may see the campaign
may see: never a log entry private to a side, nor a sealed decision that was not revealed.
Users and sides are named (username, side name), not numbered, so the file imports back
into another (empty) database; importing it again elsewhere gives an identical export.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from campaigns.models import Battle, Campaign, Club, Decision, LogEntry, Side, SidePlayer
from campaigns.selectors.leagues import StandingsView, league_results, public_decisions

FORMAT = "campaign-ledger/campaign"
VERSION = 1


# --- CSV --------------------------------------------------------------------------------------


def _csv(rows: list[list[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        # a cell starting with = + - @ would be a formula in a spreadsheet: quote it as text
        writer.writerow(
            "'" + v if isinstance(v, str) and v[:1] in ("=", "+", "-", "@") else v for v in row
        )
    return out.getvalue()


def results_csv(league) -> str:
    """The league's results in the import format, plus id and status."""
    from campaigns.services.leagues import CSV_COLUMNS

    header = ["id", "status", *CSV_COLUMNS, "battle"]
    rows = [header]
    for r in league_results(league).prefetch_related(None).prefetch_related("players__user"):
        teams = {"a": [], "b": []}
        for p in r.players.all():
            teams[p.team].append(p.user.username)
        d = r.details or {}
        rows.append(
            [
                r.pk,
                r.status,
                r.played_on.isoformat(),
                r.round or "",
                r.scenario,
                r.side_a,
                r.side_b,
                "+".join(teams["a"]),
                "+".join(teams["b"]),
                r.outcome,
                d.get("win_type", ""),
                *(
                    d.get(k, "")
                    for k in ("time_space", "vp_a", "vp_b", "casualties_a", "casualties_b")
                ),
                r.notes,
                f"{r.battle.campaign_id}/{r.battle.number}" if r.battle_id else "",
            ]
        )
    return _csv(rows)


def standings_csv(view: StandingsView) -> str:
    keys = [k for k, _label in view.criteria]
    rows = [["rank", "player", "played", "wins", "draws", "losses", "points", *keys, "elo"]]
    for item in view.rows:
        row = item["row"]
        user = item["user"]
        rows.append(
            [
                row.rank,
                user.username if user else row.player,
                row.played,
                row.wins,
                row.draws,
                row.losses,
                f"{row.points:g}",
                *(f"{v:g}" if v is not None else "" for v in item["values"]),
                f"{item['elo']:.1f}" if item["elo"] is not None else "",
            ]
        )
    return _csv(rows)


# --- Campaign JSON ----------------------------------------------------------------------------


def _ts(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value else None


def _name(user) -> str | None:
    return user.username if user else None


def public_state(campaign: Campaign) -> dict[str, Any]:
    """The engine state without answers still sealed: while a sealed choice waits for its
    sibling, the engine may hold it among its pending choices."""
    pending = (campaign.state or {}).get("pending") or {}
    hidden = set(
        campaign.decisions.filter(sealed=True, revealed_at__isnull=True).values_list(
            "key", flat=True
        )
    )
    choices = pending.get("choices") or {}
    if not hidden & set(choices):
        return campaign.state
    kept = {k: v for k, v in choices.items() if k not in hidden}
    return {**campaign.state, "pending": {**pending, "choices": kept}}


def campaign_export(campaign: Campaign) -> dict[str, Any]:
    """The campaign as plain JSON (no private data); a fixed number of queries."""
    c = Campaign.objects.select_related("club", "created_by").get(pk=campaign.pk)
    sides = list(c.sides.prefetch_related("seats__user").order_by("order", "id"))
    side_name = {s.pk: s.name for s in sides}
    battles = list(
        Battle.objects.filter(campaign=c).select_related("result_submitted_by").order_by("number")
    )
    number = {b.pk: b.number for b in battles}
    decisions = list(public_decisions(c).select_related("answered_by").order_by("created_at", "id"))
    log = list(
        LogEntry.objects.filter(campaign=c, private_to__isnull=True)
        .select_related("actor")
        .order_by("seq")
    )
    return {
        "format": FORMAT,
        "version": VERSION,
        "campaign": {
            "name": c.name,
            "system": c.system,
            "template": c.template,
            "description": c.description,
            "status": c.status,
            "visibility": c.visibility,
            "club": {"name": c.club.name, "slug": c.club.slug} if c.club else None,
            "created_by": _name(c.created_by),
            "game_masters": sorted(u.username for u in c.game_masters.all()),
            "options": c.options,
            "tables": c.tables,
            "state": public_state(c),
            "created_at": _ts(c.created_at),
            "updated_at": _ts(c.updated_at),
        },
        "sides": [
            {
                "name": s.name,
                "faction": s.faction,
                "order": s.order,
                "players": [
                    {"user": seat.user.username, "joined_at": _ts(seat.joined_at)}
                    for seat in sorted(s.seats.all(), key=lambda x: (x.joined_at, x.pk))
                ],
            }
            for s in sides
        ],
        "battles": [
            {
                "number": b.number,
                "position": b.position,
                "status": b.status,
                "winner": side_name.get(b.winner_id),
                "result": b.result,
                "state_before": b.state_before,
                "result_submitted_by": _name(b.result_submitted_by),
                "created_at": _ts(b.created_at),
                "finished_at": _ts(b.finished_at),
            }
            for b in battles
        ],
        "decisions": [
            {
                "battle": number.get(d.battle_id),
                "key": d.key,
                "rule": d.rule,
                "prompt": d.prompt,
                "options": d.options,
                "min_choices": d.min_choices,
                "max_choices": d.max_choices,
                "chooser": side_name.get(d.chooser_id),
                "sealed": d.sealed,
                "roll_kind": d.roll_kind,
                "status": d.status,
                "answer": d.answer,
                "answered_by": _name(d.answered_by),
                "answered_at": _ts(d.answered_at),
                "revealed_at": _ts(d.revealed_at),
                "created_at": _ts(d.created_at),
            }
            for d in decisions
        ],
        "log": [
            {
                "seq": e.seq,
                "battle": number.get(e.battle_id),
                "kind": e.kind,
                "actor": _name(e.actor),
                "summary": e.summary,
                "rule": e.rule,
                "data": e.data,
                "created_at": _ts(e.created_at),
            }
            for e in log
        ],
    }


def _dt(value: str | None, field: str) -> dt.datetime | None:
    if value is None:
        return None
    parsed = parse_datetime(value) if isinstance(value, str) else None
    if parsed is None:
        raise ValidationError({field: _("Not a date and time: %(v)s") % {"v": value}})
    return parsed


def campaign_import(data: Any, *, actor=None) -> Campaign:
    """Create a campaign from an export; users are matched by username (created, without a
    usable password, when missing). All or nothing: a bad file changes nothing."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValidationError({"file": _("This is not a Campaign Ledger campaign export.")})
    if data.get("version") != VERSION:
        raise ValidationError({"file": _("Unsupported export version.")})
    try:
        with transaction.atomic():
            return _import(data)
    except (KeyError, TypeError, AttributeError, ValueError) as err:
        if isinstance(err, ValidationError):
            raise
        raise ValidationError(
            {"file": _("The export is incomplete or damaged (%(e)s).") % {"e": err}}
        ) from None


def _import(data: dict[str, Any]) -> Campaign:
    User = get_user_model()
    names: set[str] = set()
    c = data["campaign"]
    names.update([c["created_by"], *c["game_masters"]])
    for s in data["sides"]:
        names.update(p["user"] for p in s["players"])
    for b in data["battles"]:
        names.add(b["result_submitted_by"])
    for d in data["decisions"]:
        names.add(d["answered_by"])
    for e in data["log"]:
        names.add(e["actor"])
    names.discard(None)
    users = {u.username: u for u in User.objects.filter(username__in=names)}
    for name in sorted(names - set(users)):
        user = User(username=name)
        user.set_unusable_password()
        user.save()
        users[name] = user
    club = None
    if c["club"]:
        club, _created = Club.objects.get_or_create(
            slug=c["club"]["slug"], defaults={"name": c["club"]["name"]}
        )
    campaign = Campaign.objects.create(
        name=c["name"],
        system=c["system"],
        template=c["template"],
        description=c["description"],
        status=c["status"],
        visibility=c["visibility"],
        club=club,
        created_by=users[c["created_by"]],
        options=c["options"],
        tables=c["tables"],
        state=c["state"],
    )
    campaign.game_masters.set([users[n] for n in c["game_masters"]])
    sides = {}
    for s in data["sides"]:
        side = Side.objects.create(
            campaign=campaign, name=s["name"], faction=s["faction"], order=s["order"]
        )
        sides[s["name"]] = side
        for p in s["players"]:
            seat = SidePlayer.objects.create(side=side, user=users[p["user"]])
            SidePlayer.objects.filter(pk=seat.pk).update(joined_at=_dt(p["joined_at"], "sides"))
    battles = {}
    for b in data["battles"]:
        battle = Battle.objects.create(
            campaign=campaign,
            number=b["number"],
            position=b["position"],
            status=b["status"],
            winner=sides[b["winner"]] if b["winner"] else None,
            result=b["result"],
            state_before=b.get("state_before") or {},
            result_submitted_by=users.get(b["result_submitted_by"] or ""),
            finished_at=_dt(b["finished_at"], "battles"),
        )
        Battle.objects.filter(pk=battle.pk).update(created_at=_dt(b["created_at"], "battles"))
        battles[b["number"]] = battle
    for d in data["decisions"]:
        decision = Decision.objects.create(
            campaign=campaign,
            battle=battles[d["battle"]] if d["battle"] is not None else None,
            key=d["key"],
            rule=d["rule"],
            prompt=d["prompt"],
            options=d["options"],
            min_choices=d["min_choices"],
            max_choices=d["max_choices"],
            chooser=sides[d["chooser"]] if d["chooser"] else None,
            sealed=d["sealed"],
            roll_kind=d["roll_kind"],
            status=d["status"],
            answer=d["answer"],
            answered_by=users.get(d["answered_by"] or ""),
            answered_at=_dt(d["answered_at"], "decisions"),
            revealed_at=_dt(d["revealed_at"], "decisions"),
        )
        Decision.objects.filter(pk=decision.pk).update(created_at=_dt(d["created_at"], "decisions"))
    entries = LogEntry.objects.bulk_create(
        [
            LogEntry(
                campaign=campaign,
                battle=battles[e["battle"]] if e["battle"] is not None else None,
                seq=e["seq"],
                kind=e["kind"],
                actor=users.get(e["actor"] or ""),
                summary=e["summary"],
                rule=e["rule"],
                data=e["data"],
            )
            for e in data["log"]
        ]
    )
    for entry, e in zip(entries, data["log"], strict=True):
        LogEntry.objects.filter(campaign=campaign, seq=entry.seq).update(
            created_at=_dt(e["created_at"], "log")
        )
    Campaign.objects.filter(pk=campaign.pk).update(
        created_at=_dt(c["created_at"], "campaign"), updated_at=_dt(c["updated_at"], "campaign")
    )
    campaign.refresh_from_db()
    return campaign
