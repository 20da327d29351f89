"""Exports and imports: league results and standings as CSV; a whole campaign as JSON.

A campaign export carries everything the campaign owns that anyone who may see the campaign
may see: never a log entry private to a side, nor a sealed decision that was not revealed.
Users and sides are named (username, side name), not numbered, so the file imports back
into another (empty) database; importing it again elsewhere gives an identical export.

A TCS operation (system "tcs") adds a "tcs" section with its records, named by natural keys
(side name, formation and unit codes, a sheet's side and code, a phase's side and turn),
never by database ids; ids kept inside JSON (log tags, Command Phase steps, a unit's
`left_additions`) are translated the same way and back on import (a log tag naming a record
left out becomes null). A side's secrets [TCS 1.5]
are exported only once they are public: everything (side settings, formations and morale,
units, op sheets, Command Phases, 17.1.c choices) once the operation is over, and while it
is in play only the op sheets that were revealed. An operation exported in play therefore
imports as the public record of it, not as a game to play on. Uploaded op-sheet graphics are
left out (neither the file nor its name): the imported sheets have none.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from campaigns.models import (
    Battle,
    Campaign,
    Club,
    Decision,
    LogEntry,
    Side,
    SidePlayer,
    bounds,
)
from campaigns.models.tcs import (
    SHEET_TEXT_FIELDS,
    CommandPhase,
    OpSheetRecord,
    TcsDecision,
    TcsFormation,
    TcsSide,
    TcsUnit,
)
from campaigns.selectors.leagues import StandingsView, league_results, public_decisions
from campaigns.services.analyze import analyze_later
from campaigns.services.leagues import CSV_COLUMNS
from rules.ratings.standings import METRICS

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
    # points and wins already have their columns: a criterion column only for the others,
    # named by the criterion's words (every header distinct)
    extra = [i for i, (k, _label) in enumerate(view.criteria) if k not in ("points", "wins")]
    header = ["rank", "player", "played", "wins", "draws", "losses", "points"]
    header += [str(METRICS[view.criteria[i][0]].label).lower() for i in extra]
    rows = [[*header, "elo"]]
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
                *(
                    f"{v:g}" if v is not None else ""
                    for v in map(item["values"].__getitem__, extra)
                ),
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
    tcs, refs = _tcs_export(c, sides) if c.system == "tcs" else (None, None)
    data = {
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
                "seq": i,  # the position among what is exported: the export shows no gap
                "number": e.number,
                "battle": number.get(e.battle_id),
                "kind": e.kind,
                "actor": _name(e.actor),
                "summary": e.summary,
                "rule": e.rule,
                "data": _log_refs(e.data, _export_ref(refs)) if refs else e.data,
                "created_at": _ts(e.created_at),
            }
            for i, e in enumerate(log, 1)
        ],
    }
    if tcs is not None:
        data["tcs"] = tcs
    return data


# --- TCS records ------------------------------------------------------------------------------

LOG_REFS = ("side", "sheet", "phase", "formation", "unit", "decision")  # ids in log data["tcs"]


def _ref_key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _log_refs(data: Any, lookup) -> Any:
    """`data` with each record reference of its "tcs" tag replaced by `lookup(kind, value)`."""
    if not isinstance(data, dict) or not isinstance(data.get("tcs"), dict):
        return data
    tag = {
        k: lookup(k, v) if k in LOG_REFS and v is not None else v for k, v in data["tcs"].items()
    }
    return {**data, "tcs": tag}


def _export_ref(refs: dict[str, dict]):
    """An id → its record's natural key; None for a record not exported (private)."""
    return lambda kind, value: refs[kind].get(value) if isinstance(value, int) else value


def _import_ref(back: dict[str, dict]):
    """A natural key → the imported record's id; left as it is when not found."""
    return lambda kind, value: back[kind].get(_ref_key(value), value)


def _step_refs(steps: Any, sheet: dict, key_prefix) -> Any:
    """A Command Phase's `steps` with its op-sheet references mapped through `sheet`
    (pk → code on export, code → pk on import); "pk/rest" keys through `key_prefix`."""
    if not isinstance(steps, dict):
        return steps
    out = dict(steps)
    for k in ("fired", "successes"):
        if isinstance(out.get(k), list):
            out[k] = [sheet.get(v, v) for v in out[k]]
    for k in ("outcomes", "added", "struck"):
        if isinstance(out.get(k), list):
            out[k] = [
                {**i, "sheet": sheet.get(i["sheet"], i["sheet"])}
                if isinstance(i, dict) and "sheet" in i
                else i
                for i in out[k]
            ]
    for k in ("attempted", "checked"):
        if isinstance(out.get(k), list):
            out[k] = [key_prefix(v) if isinstance(v, str) else v for v in out[k]]
    return out


