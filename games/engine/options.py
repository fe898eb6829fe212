"""House rules that change play (RULES.md section 7)."""

from dataclasses import asdict, dataclass

from .variants import STRIKES, Variant


@dataclass(frozen=True)
class Options:
    #: A pair must match rank and colour.
    same_colour_pairs: bool = False
    #: The seat left holding the odd card wins the round instead of losing.
    reverse: bool = False
    #: Deal by the balanced deal's counts (RULES.md section 7, ``dealing.BALANCED_DEALS``)
    #: instead of the variant's own deal. Rooms stored before it existed lack the key and
    #: keep their deal.
    balanced_deal: bool = False

    @classmethod
    def parse(cls, options: "dict | Options | None", variant: Variant) -> "Options":
        """Options from a plain dict, refusing unknown keys and non-boolean values."""
        if options is None:
            return cls()
        if isinstance(options, Options):
            parsed = options
        else:
            if not isinstance(options, dict):
                raise ValueError("options must be a dict of house rules")
            known = set(cls.__dataclass_fields__)
            unknown = sorted(str(k) for k in options if k not in known)
            if unknown:
                raise ValueError(
                    f"unknown house rule(s): {', '.join(unknown)}; "
                    f"known: {', '.join(sorted(known))}"
                )
            for key, value in options.items():
                if not isinstance(value, bool):
                    raise ValueError(f"house rule {key!r} must be true or false, not {value!r}")
            parsed = cls(**options)
        if parsed.reverse and variant.scoring != STRIKES:
            raise ValueError(
                f"the reverse rule needs loser-only rounds with strikes scoring; "
                f"{variant.name} ranks every seat and scores points"
            )
        return parsed

    def as_dict(self) -> dict:
        return asdict(self)
