from csp.constants import SELF, UNSAFE_INLINE
from csp.decorators import csp_replace
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from campaigns.views import (
    accounts,
    campaigns,
    cc,
    cc_battle,
    cc_tables,
    dice,
    health,
    home,
    inbox,
)

# Swagger UI: its start-up script is served by the view itself (the split view, no inline
# script), but the page has an inline <style> and Swagger UI sets style attributes and draws
# data: images, so this one page gets a wider style-src and img-src than the site's CSP.
api_docs = csp_replace({"style-src": [SELF, UNSAFE_INLINE], "img-src": [SELF, "data:"]})(
    # GET only: its HTML renderer has no template for an OPTIONS answer (that was a 500).
    SpectacularSwaggerSplitView.as_view(url_name="api-schema", http_method_names=["get", "head"])
)

urlpatterns = [
    path("", home.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("favicon.ico", inbox.favicon, name="favicon"),
    path("inbox/", inbox.inbox, name="inbox"),
    path("accounts/notices/", inbox.notice_settings, name="notice-settings"),
    path("live/campaign/<int:pk>/", inbox.live_campaign, name="live-campaign"),
    path("live/skirmish/<int:pk>/", inbox.live_skirmish, name="live-skirmish"),
    path("dice/odds/", dice.odds, name="dice-odds"),
    path("campaigns/new/", campaigns.campaign_new, name="campaign-new"),
    path("campaigns/<int:pk>/", campaigns.campaign_detail, name="campaign-detail"),
    path(
        "campaigns/<int:pk>/sides/<int:side_pk>/seat/",
        campaigns.side_take_seat,
        name="side-join",
    ),
    path("campaigns/new/cc/<slug:template>/", cc.cc_new, name="cc-new"),
    path("campaigns/<int:pk>/invite/", campaigns.side_invite_view, name="side-invite"),
    path("campaigns/<int:pk>/advance/", cc.cc_advance_view, name="cc-advance"),
    path("campaigns/<int:pk>/resume/", cc.cc_resume_view, name="cc-resume"),
    path("campaigns/<int:pk>/tables/", cc_tables.cc_tables, name="cc-tables"),
    path("campaigns/<int:pk>/log/", cc.full_log, name="campaign-log"),
    path(
        "campaigns/<int:pk>/decisions/<int:decision_pk>/",
        cc.decision_answer_view,
        name="decision-answer",
    ),
    path("campaigns/<int:pk>/battles/<int:number>/", cc.battle_detail, name="battle-detail"),
    path("campaigns/<int:pk>/battles/<int:number>/sheet/", cc.battle_sheet, name="battle-sheet"),
    path(
        "campaigns/<int:pk>/battles/<int:number>/events/", cc.battle_event_view, name="battle-event"
    ),
    path("campaigns/<int:pk>/battles/<int:number>/rolls/", cc.battle_roll_view, name="battle-roll"),
    path(
        "campaigns/<int:pk>/battles/<int:number>/track/",
        cc_battle.tracker_start_view,
        name="tracker-start",
    ),
    path(
        "campaigns/<int:pk>/battles/<int:number>/track/counters/",
        cc_battle.tracker_counters_view,
        name="tracker-counters",
    ),
    path(
        "campaigns/<int:pk>/battles/<int:number>/track/undo/",
        cc_battle.tracker_undo_view,
        name="tracker-undo",
    ),
    path(
        "campaigns/<int:pk>/battles/<int:number>/track/<slug:key>/",
        cc_battle.tracker_act_view,
        name="tracker-act",
    ),
    path(
        "campaigns/<int:pk>/battles/<int:number>/track/<slug:key>/odds/",
        cc_battle.tracker_odds_view,
        name="tracker-odds",
    ),
    path(
        "campaigns/<int:pk>/battles/<int:number>/result/",
        cc.battle_result_view,
        name="battle-result",
    ),
    path(
        "campaigns/<int:pk>/battles/<int:number>/correct/",
        cc.battle_correct_view,
        name="battle-correct",
    ),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/v1/", include("campaigns.api.urls")),
    path("", include("campaigns.urls_leagues")),
    path("", include("campaigns.urls_rosters")),
    path("", include("campaigns.urls_tcs")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", api_docs, name="api-docs"),
]
