"""A player's rooms and the records of their matches, as the profile counts them: a
room of the player's, and its first match given finished rounds by hand."""

from datetime import UTC, datetime

from games.models import Room
from tests.rooms import open_room

DAY = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def room_for(user, variant="babanuki", seats=3, mode=Room.Mode.COMPUTER, **rules):
    """A room of ``user``'s, for three versus the computer unless told otherwise (points
    games: three rounds, the default)."""
    return open_room(user, mode, variant=variant, seats=seats, **rules)


def record(room, rounds, winners=None, finished=True, how=None):
    """Give the room's first match these finished rounds, each (ranking, holder); end it
    with ``winners`` unless ``finished`` is false."""
    match = room.matches.get()
    first = match.rounds.get()
    for number, (ranking, holder) in enumerate(rounds, start=1):
        if number == 1:
            rnd = first
        else:
            rnd = match.rounds.create(
                number=number,
                dealer=0,
                seed=first.seed,
                dealt=first.dealt,
                state=first.state,
            )
        rnd.ranking, rnd.holder, rnd.finished_at = ranking, holder, DAY
        rnd.save()
    if finished:
        match.winners = winners or []
        match.ended_by = {"how": how} if how else None
        match.finished_at = DAY
        match.save()
    return match
