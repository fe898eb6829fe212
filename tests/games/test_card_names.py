"""Cards named in words on the server (games/card_names.py), in each language, with the words
of the page's card labels (tests/js/test_cards_js.py checks the browser says the same)."""

import pytest
from django.utils import translation

from games.card_names import card_name, pair_name
from games.engine import get_variant

CASES = {
    "en": {
        ("babanuki", "AH"): "ace of hearts",
        ("babanuki", "10S"): "10 of spades",
        ("old_maid", "QC"): "queen of clubs",
        ("jijinuki", "KD"): "king of diamonds",
        ("babanuki", "JK"): "the joker",
        ("schwarzer_peter", "JC"): "the Black Peter",
        ("babanuki", "JC"): "jack of clubs",
    },
    "ja": {
        ("babanuki", "AH"): "ハートのA",
        ("babanuki", "10S"): "スペードの10",
        ("old_maid", "QC"): "クラブのQ",
        ("jijinuki", "KD"): "ダイヤのK",
        ("babanuki", "JK"): "ジョーカー",
        ("schwarzer_peter", "JC"): "黒いペーター",
        ("babanuki", "JC"): "クラブのJ",
    },
    "zh-hans": {
        ("babanuki", "AH"): "红心A",
        ("babanuki", "10S"): "黑桃10",
        ("old_maid", "QC"): "梅花Q",
        ("jijinuki", "KD"): "方块K",
        ("babanuki", "JK"): "鬼牌",
        ("schwarzer_peter", "JC"): "黑彼得",
        ("babanuki", "JC"): "梅花J",
    },
}
PAIRS = {
    "en": "queen of hearts and queen of clubs",
    "ja": "ハートのQとクラブのQ",
    "zh-hans": "红心Q和梅花Q",
}


@pytest.mark.parametrize("language", sorted(CASES))
def test_cards_are_named_in_words(language):
    with translation.override(language):
        assert {key: card_name(key[1], key[0]) for key in CASES[language]} == CASES[language]
        assert pair_name(["QH", "QC"], "old_maid") == PAIRS[language]
        # Every card of every variant has a name, and no two cards share one.
        for variant in ("babanuki", "jijinuki", "old_maid", "schwarzer_peter"):
            deck = get_variant(variant).deck
            names = [card_name(code, variant) for code in deck]
            assert len(set(names)) == len(deck) and all(names), variant
