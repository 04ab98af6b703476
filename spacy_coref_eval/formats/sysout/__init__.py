"""What coreference systems write (docs/formats.md, System outputs):
fastcoref/LingMess character offsets, maverick token or character
offsets, wl-coref word spans, mentions given as strings. Each is a format of its own, chosen by name
or detected from a jsonlines file's members (:func:`.detect.system_of`);
character outputs are put on the key's words through the text
(:mod:`..alignment`)."""
from ..base import Format, Lazy

_READ, _WRITE = f"{__name__}.read", f"{__name__}.write"

FASTCOREF = Format(
    "fastcoref", "fastcoref/LingMess output", (), Lazy(f"{_READ}:read_fastcoref"), write=Lazy(f"{_WRITE}:write_fastcoref"),
)
MAVERICK = Format(
    "maverick", "maverick output", (), Lazy(f"{_READ}:read_maverick"), write=Lazy(f"{_WRITE}:write_maverick"),
)
WLCOREF = Format(
    "wl-coref", "wl-coref output", (), Lazy(f"{_READ}:read_wlcoref"), write=Lazy(f"{_WRITE}:write_wlcoref"),
)
MENTION_STRINGS = Format(
    "mention-strings", "mentions as strings", (), Lazy(f"{_READ}:read_strings"), write=Lazy(f"{_WRITE}:write_strings"),
)
SYSTEMS = (FASTCOREF, MAVERICK, WLCOREF, MENTION_STRINGS)
