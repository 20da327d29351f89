"""The campaign tables page of a Combat Commander campaign: a grid per table, a file upload
and the site's example placeholders."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.forms import Form
from django.http import Http404, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from campaigns.cc.engines import TEMPLATES, template_for
from campaigns.cc.tables_forms import TablesGridForm, TablesUploadForm
from campaigns.services.cc_campaigns import cc_tables_update
from campaigns.services.cc_tables import PLACEHOLDER_FILES, cc_tables_use_example
from campaigns.views.common import flash_errors, visible_campaign


def cc_tables(request, pk: int):
    campaign, viewer = visible_campaign(request, pk)
    if campaign.template not in TEMPLATES or not template_for(campaign.template).needs_tables:
        raise Http404
    tpl = template_for(campaign.template)
    grid = TablesGridForm(campaign.tables, tpl)
    upload = TablesUploadForm(campaign.tables)
    if request.method == "POST":
        if not viewer.can_manage:
            return HttpResponseForbidden(_("Only the campaign's organiser may edit its tables."))
        action = request.POST.get("action", "save")
        if action == "example":
            try:
                cc_tables_use_example(campaign=campaign, actor=request.user)
            except ValidationError as exc:
                flash_errors(request, exc)
            else:
                messages.success(
                    request,
                    _(
                        "The example tables are in. They are made-up placeholders, not the "
                        "rulebook's values: replace them with your printed tables when you can."
                    ),
                )
            return redirect("cc-tables", pk=campaign.pk)
        if action == "upload":
            upload = TablesUploadForm(campaign.tables, request.POST, request.FILES)
            form: Form | None = upload
        else:
            add = request.POST.get("add", "")
            grid = form = TablesGridForm(campaign.tables, tpl, request.POST, add=add)
            if add:  # one more empty row: redraw, save nothing
                form = None
        if form is not None and form.is_valid():
            data = form.cleaned_data["upload" if form is upload else "tables"]
            try:
                cc_tables_update(campaign=campaign, actor=request.user, data=data)
            except ValidationError as exc:
                for message in exc.messages:
                    form.add_error(None, message)
            else:
                messages.success(request, _("Tables saved."))
                return redirect("cc-tables", pk=campaign.pk)
    return render(
        request,
        "cc/tables.html",
        {
            "campaign": campaign,
            "viewer": viewer,
            "grid": grid,
            "upload": upload,
            "template": tpl,
            "has_example": tpl.key in PLACEHOLDER_FILES,
            "upload_open": upload.is_bound,
        },
    )
