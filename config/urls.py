from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from campaigns.views import accounts, campaigns, health, home

urlpatterns = [
    path("", home.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("campaigns/new/", campaigns.campaign_new, name="campaign-new"),
    path("campaigns/<int:pk>/", campaigns.campaign_detail, name="campaign-detail"),
    path(
        "campaigns/<int:pk>/sides/<int:side_pk>/seat/",
        campaigns.side_take_seat,
        name="side-join",
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
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]
