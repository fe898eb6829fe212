"""Log-ins through the site's forms from a given address, for the lock-out tests
(django-axes): who tries, from where, and whether the answer is the lock-out page."""

from django.test import Client

HOME = "203.0.113.5"  # the family's router
ELSEWHERE = "198.51.100.7"
ADMIN, SITE = "/admin/login/", "/accounts/login/"


def log_in(path: str, username: str, password: str, address: str, **headers):
    client = Client(REMOTE_ADDR=address, **headers)
    response = client.post(path, {"username": username, "password": password})
    return response, "_auth_user_id" in client.session


def locked(response) -> bool:
    return response.status_code == 429 and "Too many failed log-ins" in response.content.decode()