def _left_refs(left: Any, sheet: dict) -> Any:
    if not isinstance(left, list):
        return left
    return [
        {**i, "sheet": sheet.get(i["sheet"], i["sheet"])}
        if isinstance(i, dict) and "sheet" in i
        else i
        for i in left
    ]


def _tcs_export(c: Campaign, sides: list[Side]) -> tuple[dict[str, Any], dict[str, dict]]:
    """The operation's public TCS records (a fixed number of queries), and, for the log,
    each exported record's id → natural key."""
    finished = c.status in (Campaign.Status.FINISHED, Campaign.Status.ABANDONED)
    side_name = {s.pk: s.name for s in sides}
    side_order = {s.pk: i for i, s in enumerate(sides)}
    sheets = OpSheetRecord.objects.filter(campaign=c).select_related("created_by")
    if not finished:
        sheets = sheets.filter(revealed_at__isnull=False)
    sheets = sorted(sheets, key=lambda r: (side_order[r.side_id], r.created_at, r.pk))
    if finished:
        settings = sorted(
            TcsSide.objects.filter(side__campaign=c), key=lambda t: side_order[t.side_id]
        )
        formations = sorted(
            TcsFormation.objects.filter(campaign=c),
            key=lambda f: (side_order[f.side_id], f.order, f.pk),
        )
        units = sorted(
            TcsUnit.objects.filter(campaign=c), key=lambda u: (side_order[u.side_id], u.order, u.pk)
        )
        phases = sorted(
            CommandPhase.objects.filter(campaign=c).select_related("completed_by"),
            key=lambda p: (p.turn, side_order[p.side_id], p.pk),
        )
        decisions = list(
            TcsDecision.objects.filter(campaign=c)
            .select_related("resolved_by")
            .order_by("created_at", "id")
        )
    else:
        settings, formations, units, phases, decisions = [], [], [], [], []
    formation_code = {f.pk: f.code for f in formations}
    unit_code = {u.pk: u.code for u in units}
    sheet_code: dict[int, dict[int, str]] = {}  # side → sheet pk → code
    for r in sheets:
        sheet_code.setdefault(r.side_id, {})[r.pk] = r.code

    def key_prefix(side_id: int):
        codes = sheet_code.get(side_id, {})

        def prefix(value: str) -> str:
            head, _sep, rest = value.partition("/")
            return (
                f"{codes[int(head)]}/{rest}" if head.isdecimal() and int(head) in codes else value
            )

        return prefix

    refs = {
        "side": dict(side_name),
        "sheet": {r.pk: {"side": side_name[r.side_id], "code": r.code} for r in sheets},
        "phase": {p.pk: {"side": side_name[p.side_id], "turn": p.turn} for p in phases},
        "formation": formation_code,
        "unit": unit_code,
        "decision": {
            d.pk: {"unit": unit_code[d.unit_id], "key": d.key, "created_at": _ts(d.created_at)}
            for d in decisions
        },
    }
    section = {
        "sides": [
            {"side": side_name[t.side_id], "rating": t.rating, "prep_table": t.prep_table}
            for t in settings
        ],
        "formations": [
            {
                "side": side_name[f.side_id],
                "code": f.code,
                "name": f.name,
                "morale": f.morale,
                "is_battalion": f.is_battalion,
                "state": f.state,
                "history": f.history,
                "order": f.order,
            }
            for f in formations
        ],
        "units": [
            {
                "side": side_name[u.side_id],
                "formation": formation_code.get(u.formation_id),
                "code": u.code,
                "category": u.category,
                "steps": u.steps,
                "steps_lost": u.steps_lost,
                "eliminated_turn": u.eliminated_turn,
                "left_additions": _left_refs(u.left_additions, sheet_code.get(u.side_id, {})),
                "order": u.order,
            }
            for u in units
        ],
        "op_sheets": [
            {
                "side": side_name[r.side_id],
                "code": r.code,
                "state": r.state,
                **{f: getattr(r, f) for f in SHEET_TEXT_FIELDS},
                "history": r.history,
                "prepared_defense": r.prepared_defense,
                "revealed_at": _ts(r.revealed_at),
                "created_by": _name(r.created_by),
                "created_at": _ts(r.created_at),
                "updated_at": _ts(r.updated_at),
            }
            for r in sheets
        ],
        "command_phases": [
            {
                "side": side_name[p.side_id],
                "turn": p.turn,
                "clock": p.clock,
                "light": p.light,
                "status": p.status,
                "steps": _step_refs(p.steps, sheet_code.get(p.side_id, {}), key_prefix(p.side_id)),
                "completed_at": _ts(p.completed_at),
                "completed_by": _name(p.completed_by),
                "created_at": _ts(p.created_at),
            }
            for p in phases
        ],
        "decisions": [
            {
                "side": side_name[d.side_id],
                "chooser": side_name[d.chooser_id],
                "unit": unit_code[d.unit_id],
                "key": d.key,
                "rule": d.rule,
                "options": d.options,
                "combat": d.combat,
                "turn": d.turn,
                "status": d.status,
                "choice": d.choice,
                "created_at": _ts(d.created_at),
                "resolved_at": _ts(d.resolved_at),
                "resolved_by": _name(d.resolved_by),
            }
            for d in decisions
        ],
    }
    return section, refs


