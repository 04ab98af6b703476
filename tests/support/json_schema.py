"""A validator for the subset of JSON Schema (draft 2020-12) that
``spacy_coref_eval/schemas/*.schema.json`` use; a keyword outside the subset
is an error, so that a schema cannot rely on one this validator ignores."""

import math
from collections.abc import Iterator
from typing import Any, Optional

ANNOTATIONS = {"$schema", "$id", "$defs", "title", "description"}
TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def errors(instance: Any, schema: dict[str, Any], root: Optional[dict[str, Any]] = None, where: str = "$") -> Iterator[str]:
    """Every way ``instance`` breaks ``schema``, as ``path: reason``."""
    root = schema if root is None else root
    unknown = set(schema) - ANNOTATIONS - set(_KEYWORDS)
    if unknown:
        raise ValueError(f"{where}: keywords outside the supported subset: {sorted(unknown)}")
    for keyword, value in schema.items():
        if keyword in _KEYWORDS:
            yield from _KEYWORDS[keyword](instance, value, schema, root, where)


def validate(instance: Any, schema: dict[str, Any]) -> list[str]:
    return list(errors(instance, schema))


def _ref(instance, ref, schema, root, where):
    if not ref.startswith("#/"):
        raise ValueError(f"{where}: only local references are supported, not {ref}")
    target = root
    for part in ref[2:].split("/"):
        target = target[part]
    yield from errors(instance, target, root, where)


def _type(instance, value, schema, root, where):
    names = [value] if isinstance(value, str) else value
    if not any(TYPES[name](instance) for name in names):
        yield f"{where}: {type(instance).__name__} is not {value}"


def _const(instance, value, schema, root, where):
    if instance != value or type(instance) is not type(value):
        yield f"{where}: {instance!r} is not {value!r}"


def _enum(instance, value, schema, root, where):
    if instance not in value:
        yield f"{where}: {instance!r} is not one of {value}"


def _properties(instance, value, schema, root, where):
    if isinstance(instance, dict):
        for name, sub in value.items():
            if name in instance:
                yield from errors(instance[name], sub, root, f"{where}.{name}")


def _required(instance, value, schema, root, where):
    if isinstance(instance, dict):
        for name in value:
            if name not in instance:
                yield f"{where}: lacks {name!r}"


def _additional(instance, value, schema, root, where):
    if not isinstance(instance, dict):
        return
    for name, item in instance.items():
        if name in schema.get("properties", {}):
            continue
        if value is False:
            yield f"{where}: unexpected member {name!r}"
        elif isinstance(value, dict):
            yield from errors(item, value, root, f"{where}.{name}")


def _items(instance, value, schema, root, where):
    if isinstance(instance, list):
        for index, item in enumerate(instance):
            yield from errors(item, value, root, f"{where}[{index}]")


def _bound(check, text):
    def keyword(instance, value, schema, root, where):
        if TYPES["number"](instance) and not check(instance, value):
            yield f"{where}: {instance} {text} {value}"

    return keyword


def _length(check, text):
    def keyword(instance, value, schema, root, where):
        if isinstance(instance, list) and not check(len(instance), value):
            yield f"{where}: {len(instance)} items, {text} {value}"

    return keyword


_KEYWORDS = {
    "$ref": _ref,
    "type": _type,
    "const": _const,
    "enum": _enum,
    "properties": _properties,
    "required": _required,
    "additionalProperties": _additional,
    "items": _items,
    "minimum": _bound(lambda v, b: v >= b, "is below"),
    "maximum": _bound(lambda v, b: v <= b, "is above"),
    "exclusiveMinimum": _bound(lambda v, b: v > b, "is not above"),
    "exclusiveMaximum": _bound(lambda v, b: v < b, "is not below"),
    "minItems": _length(lambda n, b: n >= b, "fewer than"),
    "maxItems": _length(lambda n, b: n <= b, "more than"),
}
