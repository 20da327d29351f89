from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign, GameSystem
from campaigns.models import bounds as b


class SignUpForm(UserCreationForm):
    email = forms.EmailField(label=_("Email"), required=False)

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class CampaignCreateForm(forms.Form):
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

    def clean_side_names(self) -> list[str]:
        return [n.strip() for n in self.cleaned_data["side_names"].splitlines() if n.strip()]


class InviteForm(forms.Form):
    username = forms.CharField(label=_("Player's username"), max_length=150)
    side = forms.ChoiceField(label=_("Side"))

    def __init__(self, sides, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.sides = {str(s.pk): s for s in sides}
        self.fields["side"].choices = [(str(s.pk), s.name) for s in sides]