def _dt(value: str | None, field: str) -> dt.datetime | None:
    if value is None:
        return None
    parsed = parse_datetime(value) if isinstance(value, str) else None
    if parsed is None:
        raise ValidationError({field: _("Not a date and time: %(v)s") % {"v": value}})
    return parsed


def _checked(model, where: str, values: dict[str, Any]) -> None:
    """The model's bounds over imported values: a refused value names its section and field,
    like the page's own errors."""
    try:
        bounds.check_values(model, values)
    except ValidationError as exc:
        raise ValidationError(
            {
                "file": [
                    _("%(where)s, %(field)s: %(msg)s") % {"where": where, "field": f, "msg": m}
                    for f, messages in exc.message_dict.items()
                    for m in messages
                ]
            }
        ) from None


def _create(model, where: str, **values: Any):
    _checked(model, where, values)
    return model.objects.create(**values)


def campaign_import(data: Any, *, actor=None) -> Campaign:
    """Create a campaign from an export; users are matched by username (created, without a
    usable password, when missing). All or nothing: a bad file changes nothing."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValidationError({"file": _("This is not a Campaign Ledger campaign export.")})
    if data.get("version") != VERSION:
        raise ValidationError({"file": _("Unsupported export version.")})
    try:
        with transaction.atomic():
            campaign = _import(data)
            tables = [LogEntry, Battle, Decision, Side, SidePlayer]
            if data.get("tcs") is not None:
                tables += [TcsSide, TcsFormation, TcsUnit, OpSheetRecord, CommandPhase, TcsDecision]
            analyze_later(*tables)  # the planner learns the new sizes once committed
            return campaign
    except (KeyError, TypeError, AttributeError, ValueError, DatabaseError) as err:
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
    tcs = data.get("tcs")
    if tcs is not None:
        names.update(r["created_by"] for r in tcs["op_sheets"])
        names.update(p["completed_by"] for p in tcs["command_phases"])
        names.update(d["resolved_by"] for d in tcs["decisions"])
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
    campaign = _create(
        Campaign,
        "campaign",
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
        side = _create(
            Side, "sides", campaign=campaign, name=s["name"], faction=s["faction"], order=s["order"]
        )
        sides[s["name"]] = side
        for p in s["players"]:
            seat = SidePlayer.objects.create(side=side, user=users[p["user"]])
            SidePlayer.objects.filter(pk=seat.pk).update(joined_at=_dt(p["joined_at"], "sides"))
    battles = {}
    for b in data["battles"]:
        battle = _create(
            Battle,
            "battles",
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
        decision = _create(
            Decision,
            "decisions",
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
    lookup = _import_ref(_tcs_import(tcs, campaign, sides, users)) if tcs is not None else None
    for e in data["log"]:
        _checked(LogEntry, "log", {k: e.get(k) for k in ("seq", "number", "summary", "rule")})
    entries = LogEntry.objects.bulk_create(
        [
            LogEntry(
                campaign=campaign,
                battle=battles[e["battle"]] if e["battle"] is not None else None,
                seq=e["seq"],
                number=e.get("number"),
                kind=e["kind"],
                actor=users.get(e["actor"] or ""),
                summary=e["summary"],
                rule=e["rule"],
                data=_log_refs(e["data"], lookup) if lookup else e["data"],
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


def _tcs_import(
    tcs: dict[str, Any], campaign: Campaign, sides: dict[str, Side], users: dict
) -> dict[str, dict]:
    """Create the operation's TCS records from its "tcs" section; returns, for the log,
    each natural key (as `_ref_key`) → the new record's id."""
    back: dict[str, dict] = {k: {} for k in LOG_REFS}
    for name, side in sides.items():
        back["side"][_ref_key(name)] = side.pk
    for t in tcs["sides"]:
        _create(
            TcsSide,
            "tcs.sides",
            side=sides[t["side"]],
            rating=t["rating"],
            prep_table=t["prep_table"],
        )
    formations = {}
    for f in tcs["formations"]:
        formations[f["code"]] = _create(
            TcsFormation,
            "tcs.formations",
            campaign=campaign,
            side=sides[f["side"]],
            code=f["code"],
            name=f["name"],
            morale=f["morale"],
            is_battalion=f["is_battalion"],
            state=f["state"],
            history=f["history"],
            order=f["order"],
        )
        back["formation"][_ref_key(f["code"])] = formations[f["code"]].pk
    sheet_pk: dict[str, dict[str, int]] = {}  # side name → code → new pk
    for r in tcs["op_sheets"]:
        sheet = _create(
            OpSheetRecord,
            "tcs.op_sheets",
            campaign=campaign,
            side=sides[r["side"]],
            code=r["code"],
            state=r["state"],
            **{f: r[f] for f in SHEET_TEXT_FIELDS},
            history=r["history"],
            prepared_defense=r["prepared_defense"],
            revealed_at=_dt(r["revealed_at"], "tcs"),
            created_by=users.get(r["created_by"] or ""),
        )
        OpSheetRecord.objects.filter(pk=sheet.pk).update(
            created_at=_dt(r["created_at"], "tcs"), updated_at=_dt(r["updated_at"], "tcs")
        )
        sheet_pk.setdefault(r["side"], {})[r["code"]] = sheet.pk
        back["sheet"][_ref_key({"side": r["side"], "code": r["code"]})] = sheet.pk

    def key_prefix(side: str):
        codes = sorted(sheet_pk.get(side, {}).items(), key=lambda kv: -len(kv[0]))

        def prefix(value: str) -> str:
            for code, pk in codes:  # the longest code first: codes may hold a "/"
                if value.startswith(f"{code}/"):
                    return f"{pk}/{value[len(code) + 1 :]}"
            return value

        return prefix

    units = {}
    for u in tcs["units"]:
        units[u["code"]] = _create(
            TcsUnit,
            "tcs.units",
            campaign=campaign,
            side=sides[u["side"]],
            formation=formations[u["formation"]] if u["formation"] is not None else None,
            code=u["code"],
            category=u["category"],
            steps=u["steps"],
            steps_lost=u["steps_lost"],
            eliminated_turn=u["eliminated_turn"],
            left_additions=_left_refs(u["left_additions"], sheet_pk.get(u["side"], {})),
            order=u["order"],
        )
        back["unit"][_ref_key(u["code"])] = units[u["code"]].pk
    for p in tcs["command_phases"]:
        phase = _create(
            CommandPhase,
            "tcs.command_phases",
            campaign=campaign,
            side=sides[p["side"]],
            turn=p["turn"],
            clock=p["clock"],
            light=p["light"],
            status=p["status"],
            steps=_step_refs(p["steps"], sheet_pk.get(p["side"], {}), key_prefix(p["side"])),
            completed_at=_dt(p["completed_at"], "tcs"),
            completed_by=users.get(p["completed_by"] or ""),
        )
        CommandPhase.objects.filter(pk=phase.pk).update(created_at=_dt(p["created_at"], "tcs"))
        back["phase"][_ref_key({"side": p["side"], "turn": p["turn"]})] = phase.pk
    for d in tcs["decisions"]:
        decision = _create(
            TcsDecision,
            "tcs.decisions",
            campaign=campaign,
            side=sides[d["side"]],
            chooser=sides[d["chooser"]],
            unit=units[d["unit"]],
            key=d["key"],
            rule=d["rule"],
            options=d["options"],
            combat=d["combat"],
            turn=d["turn"],
            status=d["status"],
            choice=d["choice"],
            resolved_at=_dt(d["resolved_at"], "tcs"),
            resolved_by=users.get(d["resolved_by"] or ""),
        )
        TcsDecision.objects.filter(pk=decision.pk).update(created_at=_dt(d["created_at"], "tcs"))
        natural = {"unit": d["unit"], "key": d["key"], "created_at": d["created_at"]}
        back["decision"][_ref_key(natural)] = decision.pk
    return back
