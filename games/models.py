"""Rooms, seats, matches, rounds and draws: the durable state and the round histories.

Only ``games.services`` writes these rows. A round can be replayed exactly from its
``Round.dealt`` hands and its ``Draw`` rows (each stores the drawer's hand order after
the draw, so hand shuffles replay too).
"""

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.engine import LEVELS
from games.engine import seats as seat_rules
from games.labels import (
    LEVEL_NAMES,
    SPEED_NAMES,
    VARIANT_NAMES,
    bot_what,
    computer_first_name,
    computer_name,
    computer_what,
    seat_letter,
)

#: Seat colours clockwise from seat 0, each with a letter so colour is never alone.
COLOURS = ("red", "green", "yellow", "blue", "purple", "orange", "teal", "pink")

#: Seats someone holds (a person or a bot account; not empty, not the computer's), as a
#: filter on ``Seat``.
SEAT_HELD = models.Q(user__isnull=False) | ~models.Q(guest="")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 bits


def new_replay_id() -> str:
    return secrets.token_urlsafe(16)  # 128 bits: a replay link can be shared, not guessed


class Room(models.Model):
    class Mode(models.TextChoices):
        COMPUTER = "computer", _("Versus the computer")
        SAME_DEVICE = "same_device", _("Everyone on this device")
        FRIENDS = "friends", _("With friends")

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    code = models.CharField(max_length=8, unique=True, default=new_code)
    #: The invitation to play: whoever holds it may take a free seat (and watch).
    token = models.CharField(max_length=64, unique=True, default=new_token)
    #: The link to watch: it never takes a seat.
    watch_token = models.CharField(max_length=64, unique=True, default=new_token)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    host_guest = models.CharField(max_length=64, blank=True)
    variant = models.CharField(max_length=20, choices=list(VARIANT_NAMES.items()))
    seat_count = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict)
    rules = models.JSONField(default=dict)
    computer_level = models.CharField(max_length=10, choices=[(x, LEVEL_NAMES[x]) for x in LEVELS])
    #: How fast its computer seats draw (``games.schedule.COMPUTER_SPEEDS``).
    computer_speed = models.CharField(
        max_length=8, choices=list(SPEED_NAMES.items()), default="normal"
    )
    mode = models.CharField(max_length=12, choices=Mode.choices)
    listed = models.BooleanField(default=False)
    #: A public table Play now opened (``games.services.public_tables``): anyone may watch it,
    #: nobody hosts it, and it starts by itself once full or at ``starts_at``.
    public = models.BooleanField(default=False)
    #: When a waiting public table starts by itself, the computer in its empty seats.
    starts_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    first_dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    #: Since when no human seat has had a connection (None while one has). A playing
    #: room unattended for ``ABANDON_AFTER_SECONDS`` ends as abandoned.
    unattended_since = models.DateTimeField(null=True, blank=True)
    #: When the server next owes a move here by itself (a computer turn, covering a seat,
    #: ending an abandoned room), worked out at every change; None when it owes nothing.
    #: The periodic sweep reads only this column.
    due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "listed"]),
            models.Index(fields=["public", "status", "variant", "seat_count"]),
        ]

    def __str__(self):
        return f"{self.code} ({self.variant}, {self.seat_count} seats)"

    @property
    def way_to_play(self) -> str:
        """How the room is played, as pages name it: a public table (Play now), or its mode."""
        return str(_("Public table")) if self.public else self.get_mode_display()

    def host_seat(self, seats) -> int | None:
        """The host's seat among ``seats`` (``Seat`` rows): ``games.engine.seats.host_seat``."""
        return seat_rules.host_seat([s.facts for s in seats], self.host_id, self.host_guest)

    def host_label(self, seats) -> str:
        """Who opened the room, as pages name them: the account's username, or a guest
        host's name at their seat among ``seats`` ("" if neither)."""
        if self.host_id:
            return self.host.get_username()
        at = self.host_seat(seats)
        return seats[at].short_name if at is not None else ""


