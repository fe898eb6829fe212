"""Names at a table cannot pass for someone else's; names in any script still work."""

import pytest
from django.test import Client

from games import services
from games.errors import ActionError
from games.models import Seat
from games.names import name_key, normalise
from tests.lobby.conftest import LANGUAGES, REFUSED

pytestmark = pytest.mark.django_db


@pytest.fixture
def room_with_ann(make_friends_room):
    room = make_friends_room(seats=4)
    Client().post(f"/join/{room.token}/", {"name": "Ann"})
    assert Seat.objects.get(room=room, index=1).name == "Ann"
    return room


def join(room, name, language="en"):
    return Client().post(f"/join/{room.token}/", {"name": name}, HTTP_ACCEPT_LANGUAGE=language)


@pytest.mark.parametrize("name", ["Ann\u200b", "An\xadn", "\u061cAnn", "Ann\ufe0f", "A\u2060nn"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_name_with_an_invisible_character_is_refused_in_the_readers_language(
    room_with_ann, name, language
):
    response = join(room_with_ann, name, language)
    assert response.status_code == 200
    assert REFUSED["invisible"][language] in response.content.decode()
    assert Seat.objects.filter(room=room_with_ann, index=2, guest="").exists()


@pytest.mark.parametrize("name", ["Ａｎｎ", "ANN", "ａｎｎ", " ann ", "Ann\u3000"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_name_that_normalises_to_a_taken_one_is_refused(room_with_ann, name, language):
    response = join(room_with_ann, name, language)
    assert response.status_code == 200
    assert REFUSED["taken"][language] in response.content.decode()
    assert 'aria-invalid="true"' in response.content.decode()
    assert Seat.objects.filter(room=room_with_ann, index=2, guest="").exists()


@pytest.mark.parametrize("name", ["さくら", "小明", "Zoë", "José María", "Ａｎｎａ"])
def test_names_in_any_script_are_accepted_as_typed_except_full_width_latin(room_with_ann, name):
    assert join(room_with_ann, name).status_code == 302
    stored = Seat.objects.get(room=room_with_ann, index=2).name
    assert stored == ("Anna" if name == "Ａｎｎａ" else name)


def test_japanese_and_chinese_names_keep_their_characters():
    assert normalise("さくら") == "さくら"
    assert normalise("小明") == "小明"
    assert normalise("  山田\u3000太郎 ") == "山田 太郎"  # the ideographic space is a space
    assert name_key("Ａｎｎ") == name_key("ann") == name_key("Ann\u200b")


def test_joining_checks_the_taken_name_with_the_room_locked(room_with_ann):
    """The form's check can be stale (the page was open while someone else sat down as
    Ann): the service refuses too."""
    with pytest.raises(ActionError) as refused:
        services.join_room(
            room_id=room_with_ann.pk, actor=services.Actor(guest="b" * 32), name="ａｎｎ"
        )
    assert refused.value.code == "name_taken"
    assert Seat.objects.filter(room=room_with_ann, index=2, guest="").exists()


def test_a_stale_invitation_page_shows_the_taken_name_next_to_the_field(room_with_ann, monkeypatch):
    from lobby import forms

    # As if the page had been read before Ann sat down: the form sees no name taken.
    monkeypatch.setattr(forms.JoinForm, "__init__", _without_taken_names(forms.JoinForm.__init__))
    response = join(room_with_ann, "ANN")
    assert response.status_code == 200
    assert REFUSED["taken"]["en"] in response.content.decode()
    assert Seat.objects.filter(room=room_with_ann, index=2, guest="").exists()


def _without_taken_names(init):
    def patched(self, *args, taken_names=(), **kwargs):
        init(self, *args, taken_names=(), **kwargs)

    return patched
