"""pydantic at the boundary, dataclasses inside.

Nodes (the record model, diagnostics, the validation report) are plain dataclasses: building
one validates nothing and imports nothing. pydantic, through a ``TypeAdapter`` over the
dataclass, reads and writes their JSON form and describes them as JSON Schemas, with the
``model_*`` names of pydantic models; it is imported when one of those is first called, so
``paifu validate`` without ``--json`` never loads it. A field's description is its
dataclass field's ``metadata={"description": ...}`` (pydantic reads a field's metadata as
``Field`` arguments).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import TypeAdapter

_ADAPTERS: dict[type, TypeAdapter] = {}


class Node:
    """The JSON boundary of a dataclass (``__slots__`` empty, so slotted subclasses stay slotted)."""

    __slots__ = ()

    @classmethod
    def prepare_adapter(cls) -> None:
        """Called before the first adapter of a class is built: a module whose annotations
        name pydantic's markers binds them here (:mod:`paifu.notation.model`)."""

    @classmethod
    def adapter(cls) -> TypeAdapter:
        found = _ADAPTERS.get(cls)
        if found is None:
            from pydantic import TypeAdapter

            cls.prepare_adapter()
            found = _ADAPTERS[cls] = TypeAdapter(cls)
        return found

    @classmethod
    def model_validate(cls, data: Any) -> Any:
        """A node from JSON data (``json.loads``'s output), validated; raises ``pydantic.ValidationError``."""
        return cls.adapter().validate_python(data)

    @classmethod
    def model_validate_json(cls, text: str | bytes) -> Any:
        return cls.adapter().validate_json(text)

    @classmethod
    def model_json_schema(cls) -> dict[str, Any]:
        return cls.adapter().json_schema()

    def model_dump(self, mode: str = "python", **kwargs: Any) -> Any:
        return self.adapter().dump_python(self, mode=mode, **kwargs)

    def model_dump_json(self, **kwargs: Any) -> str:
        return self.adapter().dump_json(self, **kwargs).decode("utf-8")

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Any:
        """A copy (``deep``: of every node below too), with ``update``'s fields replaced."""
        node = copy.deepcopy(self) if deep else copy.copy(self)
        for name, value in (update or {}).items():
            setattr(node, name, value)
        return node


def described(description: str, **kwargs: Any) -> Any:
    """A dataclass field (``dataclasses.field(**kwargs)``) with its JSON Schema description."""
    from dataclasses import field

    return field(metadata={"description": description}, **kwargs)
