"""What coreference systems write (docs/formats.md, System outputs):
fastcoref/LingMess character offsets, maverick token or character
offsets, wl-coref word spans, mentions given as strings. Each is a format of its own, chosen by name
or detected from a jsonlines file's members (:func:`.detect.system_of`);
character outputs are put on the key's words through the text
(:mod:`..alignment`)."""

from functools import partial

from ..base import Format, Lazy, Opened

_READ, _WRITE = f"{__name__}.read", f"{__name__}.write"


def _reader(name: str) -> Opened:
    """The reader of the system output ``name`` (:func:`.read.system_side`)."""
    return Opened(partial(Lazy(f"{_READ}:system_side"), name), long_lines=True)


FASTCOREF = Format("fastcoref", "fastcoref/LingMess output", (), _reader("fastcoref"), write=Lazy(f"{_WRITE}:write_fastcoref"))
MAVERICK = Format("maverick", "maverick output", (), _reader("maverick"), write=Lazy(f"{_WRITE}:write_maverick"))
WLCOREF = Format("wl-coref", "wl-coref output", (), _reader("wl-coref"), write=Lazy(f"{_WRITE}:write_wlcoref"))
MENTION_STRINGS = Format("mention-strings", "mentions as strings", (), _reader("mention-strings"), write=Lazy(f"{_WRITE}:write_strings"))
SYSTEMS = (FASTCOREF, MAVERICK, WLCOREF, MENTION_STRINGS)
