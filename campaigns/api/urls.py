from django.urls import include, path
from rest_framework.authtoken.views import obtain_auth_token
from rest_framework.routers import DefaultRouter

from campaigns.api import views

router = DefaultRouter()
router.register("campaigns", views.CampaignViewSet, basename="api-campaign")
router.register("clubs", views.ClubViewSet, basename="api-club")

urlpatterns = [
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("me/", views.me, name="api-me"),
    path("", include(router.urls)),
]
