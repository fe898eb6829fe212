"""``{% seat_name seat %}``: a seat as every page names it, the way the table does: its
colour chip (a letter, so colour is never alone), its one short name ("Clara"), and what
it is ("computer · easy") as text on a second line; never a nested "Clara (computer, easy)".

``inline=True`` is for a name inside a sentence ("won by Clara"): the second line is
then read to screen readers but not shown, except a bot's "bot", which every page shows
beside its name (docs/bots.md). ``shown`` replaces the name (an empty seat's
"free")."""

from django import template
from django.template.loader import get_template
from django.utils.safestring import mark_safe

register = template.Library()


@register.simple_tag
def seat_name(seat, inline: bool = False, shown: str = ""):
    if seat is None:
        return "–"
    html = get_template("lobby/_seat_name.html").render(
        {"seat": seat, "name": shown or seat.short_name, "what": seat.what, "inline": inline}
    )
    return mark_safe(html.strip())  # the template escaped every word it took
