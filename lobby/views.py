"""The way in: the lobby, new games, rooms, invitations, accounts and profiles.

Views are thin: they check who may see what, call a service, and render.
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games import reactions, selectors, services
from games.errors import ActionError
from games.identity import actor_from_request, viewer_from_request
from games.labels import VARIANT_NAMES, house_rule_words
from games.models import Room
from games.replay import replay_steps
from lobby import fairness as fairness_page
from lobby.forms import (
    VARIANT_HELP,
    JoinForm,
    NewGameForm,
    PlayNowForm,
    SignUpForm,
    balanced_deal_line,
    own_deal_line,
)
from lobby.logins import client_address
from lobby.profile import record as player_record


def _display_name(request) -> str:
    return request.user.get_username() if request.user.is_authenticated else _("Guest")


def _focus_first_error(form) -> None:
    """A refused form opens on its first refused field, where the reason is said."""
    for name in form.fields:
        if name in form.errors:
            form.fields[name].widget.attrs["autofocus"] = True
            return


#: The session key under which a guest's Play now name is kept for their next press.
PLAY_NOW_NAME = "play_now_name"


def _named(rows: list[dict]) -> list[dict]:
    """The lobby's language-neutral rows, each with its game named in the reader's language."""
    return [{**r, "variant_name": VARIANT_NAMES[r["variant"]]} for r in rows]


def home(request, play_form: PlayNowForm | None = None, status: int = 200):
    actor = viewer_from_request(request)
    if play_form is None:
        play_form = PlayNowForm(
            username=request.user.get_username() if request.user.is_authenticated else "",
            initial={
                "variant": "babanuki",
                "seat_count": 4,
                "name": request.session.get(PLAY_NOW_NAME, ""),
            },
        )
    return render(
        request,
        "lobby/home.html",
        {
            "play_form": play_form,
            "play_now_wait": round(settings.PLAY_NOW_WAIT_SECONDS),
            # The lists are language-neutral (they are also what the lobby socket
            # sends): the page names the games in its reader's language.
            "lobby_rooms": [
                {**r, "house_rules": house_rule_words(r["options"])}
                for r in _named(selectors.lobby_rooms())
            ],
            "waiting": _named(selectors.play_now_lines()),
            "public_tables": _named(selectors.public_tables()),
            "my_rooms": selectors.rooms_of(actor, active=True),
            "online_bots": selectors.online_bots(),
            "recent_rooms": selectors.rooms_of(actor, active=False)[:10],
        },
        status=status,
    )


@require_http_methods(["GET", "POST"])
def play_now(request):
    """Play now (``games.services.public_tables``): a seat at the public table filling for the
    game and size chosen, then that table's page. Refused, the lobby says why."""
    if request.method == "GET":
        return redirect("home")
    signed_in = request.user.is_authenticated
    form = PlayNowForm(request.POST, username=request.user.get_username() if signed_in else "")
    status = 400
    if form.is_valid():
        actor = actor_from_request(request)
        try:
            room = services.play_now(
                actor=actor,
                variant=form.cleaned_data["variant"],
                seat_count=form.cleaned_data["seat_count"],
                name=form.player_name(),
                address=client_address(request),
            )
        except ActionError as exc:
            form.add_error(None, exc.message)
            status = 429 if exc.code == "too_many_joins" else 409
        else:
            if not signed_in:
                request.session[PLAY_NOW_NAME] = form.player_name()
            return redirect("room", code=room.code)
    _focus_first_error(form)
    return home(request, form, status=status)


@require_POST
def leave_table(request, code: str):
    """Give back one's seat at a waiting public table: back to the lobby."""
    room = _room_or_404(request, code)
    try:
        services.leave_table(room_id=room.pk, actor=actor_from_request(request))
    except ActionError as exc:
        messages.error(request, exc.message)
        return redirect("room", code=room.code)
    return redirect("home")


def rules(request):
    return render(request, "pages/rules.html", fairness_page.dealing_rows())


def fairness(request):
    """How often each seat loses, by game, table size and deal (measured beforehand)."""
    return render(request, "pages/fairness.html", fairness_page.page_context())


