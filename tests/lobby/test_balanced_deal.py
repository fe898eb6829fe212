"""The balanced deal as a room option (RULES.md section 7): one decision
(``fairness_data.balanced_deal``) at its 0.03 boundary; rooms created with it, without it
and refused where it is not offered; old rooms keep their deal; the new-game form, the
room and join pages say which deal a room uses; the rules and fairness pages show it."""

import copy
import json
import re

import pytest

from games import fairness_data, services
from games.engine import BALANCED_DEALS
from games.errors import ActionError
from games.models import Room
from tests.rooms import computer_room, friends_room, post_new_game

pytestmark = pytest.mark.django_db


# -- the decision, at its boundary ----------------------------------------------------


def _with_spreads(own: float, balanced: float) -> dict:
    """The data file with Babanuki at 5 seats measured at these two spreads."""
    data = copy.deepcopy(fairness_data.load())
    row = next(r for r in data["rows"] if (r["variant"], r["players"]) == ("babanuki", 5))
    row["fair"]["spread"] = own
    row["balanced"]["spread"] = balanced
    return data


@pytest.mark.parametrize(
    ("own", "balanced", "offered"),
    [
        (0.05, 0.02, True),  # a gain of just 0.03: offered, on by default
        (0.04, 0.01, True),
        (0.0499, 0.02, False),  # 0.0299: the own deal counts as fair
        (0.02, 0.02, False),
        (0.01, 0.02, False),
    ],
)
def test_the_balanced_deal_is_offered_where_it_gains_at_least_0_03(own, balanced, offered):
    data = _with_spreads(own, balanced)
    found = fairness_data.balanced_deal("babanuki", 5, data)
    assert (found is not None) is offered
    if offered:
        assert found["counts"] == [13, 10, 10, 10, 10]
        assert found["gain"] == pytest.approx(own - balanced)


def test_the_decision_offers_it_exactly_where_the_measured_gain_is_large():
    for row in fairness_data.load()["rows"]:
        gain = fairness_data.balanced_gain(row)
        offered = fairness_data.balanced_deal(row["variant"], row["players"]) is not None
        assert offered is (gain >= 0.03), (row["variant"], row["players"], gain)
    # The examples RULES.md section 7 names.
    for key in [("babanuki", 5), ("babanuki", 7), ("babanuki", 8), ("jijinuki", 3)]:
        assert key in BALANCED_DEALS
    for key in [("old_maid", 3), ("schwarzer_peter", 4), ("schwarzer_peter", 8)]:
        assert key in BALANCED_DEALS
    for key in [("babanuki", 4), ("babanuki", 6), ("old_maid", 4), ("schwarzer_peter", 3)]:
        assert key not in BALANCED_DEALS


# -- the services ---------------------------------------------------------------------


def _counts(room: Room) -> list[int]:
    rnd = room.matches.get().rounds.get()
    assert rnd.deal_version == 2
    return [len(h) for h in rnd.dealt]


def test_a_room_where_it_is_offered_gets_the_balanced_deal_by_default(host):
    room = computer_room(host, variant="babanuki", seats=5, first_dealer=2)
    assert room.options["balanced_deal"] is True
    assert _counts(room) == [10, 10, 13, 10, 10]
    assert room.matches.get().rounds.get().deal_start == 3


def test_the_host_may_switch_it_off_for_the_games_own_deal(host):
    room = computer_room(
        host, variant="babanuki", seats=5, first_dealer=0, options={"balanced_deal": False}
    )
    assert room.options["balanced_deal"] is False
    assert _counts(room) == [10, 11, 11, 11, 10]


def test_a_room_where_it_is_not_offered_keeps_the_games_own_deal(host):
    room = computer_room(host, variant="babanuki", seats=4, first_dealer=0)
    assert room.options["balanced_deal"] is False
    assert _counts(room) == [14, 13, 13, 13]


@pytest.mark.parametrize(("variant", "seats"), [("babanuki", 4), ("schwarzer_peter", 5)])
def test_asking_for_it_where_it_is_not_offered_is_refused_and_creates_nothing(host, variant, seats):
    with pytest.raises(ActionError) as refused:
        computer_room(host, variant=variant, seats=seats, options={"balanced_deal": True})
    assert refused.value.code == "not_allowed"
    assert "has no balanced deal" in str(refused.value)
    assert "already fair" in str(refused.value)
    assert not Room.objects.exists()


def test_a_room_stored_before_the_option_keeps_its_deal_in_every_round(host):
    """A room whose options lack the key (stored before the balanced deal) deals the
    game's own deal, next round and rematch alike."""
    room = friends_room(host, variant="old_maid", seats=3, first_dealer=0)
    Room.objects.filter(pk=room.pk).update(options={"same_colour_pairs": False, "reverse": False})
    services.start_match(
        room_id=room.pk, actor=services.Actor(user_id=host.pk), fill_with_computers=True
    )
    room.refresh_from_db()
    assert _counts(room) == [17, 17, 17]


def test_a_friends_room_deals_balanced_in_its_rounds(host):
    room = friends_room(host, variant="old_maid", seats=3, first_dealer=1)
    services.start_match(
        room_id=room.pk, actor=services.Actor(user_id=host.pk), fill_with_computers=True
    )
    room.refresh_from_db()
    assert _counts(room) == [14, 19, 18]  # 19-18-14 counted from the dealer, seat 1


