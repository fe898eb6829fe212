"""The errors a player's action can meet, each with a stable code for clients."""


class ActionError(Exception):
    """An action that was refused; nothing was changed."""

    #: The refused message's ``ref``, when it was read before the refusal.
    ref: str | None = None

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


#: Every code a client may see, with when it happens (docs/protocol.md lists them too).
CODES = {
    "malformed": "the message is not a JSON object of the documented shape",
    "too_large": "the message is larger than the server accepts",
    "unknown_action": "the message's type is not an action the server knows",
    "stale_version": "the action was made against an older state of the room",
    "not_seated": "the socket does not control a seat that may do this",
    "not_your_turn": "the seat acting is not the current drawer",
    "bad_position": "the position is not a card in the giver's hand",
    "round_over": "the round is over",
    "round_in_play": "the round is still being played",
    "match_over": "the match is over",
    "match_in_play": "the match is still being played",
    "not_started": "the match has not started",
    "already_started": "the match has already started",
    "not_host": "only the room's host may do this",
    "room_full": "every seat is taken",
    "seats_empty": "some seats are still empty",
    "not_allowed": "the room's mode or size does not allow this",
    "rate_limited": "too many messages in a short time",
    "slow_down": "too many points or reactions in a short time (never counted towards the close)",
    "bad_reaction": "the reaction is not one of the table's closed set",
    "unavailable": "the server could not reach its database; try again",
    "internal": "an unexpected error on the server; nothing was changed",
}
