"""Cards named in words, in the reader's language, for text the server renders.

The same words as the page's ``<template id="card-labels">``
(templates/lobby/_card_labels.html), which static/js/cards.js uses in the browser, so a
card is called the same on both sides: "ace of hearts", "ハートのA", "红心A".
"""

from django.utils.translation import gettext

from .engine.cards import JOKER, RANKS, SUITS


def is_peter(code: str, variant: str | None) -> bool:
    """The jack of clubs is the Black Peter in Schwarzer Peter, and only there."""
    return code == "JC" and variant == "schwarzer_peter"


def card_name(code: str, variant: str | None = None) -> str:
    """A card in words: "10 of spades", "the joker", "the Black Peter"."""
    if code == JOKER:
        return gettext("the joker")
    if is_peter(code, variant):
        return gettext("the Black Peter")
    ranks = gettext("ace|2|3|4|5|6|7|8|9|10|jack|queen|king").split("|")
    suits = gettext("spades|hearts|diamonds|clubs").split("|")
    rank_word = ranks[RANKS.index(code[:-1])]
    suit_word = suits[SUITS.index(code[-1])]
    return gettext("{rank} of {suit}").replace("{rank}", rank_word).replace("{suit}", suit_word)


def pair_name(codes, variant: str | None = None) -> str:
    """Two cards thrown away together: "queen of hearts and queen of clubs"."""
    first, second = (card_name(code, variant) for code in codes)
    return gettext("{first} and {second}").replace("{first}", first).replace("{second}", second)
