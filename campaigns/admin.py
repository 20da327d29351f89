from django.contrib import admin

from campaigns.models import (
    Campaign,
    Club,
    ClubInvite,
    ClubMembership,
    CommandPhase,
    League,
    LeagueParticipant,
    LogEntry,
    OpSheetRecord,
    Result,
    ResultCorrection,
    ResultPlayer,
    Roster,
    RosterChange,
    Side,
    SidePlayer,
    SkirmishBattle,
    SkirmishEvent,
    TcsFormation,
    TcsSide,
    TcsUnit,
)


class MembershipInline(admin.TabularInline):
    model = ClubMembership
    extra = 0


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


class SideInline(admin.TabularInline):
    model = Side
    extra = 0


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "system", "template", "status", "visibility", "updated_at"]
    list_filter = ["system", "status", "visibility"]
    search_fields = ["name"]
    inlines = [SideInline]


@admin.register(SidePlayer)
class SidePlayerAdmin(admin.ModelAdmin):
    list_display = ["user", "side"]


@admin.register(LogEntry)
class LogEntryAdmin(admin.ModelAdmin):
    """Read-only: the log is append-only; corrections are new entries."""

    list_display = ["campaign", "seq", "kind", "rule", "summary", "created_at"]
    list_filter = ["kind"]

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


# --- rosters and skirmish battles ---


@admin.register(Roster)
class RosterAdmin(admin.ModelAdmin):
    list_display = ["name", "system", "owner", "campaign", "updated_at", "archived_at"]
    list_filter = ["system"]
    search_fields = ["name", "owner__username"]


@admin.register(RosterChange)
class RosterChangeAdmin(admin.ModelAdmin):
    """Read-only: the history is append-only; corrections are new entries."""

    list_display = ["roster", "seq", "kind", "summary", "created_at"]
    list_filter = ["kind"]

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(SkirmishBattle)
class SkirmishBattleAdmin(admin.ModelAdmin):
    list_display = ["__str__", "system", "mode", "status", "created_at"]
    list_filter = ["system", "status"]


@admin.register(SkirmishEvent)
class SkirmishEventAdmin(admin.ModelAdmin):
    list_display = ["battle", "seq", "kind", "summary", "created_at"]

    def has_change_permission(self, request, obj=None):
        return False


# --- Clubs and leagues ------------------------------------------------------------------------


@admin.register(ClubInvite)
class ClubInviteAdmin(admin.ModelAdmin):
    list_display = ["club", "invited_user", "role", "created_at", "accepted_at", "revoked"]


class ParticipantInline(admin.TabularInline):
    model = LeagueParticipant
    extra = 0


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "season", "club", "system", "status"]
    list_filter = ["system", "status"]
    inlines = [ParticipantInline]


class ResultPlayerInline(admin.TabularInline):
    model = ResultPlayer
    extra = 0


class CorrectionInline(admin.TabularInline):
    """The trace is read-only: corrections go through the league pages (they leave a trace)."""

    model = ResultCorrection
    extra = 0
    can_delete = False
    readonly_fields = ["action", "actor", "reason", "before", "after", "created_at"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):
    list_display = ["league", "played_on", "scenario", "outcome", "status"]
    list_filter = ["status", "league"]
    inlines = [ResultPlayerInline, CorrectionInline]

    def has_change_permission(self, request, obj=None) -> bool:
        return False


# --- TCS operations (read-mostly: play goes through the site's services and is logged) ------


@admin.register(TcsSide)
class TcsSideAdmin(admin.ModelAdmin):
    list_display = ["side", "rating"]


@admin.register(TcsFormation)
class TcsFormationAdmin(admin.ModelAdmin):
    list_display = ["code", "campaign", "side", "morale", "is_battalion"]
    list_filter = ["morale"]


@admin.register(TcsUnit)
class TcsUnitAdmin(admin.ModelAdmin):
    list_display = ["code", "campaign", "side", "category", "steps", "steps_lost"]


@admin.register(OpSheetRecord)
class OpSheetRecordAdmin(admin.ModelAdmin):
    list_display = ["code", "campaign", "side", "revealed_at", "updated_at"]


@admin.register(CommandPhase)
class CommandPhaseAdmin(admin.ModelAdmin):
    list_display = ["campaign", "side", "turn", "clock", "status"]
    list_filter = ["status"]