class Seat(models.Model):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    guest = models.CharField(max_length=64, blank=True)
    is_computer = models.BooleanField(default=False)
    name = models.CharField(max_length=150, blank=True)
    #: When the seat's last connection went away (None while connected or never seen).
    away_since = models.DateTimeField(null=True, blank=True)
    #: The computer plays this human seat until its human reconnects.
    covered = models.BooleanField(default=False)
    #: The human left the room's latest match; the computer plays the seat for the rest
    #: of it. A rematch clears it (the leaver's seat starts covered) and keeps the
    #: leavers on the finished match (``Match.left``).
    left = models.BooleanField(default=False)
    #: A bot account holds the seat (``Bot``): marked as a bot wherever its name shows.
    bot = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["room", "index"], name="one_seat_per_index")]
        ordering = ["index"]

    def __str__(self):
        return f"{self.room.code} seat {self.index}"

    @property
    def colour(self) -> str:
        return COLOURS[self.index]

    @property
    def letter(self) -> str:
        """The letter on the seat's colour chip, in the reader's language."""
        return seat_letter(self.index)

    @property
    def display_name(self) -> str:
        """The seat's whole name in one string: a computer seat is named by its seat and
        the room's level ("Clara (computer, easy)"). Pages show ``short_name`` with the
        colour chip and ``what`` as a second line instead (the ``seat_name`` template tag,
        as the table does)."""
        if self.is_computer:
            return computer_name(self.index, self.room.computer_level)
        return self.name or str(_("(empty)"))

    @property
    def short_name(self) -> str:
        """The seat's one short name, as the table shows it ("Clara" for a computer)."""
        if self.is_computer:
            return computer_first_name(self.index)
        return self.display_name

    @property
    def what(self) -> str:
        """The second line under the short name: "computer · easy" for a computer seat,
        "bot" for a bot account's, nothing for a person's."""
        if self.is_computer:
            return computer_what(self.room.computer_level)
        return bot_what() if self.bot else ""

    @property
    def is_empty(self) -> bool:
        return not (self.is_computer or self.user_id or self.guest)

    @property
    def kind(self) -> str:
        """``"computer"``, ``"empty"`` or ``"human"``: the seat's kind in a room's state."""
        return "computer" if self.is_computer else ("empty" if self.is_empty else "human")

    @property
    def facts(self) -> dict:
        """What ``games.engine.seats`` reads of a seat, as a room's state has it."""
        return {
            "index": self.index,
            "kind": self.kind,
            "covered": self.covered,
            "left": self.left,
            "bot": self.bot,
            "user_id": self.user_id,
            "guest": self.guest,
        }

    @property
    def played_by_computer(self) -> bool:
        """Whether the computer plays this seat now (``games.engine.seats``)."""
        return seat_rules.played_by_computer(self.facts)

    @property
    def played_in_person(self) -> bool:
        """Whether a person plays this seat now (``games.engine.seats``)."""
        return seat_rules.played_in_person(self.facts)


class Presence(models.Model):
    """One open WebSocket of a seat's human, refreshed by a heartbeat.

    A seat is connected while it has a fresh presence; rows left by a process that died
    go stale and are swept.
    """

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="presences")
    channel_name = models.CharField(max_length=200, db_index=True)
    last_seen = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["channel_name", "seat"], name="one_presence_per_seat")
        ]

    def __str__(self):
        return self.channel_name