@require_http_methods(["GET", "POST"])
def new_game(request):
    signed_in = request.user.is_authenticated
    online = [b.name for b in selectors.online_bots()] if signed_in else []
    form = NewGameForm(request.POST or None, signed_in=signed_in, online_bots=online)
    if request.method == "POST" and form.is_valid():
        actor = actor_from_request(request)
        try:
            # At most so many an hour (a guest's address too), and open at once.
            with services.room_creation(actor, client_address(request)):
                room = services.create_room(
                    actor=actor,
                    name=form.hosts_name() or _display_name(request),
                    **form.room_arguments(),
                )
        except ActionError as exc:
            form.add_error(None, exc.message)
        else:
            _invite_bots(request, room, actor, form.bot_names())
            return redirect("room", code=room.code)
    _focus_first_error(form)
    return render(request, "lobby/new_game.html", {"form": form, "variant_help": VARIANT_HELP})


def _invite_bots(request, room: Room, actor, names: list[str]) -> None:
    """The new-game form's bots, each invited to the next opponent's seat; the room
    starts once they have answered (``games.services.bots``)."""
    from games.services import bots

    for seat, name in enumerate(names, start=1):
        try:
            bots.challenge(
                room_id=room.pk, actor=actor, bot_name=name, seat=seat, start_when_answered=True
            )
        except ActionError as exc:
            messages.error(request, exc.message)


def _room_or_404(request, code: str, token: str = "") -> Room:
    room = selectors.room_by_code(code)
    if room is None or not selectors.may_view(room, viewer_from_request(request), token):
        raise Http404
    return room


def _history(room: Room) -> dict:
    """The room's "Rounds played": each match, newest first, with how it ended, and the
    key room.js compares with the live state's to know when to fetch the list again."""
    matches = selectors.match_summaries(room)
    seats = {s.index: s for s in room.seats.all()}
    for entry in matches:
        ended_by = entry["match"].ended_by or {}
        how = ended_by.get("how")
        entry["abandoned"] = how == "abandoned"
        entry["everyone_left"] = how == "everyone_left"
        entry["resigner"] = seats.get(ended_by.get("seat")) if how == "resign" else None
    key = ""
    if matches:
        match, rounds = matches[0]["match"], matches[0]["rounds"]
        key = f"{match.number}/{len(rounds)}/{int(match.finished_at is not None)}"
    return {"matches": matches, "history_key": key}


def room_deal_line(room: Room) -> str:
    """Which deal the room uses (its stored option; rooms older than the option lack it
    and keep the game's own deal)."""
    balanced = room.options.get("balanced_deal") and balanced_deal_line(
        room.variant, room.seat_count
    )
    return balanced or own_deal_line()


def room(request, code: str):
    token = request.GET.get("t", "")
    room = _room_or_404(request, code, token)
    actor = viewer_from_request(request)
    seats = list(room.seats.all())
    held = actor.seats_in(seats, including_left=True)
    seated = bool(held)
    # Seats this browser left to the computer: the page says so, even after a reload.
    left = [s.index for s in held if s.left]
    is_host = actor.owns(room)
    invite_url = watch_url = None
    inviting = is_host and room.mode == Room.Mode.FRIENDS and room.status == Room.Status.WAITING
    if seated or is_host:
        # Two links: the invitation takes a seat; the watch link never does.
        watch_url = request.build_absolute_uri(_watch_path(room))
        if room.mode == Room.Mode.FRIENDS and not room.public:
            invite_url = request.build_absolute_uri(reverse("join", args=[room.token]))
    return render(
        request,
        "lobby/room.html",
        {
            "room": room,
            "seats": seats,
            "is_host": is_host,
            "host_seat": room.host_seat(seats),
            "seated": seated,
            "invite_url": invite_url,
            "watch_url": watch_url,
            "socket_token": token if not seated else "",
            "left_seats": ",".join(map(str, left)),
            "waiting": room.status == Room.Status.WAITING,
            # A waiting public table's countdown, on the server's clock (room.js).
            "starts_at_ms": _epoch_ms(room.starts_at) if room.starts_at else None,
            "server_now_ms": _epoch_ms(timezone.now()),
            "deal_line": room_deal_line(room),
            "reactions": reactions.for_page(),
            # The host may invite an online bot to an empty seat (lobby.bot_pages.invite).
            "bot_invites": selectors.room_challenges(room.pk) if inviting else [],
            "online_bots": _invitable_bots(seats) if inviting else [],
            **_history(room),
        },
    )


