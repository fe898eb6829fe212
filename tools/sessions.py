"""Signing a user in without a request: the load benchmark's bots and the tests' players."""


def signed_in_session(user) -> dict:
    """What ``django.contrib.auth.login`` puts in a session, for signing ``user`` in
    without a request."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    return {
        SESSION_KEY: str(user.pk),
        BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
        HASH_SESSION_KEY: user.get_session_auth_hash(),
    }