class Watcher(models.Model):
    """One open spectator socket, refreshed by the same heartbeat as a seat's presence.

    Spectators are not part of the room's versioned state: one arriving or leaving must
    not make a player's click stale."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="watchers")
    channel_name = models.CharField(max_length=200, unique=True)
    last_seen = models.DateTimeField()

    def __str__(self):
        return self.channel_name


class Match(models.Model):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveIntegerField()
    rules = models.JSONField()
    first_dealer = models.PositiveSmallIntegerField()
    #: Seat indexes, once the match is over.
    winners = models.JSONField(null=True, blank=True)
    losers = models.JSONField(null=True, blank=True)
    #: Who ended it early: {"seat": i, "how": "resign"}.
    ended_by = models.JSONField(null=True, blank=True)
    #: Seat indexes whose human left this match (the computer played on), written when
    #: a rematch follows; the latest match's leavers are the seats marked ``left``.
    left = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["room", "number"], name="match_number")]
        ordering = ["number"]

    def __str__(self):
        return f"match {self.number} of room {self.room_id}"


class Round(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    dealer = models.PositiveSmallIntegerField()
    #: The hex seed the deal was shuffled from (games.engine.seeded); secret until the
    #: round ends.
    seed = models.CharField(max_length=64)
    #: SHA-256 of the seed, shown to every seat before the first draw.
    commitment = models.CharField(max_length=64, blank=True)
    #: The seed-to-deal algorithm's version (games.engine.seeded.DEAL_VERSION when dealt)
    #: and the seat that received the first card: what verifying the deal needs, kept so
    #: that changing today's deal never turns an old round into "not verified".
    deal_version = models.PositiveSmallIntegerField(default=1)
    deal_start = models.PositiveSmallIntegerField(default=0)
    #: Cards dealt to each seat, by seat number (deal version 2 on); None for version 1,
    #: whose counts follow from the start.
    deal_counts = models.JSONField(null=True, blank=True, default=None)
    #: The replay link's unguessable id.
    replay_id = models.CharField(max_length=32, unique=True, default=new_replay_id)
    #: The hands as dealt, before the initial discard.
    dealt = models.JSONField()
    removed = models.JSONField(default=list)
    #: The live RoundState (RoundState.to_dict()).
    state = models.JSONField()
    ranking = models.JSONField(null=True, blank=True)
    holder = models.PositiveSmallIntegerField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="round_number")]
        ordering = ["number"]

    def __str__(self):
        return f"round {self.number} of match {self.match_id}"


class Draw(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="draws")
    number = models.PositiveIntegerField()
    drawer = models.PositiveSmallIntegerField()
    giver = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField()
    card = models.CharField(max_length=3)
    paired_with = models.CharField(max_length=3, blank=True)
    finished = models.JSONField(default=list)
    #: The drawer's hand, in order, after the draw and its shuffle or habit.
    hand_after = models.JSONField(default=list)
    by_computer = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="draw_number")]
        ordering = ["number"]

    def __str__(self):
        return f"draw {self.number} of round {self.round_id}"


class Bot(models.Model):
    """A computer player someone wrote, playing through the bot API (docs/bots.md).

    Its account is a user of its own (so its seats, results and record are a user's),
    with no usable password: it never signs in through the site's forms, only with its
    token, of which only the SHA-256 is kept (``games.tokens.token_hash``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="bot"
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bots"
    )
    description = models.CharField(max_length=300, blank=True)
    #: The SHA-256 of its API token, hex; empty while it has none (revoked).
    token_hash = models.CharField(max_length=64, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    #: The event stream that holds the bot (one at a time: ``games.realtime.streams``),
    #: its id; empty while none does.
    stream = models.CharField(max_length=16, blank=True)
    #: Until when that stream counts as open (each keep-alive moves it on): the bot is
    #: online while it is in the future. Indexed, so that listing the bots online reads
    #: those only, however many bots there are (``selectors.online_bots``).
    online_until = models.DateTimeField(null=True, blank=True, db_index=True)
    #: Its owner lets it take empty seats at public tables (Play now) before the
    #: computer does, while it is online.
    plays_public = models.BooleanField(default=False)

    class Meta:
        ordering = ["user__username"]

    def __str__(self):
        return self.user.get_username()

    @property
    def name(self) -> str:
        return self.user.get_username()


class Challenge(models.Model):
    """An invitation for a bot to take a seat of a waiting room (``games.services.bots``)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELED = "canceled", _("Withdrawn")

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="challenges")
    seat = models.PositiveSmallIntegerField()
    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="challenges")
    #: Who sent it: the room's host (a person, or a bot that opened the room).
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    #: The room starts by itself once none of its challenges marked so waits for an
    #: answer (a game between bots, or bots chosen on the new-game form).
    start_when_answered = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["bot", "status"])]
        ordering = ["created_at"]

    def __str__(self):
        return f"challenge {self.pk} for {self.bot_id} in room {self.room_id}"


class PlayNowLine(models.Model):
    """One row per game and table size that Play now has seated someone at: locking it
    (``games.services.public_tables``) makes two people pressing Play now at the same moment,
    in any process, take their seats one after the other, so they sit at one table."""

    variant = models.CharField(max_length=20)
    seat_count = models.PositiveSmallIntegerField()
    touched_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["variant", "seat_count"], name="one_line_per_table")
        ]

    def __str__(self):
        return f"{self.variant} for {self.seat_count}"
