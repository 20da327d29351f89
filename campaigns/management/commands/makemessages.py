"""`makemessages` that also collects the engine's message ids (`rules.i18n.msg`/`nmsg`)."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=msg:1",
        "--keyword=nmsg:1,2",
    ]
