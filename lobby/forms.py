import json

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games import fairness_data, names
from games.engine import LEVELS, VARIANTS
from games.engine.match import DEFAULT_STRIKE_LIMIT, MAX_STRIKE_LIMIT, ROUND_CHOICES
from games.labels import SPEED_NAMES, VARIANT_NAMES
from games.models import Room
from games.names import NAME_MAX
from games.schedule import DEFAULT_COMPUTER_SPEED

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

MODE_HELP = {
    "computer": _("You against computer players; the game starts at once."),
    "same_device": _("Everyone shares this screen; a curtain hides each hand between turns."),
    "friends": _("You get a link to send; friends sit down from their own devices."),
}


def clean_player_name(value: str) -> str:
    """A name typed for a seat (``games.names``): normalised, trimmed, 1 to ``NAME_MAX``
    characters, nothing invisible; runs of spaces become one."""
    try:
        return names.normalise(value)
    except names.NameRefused as exc:
        if exc.code == "invisible":
            message = _("A name cannot contain invisible characters or control characters.")
        elif exc.code == "required":
            message = _("Type a name.")
        else:
            message = ngettext(
                "A name is at most %(max)s character long.",
                "A name is at most %(max)s characters long.",
                NAME_MAX,
            ) % {"max": NAME_MAX}
        raise ValidationError(message, code=exc.code) from None


class SignUpForm(UserCreationForm):
    pass


