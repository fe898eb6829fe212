from django.shortcuts import render

from games.engine import VARIANTS


def home(request):
    return render(request, "lobby/home.html", {"variants": VARIANTS.values()})
