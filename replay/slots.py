"""A cheaper ``__init__`` for the engine's frozen value classes.

The ``__init__`` that :func:`dataclasses.dataclass` writes for a frozen class sets every
field through ``object.__setattr__`` (frozen classes refuse ordinary assignment).  For
a class with ``slots=True`` the slot descriptors can set the fields directly, which
does the same thing in about half the time.  The replay makes a few such objects per
action (positions, actions, pile entries), so :func:`slot_init` gives them that
``__init__``.  Nothing else changes: the class is the same frozen dataclass (fields,
defaults, ``repr``, ``==``, ``hash``, :func:`dataclasses.replace`, ``__post_init__``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def slot_init(cls: type[T]) -> type[T]:
    """Replace the generated ``__init__`` of a frozen ``slots=True`` dataclass by one
    that sets the slots directly.  Apply it above ``@dataclass``.

    Supports plain defaults and ``default_factory``; fields with ``init=False`` are set
    from their default (or factory), as the generated ``__init__`` does, and
    ``__post_init__`` runs last.  Refuses ``InitVar``/``ClassVar`` and keyword-only
    fields (none of the engine's classes has them).
    """
    if not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a dataclass with slots=True")
    if not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined,unused-ignore]
        raise TypeError(f"{cls.__name__} is not frozen: its generated __init__ is cheap")
    if len(cls.__dataclass_fields__) != len(dataclasses.fields(cls)):  # type: ignore[attr-defined,unused-ignore]
        raise TypeError(f"{cls.__name__} has InitVar or ClassVar fields: not supported")
    scope: dict[str, Any] = {}
    args: list[str] = []
    body: list[str] = []
    for f in dataclasses.fields(cls):  # type: ignore[arg-type,unused-ignore]
        if f.kw_only:
            raise TypeError(f"{cls.__name__}.{f.name}: keyword-only fields are not supported")
        scope[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is not dataclasses.MISSING:
            scope[f"_default_{f.name}"] = f.default
            value = f"_default_{f.name}"
        elif f.default_factory is not dataclasses.MISSING:
            scope[f"_factory_{f.name}"] = f.default_factory
            value = f"_factory_{f.name}()"
        else:
            value = ""
        if f.init:
            if value.endswith("()"):  # a factory: called only when no value is given
                args.append(f"{f.name}=_HAS_DEFAULT")
                body.append(
                    f"_set_{f.name}(self, {value} if {f.name} is _HAS_DEFAULT else {f.name})"
                )
            else:
                args.append(f"{f.name}={value}" if value else f.name)
                body.append(f"_set_{f.name}(self, {f.name})")
        else:
            if not value:
                raise TypeError(f"{cls.__name__}.{f.name}: init=False needs a default")
            body.append(f"_set_{f.name}(self, {value})")
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    scope["_HAS_DEFAULT"] = _HAS_DEFAULT
    source = f"def __init__(self, {', '.join(args)}):\n    " + "\n    ".join(body or ["pass"])
    exec(source, scope)  # the same technique dataclasses itself uses to write __init__
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = "As the dataclass's own __init__, setting the slots directly."
    setattr(cls, "__init__", init)  # noqa: B010 (mypy refuses assigning a method)
    return cls


def slot_setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    """The function that sets slot ``name`` of an instance of ``cls`` directly (for a
    hand-written ``__init__`` of a frozen slots class; see :func:`slot_init`)."""
    setter: Callable[[Any, Any], None] = cls.__dict__[name].__set__
    return setter


class _HasDefault:
    def __repr__(self) -> str:
        return "<factory default>"


_HAS_DEFAULT: Any = _HasDefault()
