from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from games.engine import LEVELS, VARIANTS
from games.labels import VARIANT_NAMES
from games.models import Room

VARIANT_HELP = {
    "babanuki": _(
        "53 cards with one joker. Whoever is left holding the joker loses; every seat is ranked."
    ),
    "jijinuki": _(
        "One card is set aside unseen, so nobody knows which rank is the odd one until the end."
    ),
    "old_maid": _("51 cards with one queen taken out. Whoever is left with the lone queen loses."),
    "schwarzer_peter": _(
        "A 31-card German deck. The jack of clubs is the Black Peter; you draw from your left."
    ),
}


class SignUpForm(UserCreationForm):
    pass


class NewGameForm(forms.Form):
    variant = forms.ChoiceField(
        label=_("Game"),
        choices=list(VARIANT_NAMES.items()),
        initial="babanuki",
        widget=forms.RadioSelect,
    )
    seat_count = forms.TypedChoiceField(
        label=_("Players"), coerce=int, choices=[(n, n) for n in range(2, 9)], initial=4
    )
    mode = forms.ChoiceField(
        label=_("How to play"),
        choices=[
            ("computer", _("Versus the computer")),
            ("same_device", _("Everyone on this device")),
            ("friends", _("With friends (send a link)")),
        ],
        initial="computer",
        widget=forms.RadioSelect,
    )
    computer_level = forms.ChoiceField(
        label=_("Computer level"),
        choices=[("easy", _("Easy")), ("medium", _("Medium")), ("hard", _("Hard"))],
        initial="medium",
    )
    rounds = forms.TypedChoiceField(
        label=_("Rounds (points games)"), coerce=int, choices=[(1, 1), (3, 3), (5, 5)], initial=3
    )
    strike_limit = forms.IntegerField(
        label=_("Strike limit (one-loser games)"), min_value=1, max_value=10, initial=3
    )
    single_round = forms.BooleanField(label=_("Just one round"), required=False)
    same_colour_pairs = forms.BooleanField(label=_("Pairs must match in colour"), required=False)
    reverse = forms.BooleanField(
        label=_("Reverse: holding the odd card at the end wins (one-loser games only)"),
        required=False,
    )
    listed = forms.BooleanField(label=_("List the room in the lobby"), required=False)
    first_dealer = forms.TypedChoiceField(
        label=_("First dealer"),
        coerce=int,
        empty_value=None,
        required=False,
        choices=[("", _("Random"))] + [(i, _("Seat %(n)s") % {"n": i + 1}) for i in range(8)],
    )

    def __init__(self, *args, signed_in: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.signed_in = signed_in

    def clean(self):
        data = super().clean()
        variant = VARIANTS.get(data.get("variant"))
        seats = data.get("seat_count")
        if variant and seats and not variant.min_players <= seats <= variant.max_players:
            self.add_error(
                "seat_count",
                _("%(game)s is played by %(low)s to %(high)s players.")
                % {
                    "game": VARIANT_NAMES[variant.key],
                    "low": variant.min_players,
                    "high": variant.max_players,
                },
            )
        if variant and data.get("reverse") and variant.scoring != "strikes":
            self.add_error(
                "reverse",
                _(
                    "Reverse needs a one-loser game (Old Maid or Schwarzer Peter); "
                    "%(game)s ranks every seat."
                )
                % {"game": VARIANT_NAMES[variant.key]},
            )
        if data.get("mode") == "friends" and not self.signed_in:
            self.add_error("mode", _("Log in or sign up to invite friends."))
        dealer = data.get("first_dealer")
        if dealer is not None and seats and dealer >= seats:
            self.add_error("first_dealer", _("Choose one of the table's seats."))
        return data

    def room_arguments(self) -> dict:
        data = self.cleaned_data
        variant = VARIANTS[data["variant"]]
        points = variant.scoring == "points"
        return {
            "variant": variant.key,
            "seat_count": data["seat_count"],
            "mode": data["mode"],
            "computer_level": data["computer_level"],
            "rounds": (1 if data["single_round"] else data["rounds"]) if points else None,
            "strike_limit": None if points else data["strike_limit"],
            "single_round": data["single_round"],
            "options": {
                "same_colour_pairs": data["same_colour_pairs"],
                "reverse": data["reverse"],
            },
            "listed": data["listed"] and data["mode"] == Room.Mode.FRIENDS,
            "first_dealer": data["first_dealer"],
        }


assert set(VARIANT_HELP) == set(VARIANTS) and set(LEVELS) == {"easy", "medium", "hard"}
