"""The table's messages compared by their shape: the documentation's examples
(docs/protocol.md, docs/bots.md) against the messages a real table sends."""


def shape(value):
    """Key structure of a JSON value (dict keys, recursively, lists by their first item)."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items() if k not in ("hands", "options", "rules")}
    if isinstance(value, list) and value and isinstance(value[0], dict):
        return [shape(value[0])]
    return None
