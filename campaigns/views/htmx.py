"""htmx helpers shared by the views."""


def partial_request(request) -> bool:
    """An htmx swap of part of a page; a boosted navigation (hx-boost) wants the whole page."""
    return bool(request.htmx) and not request.htmx.boosted
