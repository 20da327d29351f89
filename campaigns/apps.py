from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = _("Campaigns")

    def ready(self) -> None:
        # Register the Celery tasks with the app as Django starts (the signals idiom), so that
        # services can queue them by name without importing the task module.
        from campaigns import tasks  # noqa: F401