def _epoch_ms(moment) -> int:
    return round(moment.timestamp() * 1000)


def _invitable_bots(seats) -> list:
    """Online bots not already at the table, while it has an empty seat."""
    if not any(s.is_empty for s in seats):
        return []
    seated = {s.user_id for s in seats}
    return [b for b in selectors.online_bots() if b.pk not in seated]


def room_history(request, code: str):
    """The room page's "Rounds played" alone, fetched again live when a round ends."""
    room = _room_or_404(request, code, request.GET.get("t", ""))
    return render(request, "lobby/_history.html", _history(room))


def replay(request, replay_id: str):
    """A finished round, step by step. The link is unguessable and meant to be shared;
    a round still in play is never shown, only an offer to watch it live."""
    rnd = selectors.round_by_replay_id(replay_id)
    if rnd is None:
        raise Http404
    room = rnd.match.room
    if rnd.finished_at is None:
        return render(
            request,
            "lobby/replay_in_progress.html",
            {"room": room, "watch_url": _watch_path(room)},
        )
    seats = list(room.seats.all())
    data = {
        "variant": room.variant,
        # How the round's match scores (points, or strikes): the table shows places or not.
        "scoring": rnd.match.rules["scoring"],
        "players": room.seat_count,
        "dealer": rnd.dealer,
        "options": room.options,
        "round": rnd.number,
        "match": rnd.match.number,
        "level": room.computer_level,
        "seats": [
            {
                "index": s.index,
                "colour": s.colour,
                "name": s.short_name,
                "kind": s.kind,
                "bot": s.bot,
            }
            for s in seats
        ],
        "commitment": rnd.commitment,
        "seed": rnd.seed,
        "dealt": rnd.dealt,
        "removed": rnd.removed,
        "ranking": rnd.ranking,
        # The deal record stored with the round: verify.js recomputes the deal by it,
        # never by today's dealing tables.
        "deal_version": rnd.deal_version,
        "deal_start": rnd.deal_start,
        "deal_counts": rnd.deal_counts,
        "steps": replay_steps(rnd),
    }
    marked = any(step["marks"] for step in data["steps"])
    context = {"room": room, "round": rnd, "replay": data, "marked": marked}
    return render(request, "lobby/replay.html", context)


def _watch_path(room: Room) -> str:
    """The link to watch a room: it shows the table to anyone holding it, never a seat."""
    return reverse("room", args=[room.code]) + "?" + urlencode({"t": room.watch_token})


def _join_closed(request, room: Room, reason: str):
    host = room.host_label(list(room.seats.all()))
    return render(
        request,
        "lobby/join_closed.html",
        {"room": room, "host": host, "reason": reason, "watch_url": _watch_path(room)},
    )


