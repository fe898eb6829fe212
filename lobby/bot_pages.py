"""The pages about bots (docs/bots.md): making one and its token on the profile, a bot's
public page, and the host inviting a bot to a waiting room."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import selectors
from games.errors import ActionError
from games.identity import viewer_from_request
from games.services import bots
from lobby.forms import BotForm
from lobby.profile import record as player_record


def _show_token(request, bot_name: str, token: str, *, new: bool):
    """The one time a token is shown: never stored, never cached."""
    response = render(
        request, "lobby/bot_token.html", {"bot_name": bot_name, "token": token, "new": new}
    )
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def create(request):
    form = BotForm(request.POST)
    if form.is_valid():
        try:
            bot, token = bots.create_bot(
                owner_id=request.user.pk,
                name=form.cleaned_data["name"],
                description=form.cleaned_data["description"],
            )
        except ActionError as exc:
            form.add_error("name" if exc.code == "name_taken" else None, exc.message)
        else:
            return _show_token(request, bot.name, token, new=True)
    from lobby.views import profile_page

    return profile_page(request, bot_form=form, status=400)


@login_required
@require_POST
def token(request, bot_id: int):
    try:
        bot, new = bots.new_token(owner_id=request.user.pk, bot_id=bot_id)
    except ActionError as exc:
        messages.error(request, exc.message)
        return redirect("profile")
    return _show_token(request, bot.name, new, new=False)


@login_required
@require_POST
def revoke(request, bot_id: int):
    try:
        bot = bots.revoke_token(owner_id=request.user.pk, bot_id=bot_id)
    except ActionError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("%(name)s has no token now: it cannot connect until you make a new one.")
            % {"name": bot.name},
        )
    return redirect("profile")


@login_required
@require_POST
def public(request, bot_id: int):
    """The owner's switch: the bot takes seats at public tables, or no longer does."""
    on = request.POST.get("on") == "1"
    try:
        bot = bots.play_public(owner_id=request.user.pk, bot_id=bot_id, on=on)
    except ActionError as exc:
        messages.error(request, exc.message)
    else:
        if on:
            text = _("%(name)s now takes empty seats at public tables while it is online.") % {
                "name": bot.name
            }
        else:
            text = _("%(name)s no longer takes seats at public tables.") % {"name": bot.name}
        messages.success(request, text)
    return redirect("profile")


def bot_page(request, name: str):
    """A bot's public page: who made it, what it plays like, whether it is online, and
    its record."""
    bot = selectors.bot_named(name)
    if bot is None:
        raise Http404
    return render(
        request,
        "lobby/bot.html",
        {
            "bot": bot,
            "online": selectors.bot_online(bot.pk),
            "record": player_record(selectors.player_stats(bot.pk)),
            "owned": request.user.is_authenticated and request.user.pk == bot.owner_id,
        },
    )


@require_POST
def invite(request, code: str):
    """The host asks an online bot to take an empty seat of a waiting friends room."""
    room = selectors.room_by_code(code)
    actor = viewer_from_request(request)
    if room is None or not selectors.may_view(room, actor):
        raise Http404
    name = request.POST.get("bot", "")
    try:
        bots.challenge(room_id=room.pk, actor=actor, bot_name=name)
    except ActionError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("%(name)s is invited: its seat is kept for it until it answers.") % {"name": name},
        )
    return redirect("room", code=room.code)
