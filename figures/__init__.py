"""How the site's pages show figures: charts drawn as inline SVG (``charts``) and numbers
written the reader's way (``numbers``).

Shared by the lobby (the fairness page, the profile) and telemetry (the staff dashboard),
which may not import each other; it uses neither, nor ``games``.
"""
