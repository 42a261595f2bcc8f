"""What a shipped SKOS vocabulary file (``ontology/*.ttl``) says of each of its subjects: the values of
the predicates a vocabulary reader wants, by subject.  Read with Oxigraph's parser: rdflib's is many
times slower on the shipped vocabularies, a cost every build process would pay."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from kg.errors import KgError

Facts = dict[str, dict[str, list[str]]]
"""Subject IRI -> field name -> the values, in the file's order."""


def read_facts(path: Path, wanted: Mapping[str, str], what: str) -> Facts:
    """The values of the predicates ``wanted`` (predicate IRI -> field name) of every named subject of
    the Turtle file ``path``; a file that cannot be read is a ``bad-taxonomy`` error naming ``what``."""
    import pyoxigraph as ox

    facts: Facts = {}
    try:
        with path.open("rb") as f:
            for triple in ox.parse(f, format=ox.RdfFormat.TURTLE):
                field = wanted.get(triple.predicate.value)
                if field is not None and isinstance(triple.subject, ox.NamedNode):
                    facts.setdefault(triple.subject.value, {}).setdefault(field, []).append(
                        triple.object.value
                    )
    except (OSError, SyntaxError, ValueError) as exc:
        raise KgError(f"cannot read {what} {path}: {exc}", code="bad-taxonomy") from exc
    return facts
