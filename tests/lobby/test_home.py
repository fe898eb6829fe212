def test_home_page_lists_the_variants(client):
    response = client.get("/")
    assert response.status_code == 200
    text = response.content.decode()
    for name in ("Babanuki", "Jiji-nuki", "Old Maid", "Schwarzer Peter"):
        assert name in text
    assert "53 cards, 2 to 8 players" in text