# -- the form and the pages -----------------------------------------------------------


def test_the_form_deals_balanced_where_offered_unless_switched_off(client):
    post_new_game(client, seat_count=5, balanced_deal="on")
    assert Room.objects.get().options["balanced_deal"] is True
    Room.objects.all().delete()
    post_new_game(client, seat_count=5)  # the box unticked
    assert Room.objects.get().options["balanced_deal"] is False


def test_the_form_never_asks_for_it_where_it_is_not_offered(client):
    """Without scripts the box shows ticked everywhere; where the game's own deal is
    fair it is not read, so the room simply gets the own deal."""
    response = post_new_game(client, seat_count=4, balanced_deal="on")
    assert response.status_code == 302
    assert Room.objects.get().options["balanced_deal"] is False


def test_the_form_says_which_deal_and_carries_every_tables_line(client):
    page = client.get("/new/").content.decode()
    assert 'id="deal-line"' in page and 'name="balanced_deal"' in page
    assert re.search(r'name="balanced_deal"[^>]*checked', page)
    lines = json.loads(
        re.search(r'<script id="deal-lines" type="application/json">(.*?)</script>', page).group(1)
    )
    assert lines["babanuki"]["4"]["balanced"] is None
    assert "own deal" in lines["babanuki"]["4"]["own"]
    assert "13-10-10-10-10" in lines["babanuki"]["5"]["balanced"]
    assert set(lines["jijinuki"]) == {str(n) for n in range(3, 9)}
    for (variant, n), (counts, _) in BALANCED_DEALS.items():
        assert "-".join(map(str, counts)) in lines[variant][str(n)]["balanced"]


def test_the_form_speaks_japanese_and_chinese(client):
    for lang, word in (("ja", "バランス"), ("zh-hans", "均衡")):
        page = client.get("/new/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert word in page, lang


def test_the_room_page_says_which_deal_the_room_uses(client, host):
    client.force_login(host)
    balanced = computer_room(host, variant="babanuki", seats=5)
    own = computer_room(host, variant="babanuki", seats=5, options={"balanced_deal": False})
    page = client.get(f"/r/{balanced.code}/").content.decode()
    assert "balanced deal" in page and "13-10-10-10-10" in page
    page = client.get(f"/r/{own.code}/").content.decode()
    assert "own deal" in page and "13-10-10-10-10" not in page


def test_the_join_page_says_which_deal_the_room_uses(client, host):
    room = friends_room(host, variant="jijinuki", seats=3)
    page = client.get(f"/join/{room.token}/").content.decode()
    assert "balanced deal" in page and "19-16-16" in page


def lobby_row(page: str, room) -> str:
    body = page.split('<tbody id="lobby-rooms"', 1)[1].split("</tbody>", 1)[0]
    return body.split(f'<tr data-code="{room.code}">', 1)[1].split("</tr>", 1)[0]


@pytest.mark.parametrize(
    ("language", "word", "pairs"),
    [
        ("en", "balanced deal", "same-colour pairs"),
        ("ja", "バランス配り", "同じ色のペア"),
        ("zh-hans", "均衡发牌", "同色对子"),
    ],
)
def test_the_lobby_names_the_balanced_deal_among_the_house_rules(
    client, host, language, word, pairs
):
    balanced = friends_room(
        host, variant="babanuki", seats=5, listed=True, options={"same_colour_pairs": True}
    )
    own = friends_room(
        host, variant="babanuki", seats=5, listed=True, options={"balanced_deal": False}
    )
    not_offered = friends_room(host, variant="babanuki", seats=4, listed=True)
    page = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    cells = re.findall(r"<td>([^<]*)</td>", lobby_row(page, balanced))
    assert f"{pairs} · {word}" in cells  # as the other house rules are, in their order
    assert word not in lobby_row(page, own) and word not in lobby_row(page, not_offered)
    # The live list's script has the word too (static/js/lobby.js).
    labels = page.split('id="lobby-labels"', 1)[1].split("</template>", 1)[0]
    assert f'data-balanced-deal="{word}"' in labels


def test_the_rules_page_says_how_to_deal_it_with_real_cards(client):
    page = client.get("/rules/").content.decode()
    assert 'id="balanced-deal"' in page
    assert "skip them" in page
    for (_variant, _n), (counts, _) in BALANCED_DEALS.items():
        assert "-".join(map(str, counts)) in page
    for lang in ("ja", "zh-hans"):
        other = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert "skip them" not in other and "13-10-10-10-10" in other


def test_the_fairness_page_shows_both_deals(client):
    page = client.get("/fairness/").content.decode()
    assert "The balanced deal (a house rule, on by default here)" in page
    assert "with the game&#x27;s own deal" in page or "with the game's own deal" in page
    section = page[page.index('id="fair-babanuki-5"') :]
    section = section[: section.index("</details>")]
    assert "13-10-10-10-10" in section and "Balanced" in section
    section = page[page.index('id="fair-babanuki-4"') :]
    section = section[: section.index("</details>")]
    assert "Balanced" not in section