class JoinForm(forms.Form):
    """Sitting down by invitation: the name the other players will see. A signed-in
    player who leaves it blank sits down under their username."""

    name = forms.CharField(
        label=_("Your name at the table"),
        strip=False,  # clean_player_name trims, after refusing control characters
        help_text=_("What the other players see. 1 to 30 characters."),
        error_messages={"required": _("Type a name.")},
        widget=forms.TextInput(attrs={"autocomplete": "nickname", "maxlength": 60}),
    )

    def __init__(self, *args, username: str = "", taken_names=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.label_suffix = ""
        self.username = username
        self.taken_names = {names.name_key(n) for n in taken_names}
        if username:
            self.fields["name"].required = False
            self.fields["name"].initial = username

    def clean_name(self):
        value = self.cleaned_data["name"]
        name = self.username if self.username and not value.strip() else clean_player_name(value)
        if names.name_key(name) in self.taken_names:  # join_room checks again, locked
            raise ValidationError(
                _("Someone at this table is already called %(name)s; choose another name.")
                % {"name": name},
                code="taken",
            )
        return name


#: When a new-game option applies: only then is it shown (new_game.js hides the others)
#: and only then does the server read it. Keys: the ways of playing (``modes``), the
#: scoring of the chosen game (``scoring``) and the games (``variants``).
APPLIES = {
    "computer_level": {"modes": ("computer", "friends")},
    "computer_speed": {"modes": ("computer", "friends")},
    # The match length is one control per scoring (RULES.md section 5): a number of
    # rounds for points, a number of strikes for strikes; both offer one round.
    "rounds": {"scoring": ("points",)},
    "strike_limit": {"scoring": ("strikes",)},
    "reverse": {"scoring": ("strikes",)},
    # The seat that deals is chosen by the host only in the games dealt the traditional
    # way (RULES.md section 4); the Japanese games pick the first dealer at random.
    "first_dealer": {"variants": ("old_maid", "schwarzer_peter")},
    "listed": {"modes": ("friends",)},
    "host_name": {"modes": ("friends",)},
    "bots": {"modes": ("computer",)},
}

#: Said under each such option for pages without scripts, where every option shows.
APPLIES_NOTES = {
    "computer_level": _("Only when computer players take part."),
    "computer_speed": _("Only when computer players take part."),
    "rounds": _("Babanuki and Jiji-nuki only."),
    "strike_limit": _("Old Maid and Schwarzer Peter only."),
    "reverse": _("Old Maid and Schwarzer Peter only."),
    "first_dealer": _("Old Maid and Schwarzer Peter only."),
    "listed": _("With friends only."),
    "host_name": _("With friends only."),
    "bots": _("Versus the computer only."),
    "seat_names": _("Only when everyone plays on this device."),
    "balanced_deal": _("Only where the game's own deal is clearly unfair (see the fairness page)."),
}

#: What the server reads for an option that does not apply.
NOT_APPLYING = {
    "computer_level": "medium",
    "computer_speed": DEFAULT_COMPUTER_SPEED,
    "rounds": 3,
    "strike_limit": DEFAULT_STRIKE_LIMIT,
    "first_dealer": None,
    "listed": False,
    "host_name": "",
    "bots": [],
}

#: The table sizes any game allows; each game's own limits are its engine variant's.
MIN_SEATS = min(v.min_players for v in VARIANTS.values())
MAX_SEATS = max(v.max_players for v in VARIANTS.values())


def players_sentence(variant) -> str:
    """A game's table sizes from the engine: "Jiji-nuki is played by 3 to 8 players."."""
    return ngettext(
        "%(game)s is played by %(low)s to %(high)s player.",
        "%(game)s is played by %(low)s to %(high)s players.",
        variant.max_players,
    ) % {
        "game": VARIANT_NAMES[variant.key],
        "low": variant.min_players,
        "high": variant.max_players,
    }


def one_round() -> str:
    return gettext("One round")


class NewGameForm(forms.Form):
    variant = forms.ChoiceField(
        label=_("Game"),
        choices=list(VARIANT_NAMES.items()),
        initial="babanuki",
        widget=forms.RadioSelect,
    )
    mode = forms.ChoiceField(
        label=pgettext_lazy(
            "the way of playing: versus the computer, on one device, with friends", "How to play"
        ),
        choices=[
            ("computer", _("Versus the computer")),
            ("same_device", _("Everyone on this device")),
            ("friends", _("With friends (send a link)")),
        ],
        initial="computer",
        widget=forms.RadioSelect,
    )
    seat_count = forms.TypedChoiceField(
        label=_("Players"),
        coerce=int,
        choices=[(n, n) for n in range(MIN_SEATS, MAX_SEATS + 1)],
        initial=4,
        # The help under it says each game's table sizes (seat_limits).
        widget=forms.Select(attrs={"aria-describedby": "id_seat_count_helptext"}),
    )
    computer_level = forms.ChoiceField(
        label=_("Computer level"),
        choices=[("easy", _("Easy")), ("medium", _("Medium")), ("hard", _("Hard"))],
        initial="medium",
        help_text=_(
            "Easy computers always hide the odd card in the same place; "
            "hard ones shuffle every time."
        ),
    )
    computer_speed = forms.ChoiceField(
        label=_("Computer speed"),
        choices=list(SPEED_NAMES.items()),
        initial=DEFAULT_COMPUTER_SPEED,
        required=False,  # not sent: the normal speed
        help_text=_("How long each computer player takes over its draw."),
    )
    # The match length: its choices' words are built per request, in the reader's
    # language (__init__).
    rounds = forms.TypedChoiceField(
        label=_("Match length"),
        coerce=int,
        choices=[(n, n) for n in ROUND_CHOICES],
        initial=3,
        help_text=_(
            "A match of Babanuki or Jiji-nuki: each round scores points by finishing "
            "place; the highest total after the last round wins."
        ),
    )
    strike_limit = forms.TypedChoiceField(
        label=_("Match length"),
        coerce=int,
        choices=[(n, n) for n in range(1, MAX_STRIKE_LIMIT + 1)],
        initial=DEFAULT_STRIKE_LIMIT,
        help_text=_(
            "A match of Old Maid or Schwarzer Peter: each round's loser takes a strike; "
            "the first to reach the number chosen loses the match."
        ),
    )
    same_colour_pairs = forms.BooleanField(
        label=_("Pairs must match in colour"),
        required=False,
        help_text=_("Only red with red and black with black make a pair."),
    )
    reverse = forms.BooleanField(
        label=_("Reverse: holding the odd card at the end wins"),
        required=False,
        help_text=_("Strikes then count wins: the first to reach the limit wins the match."),
    )
    first_dealer = forms.TypedChoiceField(
        label=_("First dealer"),
        coerce=int,
        empty_value=None,
        required=False,
        help_text=_("Deals the first round; the deal then moves one seat clockwise."),
    )
    balanced_deal = forms.BooleanField(
        label=_("Balanced deal"),
        required=False,
        initial=True,
        help_text=_(
            "At this table no ordinary deal is fair, so one seat is dealt a different "
            "number of cards and nobody's seat makes them lose more often. Switch it off "
            "to play the game's own deal."
        ),
    )
    listed = forms.BooleanField(
        label=_("List the room in the lobby"),
        required=False,
        help_text=_("Anyone in the lobby can see the room and sit down."),
    )
    # A guest hosting friends is named by it (a signed-in host by the username): the
    # invitation says who invites (__init__ drops it for a signed-in host).
    host_name = forms.CharField(
        label=_("Your name at the table"),
        required=False,
        strip=False,  # clean_player_name trims, after refusing control characters
        help_text=_("Your friends see it on the invitation and at the table. 1 to 30 characters."),
        widget=forms.TextInput(attrs={"autocomplete": "nickname", "maxlength": 60}),
    )
    # The bots online now (docs/bots.md), offered for the opponents' seats (__init__).
    bots = forms.MultipleChoiceField(
        label=_("Bots instead of the computer"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Computer players that people wrote. Each one chosen is invited to a seat; the "
            "game starts once they have answered, the built-in computer in the other seats."
        ),
    )

    def __init__(self, *args, signed_in: bool, online_bots=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.signed_in = signed_in
        self.label_suffix = ""
        # Only a signed-in player invites: a room with bots waits for their answers.
        self.fields["bots"].choices = [(b, b) for b in online_bots] if signed_in else []
        if signed_in:
            del self.fields["host_name"]
        # Built per request, in the reader's language.
        self.fields["rounds"].choices = [
            (n, one_round() if n == 1 else ngettext("%(n)s round", "%(n)s rounds", n) % {"n": n})
            for n in ROUND_CHOICES
        ]
        self.fields["strike_limit"].choices = [
            (
                n,
                one_round()
                if n == 1
                else ngettext("First to %(n)s strike", "First to %(n)s strikes", n) % {"n": n},
            )
            for n in range(1, MAX_STRIKE_LIMIT + 1)
        ]
        self.fields["first_dealer"].choices = [("", gettext("Random"))] + [
            (i, gettext("Seat %(n)s") % {"n": i + 1}) for i in range(MAX_SEATS)
        ]
        for i in range(MAX_SEATS):
            default = gettext("Player %(n)s") % {"n": i + 1}
            self.fields[f"seat_name_{i}"] = forms.CharField(
                label=default,
                required=False,
                strip=False,
                initial=default,
                widget=forms.TextInput(attrs={"autocomplete": "off", "maxlength": 60}),
            )

    # What the template lays out.

    def variant_choices(self):
        """Each game's radio button, its description and its variant (how it is scored,
        how many play it)."""
        return [
            (radio, VARIANT_HELP[radio.data["value"]], VARIANTS[radio.data["value"]])
            for radio in self["variant"]
        ]

    def seat_limits(self):
        """Each game's table sizes in words, for the help under the number of players."""
        return [(key, players_sentence(v)) for key, v in VARIANTS.items()]

    def mode_choices(self):
        return [(radio, MODE_HELP[radio.data["value"]]) for radio in self["mode"]]

    def option_fields(self):
        """The fields after the players, each with when it applies and the note that
        says so."""
        names = [
            "computer_level",
            "computer_speed",
            "rounds",
            "strike_limit",
            "same_colour_pairs",
            "reverse",
            "first_dealer",
            "listed",
            "host_name",
        ]
        return [
            (self[name], APPLIES.get(name, {}), APPLIES_NOTES.get(name))
            for name in names
            if name in self.fields
        ]

    # The deal (RULES.md section 7), decided by fairness_data.balanced_deal alone.

    @property
    def balanced_field(self):
        return self["balanced_deal"]

    @property
    def balanced_note(self):
        return APPLIES_NOTES["balanced_deal"]

    def deal_lines(self) -> dict:
        """What the form says about the deal, for every game and table size, in the
        reader's language: ``own`` (the game's own deal) and ``balanced`` (None where
        the balanced deal is not offered). new_game.js shows the one that applies."""
        return {
            key: {
                str(n): {"own": own_deal_line(), "balanced": balanced_deal_line(key, n)}
                for n in range(variant.min_players, variant.max_players + 1)
            }
            for key, variant in VARIANTS.items()
        }

    def deal_line(self) -> str:
        """The line for the form's current game and table size (before any script)."""
        variant = self["variant"].value() or "babanuki"
        try:
            seats = int(self["seat_count"].value())
        except (TypeError, ValueError):
            seats = 4
        on = self["balanced_deal"].value() if self.is_bound else True
        balanced = balanced_deal_line(variant, seats) if on else None
        return balanced or own_deal_line()

    @property
    def bots_note(self):
        return APPLIES_NOTES["bots"]

    @property
    def seat_names_note(self):
        return APPLIES_NOTES["seat_names"]

    def seat_name_fields(self):
        return [self[f"seat_name_{i}"] for i in range(MAX_SEATS)]

    # Checks.

    @staticmethod
    def applies(name: str, variant, mode: str) -> bool:
        when = APPLIES.get(name, {})
        return (
            ("modes" not in when or mode in when["modes"])
            and ("scoring" not in when or variant.scoring in when["scoring"])
            and ("variants" not in when or variant.key in when["variants"])
        )

    def clean(self):
        data = super().clean()
        variant = VARIANTS.get(data.get("variant"))
        mode = data.get("mode")
        seats = data.get("seat_count")
        if variant and mode:
            # An option that does not apply is neither shown nor read: what it holds
            # (left from another choice, or sent without scripts) refuses nothing.
            # Reverse is the exception: asked for in a points game, it is refused
            # (RULES.md section 7) rather than quietly dropped.
            for name, default in NOT_APPLYING.items():
                if not self.applies(name, variant, mode):
                    self.errors.pop(name, None)
                    data[name] = default
        if variant and seats and not variant.min_players <= seats <= variant.max_players:
            self.add_error("seat_count", players_sentence(variant))
        if variant and seats and fairness_data.balanced_deal(variant.key, seats) is None:
            # Not offered here (the game's own deal is already fair): not read, like an
            # option that does not apply; the services refuse it if asked for directly.
            data["balanced_deal"] = False
        if variant and data.get("reverse") and variant.scoring != "strikes":
            self.add_error(
                "reverse",
                _(
                    "Reverse needs a one-loser game (Old Maid or Schwarzer Peter); "
                    "%(game)s ranks every seat."
                )
                % {"game": VARIANT_NAMES[variant.key]},
            )
        chosen = data.get("bots") or []
        if chosen and seats and len(chosen) > seats - 1:
            self.add_error(
                "bots",
                ngettext(
                    "At this table %(n)s seat is the opponents': choose at most %(n)s bot.",
                    "At this table %(n)s seats are the opponents': choose at most %(n)s bots.",
                    seats - 1,
                )
                % {"n": seats - 1},
            )
        dealer = data.get("first_dealer")
        if dealer is not None and seats and dealer >= seats:
            self.add_error("first_dealer", _("Choose one of the table's seats."))
        for i in range(MAX_SEATS):  # names are read only for players on this device
            if mode != Room.Mode.SAME_DEVICE or not seats or i >= seats:
                self.errors.pop(f"seat_name_{i}", None)
        if mode == Room.Mode.SAME_DEVICE and seats:
            self._clean_seat_names(data, seats)
        if "host_name" in self.fields and (data.get("host_name") or "").strip():
            try:
                data["host_name"] = clean_player_name(data["host_name"])
            except ValidationError as exc:
                self.add_error("host_name", exc)
        return data

    def hosts_name(self) -> str:
        """The name a guest hosting friends gave, or "" (then the site's word for a guest)."""
        return (self.cleaned_data.get("host_name") or "").strip()

    def _clean_seat_names(self, data: dict, seats: int) -> None:
        """One name per player on this device: blank is "Player n"; no two alike."""
        given, seen = [], set()
        for i in range(seats):
            field = f"seat_name_{i}"
            value = data.get(field) or ""
            if not value.strip():
                value = gettext("Player %(n)s") % {"n": i + 1}
            try:
                name = clean_player_name(value)
            except ValidationError as exc:
                self.add_error(field, exc)
                continue
            if names.name_key(name) in seen:
                self.add_error(
                    field,
                    _("Two players are called %(name)s; give each a name of their own.")
                    % {"name": name},
                )
                continue
            seen.add(names.name_key(name))
            given.append(name)
        data["seat_names"] = given

    def bot_names(self) -> list[str]:
        """The bots to invite to the opponents' seats, in seat order."""
        return list(self.cleaned_data.get("bots") or [])

    def room_arguments(self) -> dict:
        data = self.cleaned_data
        variant = VARIANTS[data["variant"]]
        points = variant.scoring == "points"
        same_device = data["mode"] == Room.Mode.SAME_DEVICE
        return {
            "variant": variant.key,
            "seat_count": data["seat_count"],
            # Bots answer before the start, as friends do: the room waits for them.
            "mode": Room.Mode.FRIENDS if data.get("bots") else data["mode"],
            "computer_level": data["computer_level"],
            "computer_speed": data["computer_speed"] or DEFAULT_COMPUTER_SPEED,
            "rounds": data["rounds"] if points else None,
            "strike_limit": None if points else data["strike_limit"],
            # One round is the shortest match length of either scoring.
            "single_round": (data["rounds"] if points else data["strike_limit"]) == 1,
            "options": {
                "same_colour_pairs": data["same_colour_pairs"],
                "reverse": data["reverse"],
                "balanced_deal": bool(data.get("balanced_deal")),
            },
            "listed": data["listed"] and data["mode"] == Room.Mode.FRIENDS,
            "first_dealer": data["first_dealer"],
            "seat_names": data["seat_names"] if same_device else None,
        }


def own_deal_line() -> str:
    return gettext("The game's own deal: one card at a time clockwise until none are left.")


def balanced_deal_line(variant: str, players: int) -> str | None:
    """The balanced deal as the form and the room page say it, or None where it is not
    offered."""
    deal = fairness_data.balanced_deal(variant, players)
    if deal is None:
        return None
    return gettext(
        "The balanced deal, fairer at this table: %(counts)s cards, dealer first, clockwise."
    ) % {"counts": "-".join(map(str, deal["counts"]))}


assert set(VARIANT_HELP) == set(VARIANTS) and set(LEVELS) == {"easy", "medium", "hard"}
assert set(MODE_HELP) == set(Room.Mode.values)


class BotForm(forms.Form):
    """A new bot account (docs/bots.md): a name for the table and its page's URL, and a
    few words about it."""

    name = forms.RegexField(
        label=_("Bot's name"),
        regex=r"^[A-Za-z0-9][A-Za-z0-9_-]{1,29}$",
        help_text=_(
            "2 to 30 letters, digits, hyphens or underscores, starting with a letter or a "
            "digit. Shown at the table with “bot” beside it."
        ),
        error_messages={
            "required": _("Type a name."),
            "invalid": _(
                "Use 2 to 30 letters (a to z), digits, hyphens or underscores, starting with "
                "a letter or a digit."
            ),
        },
        widget=forms.TextInput(attrs={"autocomplete": "off", "maxlength": 30}),
    )
    description = forms.CharField(
        label=_("What it plays like"),
        required=False,
        max_length=300,
        help_text=_("Optional, at most 300 characters: shown on its page."),
        widget=forms.Textarea(attrs={"rows": 2, "maxlength": 300}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.label_suffix = ""

    def clean_description(self):
        value = self.cleaned_data["description"]
        if any(names.invisible(c) and c not in "\n\r\t" for c in value):
            raise ValidationError(
                _("A description cannot contain invisible characters or control characters.")
            )
        return value.strip()


class PlayNowForm(forms.Form):
    """Play now: a game, a table size and, for a guest, the name the others see
    (``games.services.public_tables``). Babanuki for four is chosen beforehand."""

    variant = forms.ChoiceField(label=_("Game"), choices=list(VARIANT_NAMES.items()))
    seat_count = forms.TypedChoiceField(
        label=_("Players"),
        coerce=int,
        choices=[(n, n) for n in range(MIN_SEATS, MAX_SEATS + 1)],
    )
    name = forms.CharField(
        label=_("Your name at the table"),
        strip=False,  # clean_player_name trims, after refusing control characters
        error_messages={"required": _("Type a name.")},
        widget=forms.TextInput(attrs={"autocomplete": "nickname", "maxlength": 60}),
    )

    def __init__(self, *args, username: str = "", **kwargs):
        kwargs.setdefault("initial", {"variant": "babanuki", "seat_count": 4})
        super().__init__(*args, **kwargs)
        self.label_suffix = ""
        self.username = username
        if username:  # a signed-in player sits down under their username
            del self.fields["name"]

    def clean_name(self):
        return clean_player_name(self.cleaned_data["name"])

    def clean(self):
        data = super().clean()
        variant = VARIANTS.get(data.get("variant"))
        seats = data.get("seat_count")
        if variant and seats and not variant.min_players <= seats <= variant.max_players:
            self.add_error("seat_count", players_sentence(variant))
        return data

    def player_name(self) -> str:
        return self.username or self.cleaned_data["name"]

    def players_by_game(self) -> str:
        """Each game's fewest and most players, as JSON: the page offers only those sizes."""
        return json.dumps({k: [v.min_players, v.max_players] for k, v in VARIANTS.items()})
