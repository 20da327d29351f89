"""No page reachable from the demo data answers with a server error, signed in or not."""

import re
from urllib.parse import urldefrag

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db
SKIP = ("/admin/", "/static/", "/media/", "/api/docs", "/accounts/logout")


def _crawl(client, *starts, limit=250):
    seen, queue, failures = set(), list(starts or ["/"]), []
    while queue and len(seen) < limit:
        url = urldefrag(queue.pop(0))[0]
        if url in seen or url.startswith(SKIP):
            continue
        seen.add(url)
        response = client.get(url)
        if response.status_code >= 500:
            failures.append((url, response.status_code))
        if "text/html" in response.get("Content-Type", ""):
            for href in re.findall(r'href="(/[^"]*)"', response.content.decode()):
                queue.append(href.replace("&amp;", "&"))
    return seen, failures


def test_no_page_fails_for_a_player_or_a_visitor(client):
    call_command("load_demo")
    assert client.login(username="demo", password="ledger-demo")
    campaign_page = client.get("/").content.decode()
    campaign_url = re.search(r'href="(/campaigns/\d+/)"', campaign_page).group(1)
    client.post(campaign_url + "advance/")  # open the sealed purchase
    seen, failures = _crawl(client)
    assert len(seen) > 40 and failures == []
    client.logout()
    seen, failures = _crawl(client, "/", "/clubs/", campaign_url)  # a public campaign
    assert len(seen) > 10 and failures == []
