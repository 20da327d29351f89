from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign, Club, GameSystem
from campaigns.models import bounds as b
from campaigns.selectors.leagues import clubs_of_member


class SignUpForm(UserCreationForm):
    email = forms.EmailField(label=_("Email"), required=False)

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


def club_field(user, *, initial: Club | None = None) -> forms.ModelChoiceField:
    """The optional club of a campaign: one of the clubs the user belongs to (any member may
    create a campaign in his club; the service checks it again)."""
    return forms.ModelChoiceField(
        label=_("Club"),
        queryset=clubs_of_member(user),
        required=False,
        initial=initial,
        empty_label=_("No club (a campaign of your own)"),
        help_text=_(
            "The club's members find it on the club page, and its battles can be recorded in "
            "the club's leagues."
        ),
    )


class ClubFieldMixin:
    """New-campaign forms: ``user=`` adds the club field (none for an anonymous caller)."""

    def add_club_field(self, user) -> None:
        if user is not None and user.is_authenticated:
            self.fields["club"] = club_field(user)

    def chosen_club(self) -> Club | None:
        return self.cleaned_data.get("club")


class CampaignClubForm(forms.Form):
    """Move a campaign into one of the user's clubs, or out of any club."""

    def __init__(self, *args, user, campaign: Campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"] = club_field(user, initial=campaign.club_id)
        self.fields["club"].label = _("Club of this campaign")


class CampaignCreateForm(ClubFieldMixin, forms.Form):
    name = forms.CharField(label=_("Name"), max_length=160)
    system = forms.ChoiceField(label=_("Game system"), choices=GameSystem.choices)
    side_names = forms.CharField(
        label=_("Sides"),
        help_text=_("One per line, for example “Germans” and “Soviets”."),
        max_length=1_000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    visibility = forms.ChoiceField(
        label=_("Visibility"),
        choices=Campaign.Visibility.choices,
        initial=Campaign.Visibility.PRIVATE,
        help_text=_("Public campaigns can be read by anyone; private ones by their players."),
    )
    description = forms.CharField(
        label=_("Description"),
        required=False,
        max_length=b.DESCRIPTION_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    as_game_master = forms.BooleanField(
        label=_("I run this campaign as a neutral game master"),
        required=False,
        help_text=_("A game master sees every side's secrets and cannot play a side."),
    )

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_club_field(user)

    def clean_side_names(self) -> list[str]:
        return [n.strip() for n in self.cleaned_data["side_names"].splitlines() if n.strip()]


class InviteForm(forms.Form):
    username = forms.CharField(label=_("Player's username"), max_length=150)
    side = forms.ChoiceField(label=_("Side"))

    def __init__(self, sides, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.sides = {str(s.pk): s for s in sides}
        self.fields["side"].choices = [(str(s.pk), s.name) for s in sides]
