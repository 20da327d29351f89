from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = _("Campaigns")

    def ready(self) -> None:
        # Register the Celery tasks as Django starts (services queue them by name: enqueue.py).
        # Kept in ready(): tasks imports campaigns.models, not importable while apps.py loads.
        from campaigns import tasks  # noqa: F401
