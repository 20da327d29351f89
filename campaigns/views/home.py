from django.shortcuts import render

from campaigns.models import Campaign
from campaigns.selectors import campaigns_for_user
from campaigns.views.common import partial_request

STATUS_FILTERS = {
    "active": [Campaign.Status.SETUP, Campaign.Status.ACTIVE],
    "finished": [Campaign.Status.FINISHED, Campaign.Status.ABANDONED],
}


def home(request):
    """The user's campaigns, or an explanation of how to start; htmx swaps only the list."""
    campaigns = []
    status = request.GET.get("status", "")
    if request.user.is_authenticated:
        qs = campaigns_for_user(request.user)
        if status in STATUS_FILTERS:
            qs = qs.filter(status__in=STATUS_FILTERS[status])
        campaigns = list(qs)
    template = "home.html#campaign-list" if partial_request(request) else "home.html"
    return render(request, template, {"campaigns": campaigns, "status": status})
