"""Production settings pass Django's deployment checklist with nothing silenced."""

import os
import subprocess
import sys

from tests.support import ROOT


def test_check_deploy_is_clean_under_the_production_environment(tmp_path):
    key_file = tmp_path / "secret_key"
    key_file.write_text("k" * 20 + "-production-test-key-" + "z" * 30 + "\n")
    # What scripts/prod.sh sets (see write_env there); the services need not be running:
    # the checks do not connect.
    env = {
        **{k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}},
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "SECRET_KEY_FILE": str(key_file),
        "ALLOWED_HOSTS": "127.0.0.1,localhost,[::1]",
        "DATABASE_URL": "postgres://postgres:postgres@127.0.0.1:5432/oldmaid",
        "REDIS_URL": "redis://127.0.0.1:6379/1",
        "STATIC_ROOT": str(tmp_path / "static"),
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
