from django.shortcuts import render

from campaigns.models import Campaign
from campaigns.selectors import campaigns_for_user
from campaigns.selectors.home import public_showcase
from campaigns.selectors.inbox import waiting_summary
from campaigns.views.common import partial_request

STATUS_FILTERS = {
    "active": [Campaign.Status.SETUP, Campaign.Status.ACTIVE],
    "finished": [Campaign.Status.FINISHED, Campaign.Status.ABANDONED],
}


def home(request):
    """The user's campaigns, each marked when something waits for them; for a signed-out
    visitor, how to start and the public clubs, leagues, campaigns and players to browse.
    htmx swaps only the list."""
    status = request.GET.get("status", "")
    if not request.user.is_authenticated:
        return render(request, "home.html", {"browse": public_showcase()})
    qs = campaigns_for_user(request.user)
    if status in STATUS_FILTERS:
        qs = qs.filter(status__in=STATUS_FILTERS[status])
    total, waiting_ids = waiting_summary(request.user)
    context = {
        "campaigns": list(qs),
        "status": status,
        "waiting_ids": waiting_ids,
        "waiting_total": total,
        "inbox_count": total,  # the header badge: no second query
    }
    template = "home.html#campaign-list" if partial_request(request) else "home.html"
    return render(request, template, context)
