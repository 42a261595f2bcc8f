"""Persons: which authorships are one person (see docs/persons.md).

``kg.persons.names`` reads names (folding, blocking, which spellings can be one person, how many
people a name is likely to have); ``kg.persons.evidence`` what two authorships share;
``kg.persons.cluster`` decides, block by block, who is who and why; ``kg.persons.marks`` is the
user's thesaurus rows that split and join persons.
"""
