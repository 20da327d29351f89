from django.urls import include, path, re_path
from rest_framework.routers import DefaultRouter

from campaigns.api import cc as cc_api
from campaigns.api import leagues as league_api
from campaigns.api import rosters as roster_api
from campaigns.api import tcs as tcs_api
from campaigns.api import views
from campaigns.api.auth import obtain_auth_token

# No `.json` format-suffix routes: the API speaks JSON only (`?format=` still works), the
# schema never listed them, and actions do not take a `format` argument (they answered 500).
router = DefaultRouter()
router.include_format_suffixes = False
router.register("campaigns", views.CampaignViewSet, basename="api-campaign")
router.register("clubs", views.ClubViewSet, basename="api-club")
# Each area adds its own viewsets: clubs and leagues, rosters and skirmish battles, Combat
# Commander campaigns and battles, TCS operations.
league_api.register(router)
roster_api.register(router)
cc_api.register(router)
tcs_api.register(router)

urlpatterns = [
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("me/", views.me, name="api-me"),
    path("", include(router.urls)),
    # Last: any other /api/v1/…/ path (an id that is not a number, a name the router does not
    # know) is answered as the API answers a missing object, a JSON 404, not the site's page.
    re_path(r"^.*/$", views.not_found, name="api-not-found"),
]
