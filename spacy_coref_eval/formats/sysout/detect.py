"""Which system wrote a jsonlines file, from the members of its first
line (docs/formats.md, System outputs)."""

import json
from typing import Any, Optional

from ...errors import CorefInputError
from .strings import STRING_MEMBERS

_MARKERS = ('"text"', '"tokens"', '"clusters_token_offsets"', '"clusters_char_offsets"', '"cased_words"')
_OFFSETS = ("clusters", "predicted_clusters", "clusters_token_offsets", "clusters_char_offsets", "span_clusters", "word_clusters")


def candidates(obj: dict[str, Any]) -> list[str]:
    """The formats whose members ``obj`` has."""
    found = []
    if "sentences" in obj and ("clusters" in obj or "predicted_clusters" in obj):
        found.append("jsonlines")
    if "text" in obj and "clusters" in obj:
        found.append("fastcoref")
    if "clusters_token_offsets" in obj or "clusters_char_offsets" in obj:
        found.append("maverick")
    if "cased_words" in obj:
        found.append("wl-coref")
    if ("text" in obj or "tokens" in obj) and not any(obj.get(m) is not None for m in _OFFSETS):
        if any(obj.get(m) is not None for m in STRING_MEMBERS):
            found.append("mention-strings")
    if "text" in obj and "spans" in obj and "sentences" not in obj:
        found.append("prodigy")
    if "text" in obj and ("entities" in obj or isinstance(obj.get("label"), list)) and "sentences" not in obj:
        found.append("doccano")
    return found


def system_of(text: str, source: str) -> Optional[str]:
    """The system format of a jsonlines file's ``text``, ``None`` for the
    jsonlines format (or a first line no format fits, which its reader
    refuses); a line that fits several formats is an error naming them."""
    at, number = 0, 1
    while True:
        end = text.find("\n", at)
        line = text[at:] if end < 0 else text[at:end]
        if line.strip() or end < 0:
            break
        at, number = end + 1, number + 1
    if not any(marker in line for marker in _MARKERS):
        return None
    try:
        obj = json.loads(line)
    except ValueError:
        return None
    found = candidates(obj) if isinstance(obj, dict) else []
    if len(found) > 1:
        raise CorefInputError(
            f"{source}:{number}: the members fit several formats ({', '.join(found)}); name one with --key-format or --response-format"
        )
    return found[0] if found and found[0] != "jsonlines" else None