@require_http_methods(["GET", "POST"])
def join(request, token: str):
    """The invitation link, open to everyone: it says who invites you to which game, and
    you sit down under the name you type, as a guest (the seat is kept in this browser's
    session, and signing up later keeps it) or as yourself when signed in. Only the POST
    takes the seat, so a link preview or prefetch never sits anyone down; a room that
    cannot take you offers to watch. Only the invitation token opens this page, never
    the watch one."""
    room = selectors.room_invited_by(token)
    if room is None:
        raise Http404
    # Only sitting down gives a visitor a guest id (and a session): opening or
    # prefetching the link does not.
    posted = request.method == "POST"
    actor = actor_from_request(request) if posted else viewer_from_request(request)
    seats = list(room.seats.all())
    if actor.seats_in(seats, including_left=True):
        return redirect("room", code=room.code)
    refusal = services.join_refusal(room, seats)  # join_room has the last say on the POST
    if refusal is not None:
        return _join_closed(request, room, refusal.message)
    form = JoinForm(
        request.POST if request.method == "POST" else None,
        username=request.user.get_username() if request.user.is_authenticated else "",
        taken_names=[s.name for s in seats if not s.is_empty],
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.join_room(room_id=room.pk, actor=actor, name=form.cleaned_data["name"])
        except ActionError as exc:
            if exc.code != "name_taken":
                return _join_closed(request, room, exc.message)
            form.add_error("name", exc.message)  # taken while this page was open
        else:
            return redirect("room", code=room.code)
    _focus_first_error(form)
    here = reverse("join", args=[room.token])
    host = room.host_label(seats)  # a guest host by their name at the table
    return render(
        request,
        "lobby/join.html",
        {
            "room": room,
            "seats": seats,
            "host": host,
            "variant_help": VARIANT_HELP[room.variant],
            "deal_line": room_deal_line(room),
            "house_rules": house_rule_words(room.options, deal=False),
            "taken": sum(1 for s in seats if not s.is_empty),
            "form": form,
            "join_url": here,
            "login_url": reverse("login") + "?" + urlencode({"next": here}),
            "signup_url": reverse("signup") + "?" + urlencode({"next": here}),
            "watch_url": _watch_path(room),
        },
    )


@require_POST
def start(request, code: str):
    room = _room_or_404(request, code)
    try:
        services.start_match(
            room_id=room.pk,
            actor=viewer_from_request(request),
            fill_with_computers=request.POST.get("fill") == "1",
        )
    except ActionError as exc:
        messages.error(request, exc.message)
    return redirect("room", code=room.code)


@require_POST
def remove_player(request, code: str, seat: int):
    room = _room_or_404(request, code)
    try:
        services.remove_player(room_id=room.pk, actor=viewer_from_request(request), seat_index=seat)
    except ActionError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The seat is free again."))
    return redirect("room", code=room.code)


def _safe_next(request) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return reverse("home")


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect(_safe_next(request))
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        # Logging in keeps the guest's games (lobby.logins.keep_guest_games).
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request,
            _("Welcome, %(name)s! Your games are kept in your account.")
            % {"name": user.get_username()},
        )
        return redirect(_safe_next(request))
    return render(request, "registration/signup.html", {"form": form, "next": _safe_next(request)})


@login_required
def profile(request):
    return profile_page(request)


def profile_page(request, *, bot_form=None, status: int = 200):
    """The signed-in player's record and games, and their bots (``lobby.bot_pages``)."""
    from games.realtime import streams
    from lobby.forms import BotForm

    owned = selectors.bots_of(request.user.pk)
    online = streams.online(b.pk for b in owned)
    return render(
        request,
        "lobby/profile.html",
        {
            "record": player_record(selectors.player_stats(request.user.pk)),
            "bots": [{"bot": b, "online": b.pk in online} for b in owned],
            "bot_form": bot_form or BotForm(),
        },
        status=status,
    )


@login_required
@require_POST
def end_unfinished(request):
    """The profile's way out of an unfinished match: resign (two seats) or leave (the
    computer plays on) through the services, for the match the page showed. A room the
    player holds no seat in, a match that has moved on or ended, or a malformed form is
    refused in words on the profile; nothing changes (CSRF guards the form itself)."""
    code = request.POST.get("code", "")
    room = selectors.room_by_code(code) if isinstance(code, str) and code else None
    try:
        number = int(request.POST.get("match", ""))
    except ValueError:
        number = None
    if room is None or number is None:
        messages.error(request, _("That game could not be found."))
        return redirect("profile")
    actor = actor_from_request(request)
    try:
        how = services.end_unfinished(room_id=room.pk, actor=actor, at={"match": number})
    except ActionError as exc:
        messages.error(request, exc.message)
        return redirect("profile")
    if how == "resign":
        messages.success(request, _("You resigned room %(code)s.") % {"code": room.code})
    else:
        messages.success(
            request,
            _("You left the game in room %(code)s.") % {"code": room.code},
        )
    return redirect("profile")
