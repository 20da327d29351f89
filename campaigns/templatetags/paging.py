"""`{% older window %}`: the "Older" row closing a window of a list (campaigns/paging.py).

A plain link to the page showing the next (older) window, so it works without JavaScript;
with htmx it fetches only that window's rows (``more=<name>``) and swaps them in place of
itself, the fetched rows ending with the next "Older" row.

``param`` names the cursor's query parameter (a page may hold two lists), ``url`` the page
when the request is not it (a play action answering with the battle log), ``tag`` "li" or "tr"
(``colspan`` for a table).
"""

from django import template
from django.http import QueryDict

register = template.Library()


@register.inclusion_tag("paging/older.html", takes_context=True)
def older(context, window, more: str, param: str = "before", url: str = "", tag: str = "li",
          colspan: int = 1):  # fmt: skip
    request = context.get("request")
    if url or request is None:
        query = QueryDict(mutable=True)
    else:
        query = request.GET.copy()
        url = request.path
    for key in ("more", "page", "partial"):
        query.pop(key, None)
    token = getattr(window, "older", None)
    query[param] = token or ""
    href = f"{url}?{query.urlencode()}"
    query["more"] = more
    return {
        "token": token,
        "href": href,
        "hx": f"{url}?{query.urlencode()}",
        "tag": tag,
        "colspan": colspan,
    }
