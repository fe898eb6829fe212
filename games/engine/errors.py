"""Errors raised by the rules engine. All are ValueErrors, so callers may catch either."""


class RulesError(ValueError):
    """An action the rules do not allow; the state is left unchanged."""


class RoundOver(RulesError):
    """A draw was attempted after the round had stopped."""


class BadPosition(RulesError):
    """A draw named a position that is not in the giver's hand."""
