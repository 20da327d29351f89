from django.contrib import admin

from campaigns.models import Campaign, Club, ClubMembership, LogEntry, Side, SidePlayer


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
