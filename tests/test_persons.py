"""The persons stage at the function level: who is who within a name block, why, under which key,
whatever the input order, and with the thesaurus's last word."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.persons.cluster import Cluster, block_of, blocks, cluster_block, persons, shared
from kg.persons.evidence import Authorship, content_words
from kg.persons.marks import Mark, marks_of
from kg.persons.names import LOOSE, SAME, VARIANT, Name, block_key, expected_people, relation
from kg.persons.parts import parts
from kg.persons.stage import decide_block

ROBOTS = content_words(
    "Tactile sensing for dexterous robotic grasping of deformable cloth with a soft gripper"
)
LANGUAGE = content_words("Instruction tuning of multilingual large language models for machine translation")


def authorship(paper: str, name: str, *coauthors: str, year: int = 2024, **evidence: object) -> Authorship:
    from kg.extractors.authors import name_key

    return Authorship(
        paper=paper,
        position=1,
        written=name,
        name=name_key(name),
        coauthors=tuple(sorted(name_key(c) for c in coauthors)),
        year=year,
        **evidence,  # type: ignore[arg-type]
    )


def people(clusters: tuple[Cluster, ...] | list[Cluster]) -> list[list[str]]:
    """The papers of each person, sorted: what a test compares."""
    return sorted(sorted(p for p, _ in c.members) for c in clusters)


def test_a_common_name_is_split_by_its_coauthors() -> None:
    assert expected_people(Name.parse("Yang Liu")) > 0.5  # the name is common
    block = [
        authorship("p1", "Yang Liu", "Maosong Sun", "Zhiyuan Liu"),
        authorship("p2", "Yang Liu", "Maosong Sun", "Peng Li"),
        authorship("p3", "Yang Liu", "Diyi Yang"),
        authorship("p4", "Yang Liu", "Diyi Yang", "Caleb Ziems"),
        authorship("p5", "Yang Liu", "Quentin Dubois"),
    ]
    clusters = cluster_block(block)
    assert people(clusters) == [["p1", "p2"], ["p3", "p4"], ["p5"]]
    [joined] = [c for c in clusters if ("p1", 1) in c.members]
    assert any("maosong sun" in r for r in joined.reasons)
    [alone] = [c for c in clusters if ("p5", 1) in c.members]
    assert alone.reasons == (
        "kept apart from the 2 other Yang Liu of this build: nothing they share outweighs how common the "
        "name is (1 people of it expected)",
    )


def test_a_rare_name_is_one_person_even_without_shared_evidence() -> None:
    block = [
        authorship("p1", "Graham Neubig", "Alice Oh"),
        authorship("p2", "Graham Neubig", "Bob Ma"),
        authorship("p3", "Graham Neubig", "Carla Ruiz", year=2015),
    ]
    [person] = cluster_block(block)
    assert person.key == "graham neubig"
    assert person.reasons == ("Graham Neubig is a rare name (0.00025 people of it expected): one person",)


def test_a_common_name_is_split_by_topic_and_years() -> None:
    block = [
        authorship("r1", "Wei Zhang", "Ann Lee", words=ROBOTS, year=2023),
        authorship("r2", "Wei Zhang", "Bo Chen", words=ROBOTS, year=2024),
        authorship("l1", "Wei Zhang", "Cy Dora", words=LANGUAGE, year=2008),
    ]
    assert people(cluster_block(block)) == [["l1"], ["r1", "r2"]]


def test_a_common_name_is_split_by_affiliation() -> None:
    block = [
        authorship("a1", "Hao Li", "Ann Lee", affiliations=("Tsinghua University",)),
        authorship("a2", "Hao Li", "Bo Chen", affiliations=("Tsinghua University",)),
        authorship("b1", "Hao Li", "Cy Dora", affiliations=("Massachusetts Institute of Technology",)),
        authorship("b2", "Hao Li", "Di Ezra", domains=("mit.edu",)),
        authorship("b3", "Hao Li", "Ed Fox", domains=("mit.edu",)),
    ]
    assert people(cluster_block(block)) == [["a1", "a2"], ["b1"], ["b2", "b3"]]


def test_two_authors_of_one_paper_are_never_one_person() -> None:
    a = authorship("p1", "Yang Liu", "Maosong Sun")
    b = Authorship("p1", 2, "Y. Liu", "y. liu", coauthors=("maosong sun",), year=2024)
    c = authorship("p2", "Yang Liu", "Maosong Sun")
    clusters = cluster_block([a, b, c])
    assert all(len({p for p, _ in cl.members}) == len(cl.members) for cl in clusters)


@pytest.mark.parametrize(
    ("a", "b", "how"),
    [
        ("Hinrich Schütze", "Hinrich Schuetze", SAME),
        ("Hinrich Schütze", "Hinrich Schutze", SAME),
        ("Dylan Hadfield-Menell", "Dylan Hadfield Menell", SAME),
        ("Zhi-Hua Zhou", "Zhihua Zhou", SAME),
        ("JOHN SMITH", "john smith", SAME),
        ("J. Smith", "John Smith", VARIANT),
        ("John Smith", "John A. Smith", VARIANT),
        ("J. A. Smith", "John Andrew Smith", VARIANT),
        ("Heni Amor", "Heni Ben Amor", VARIANT),
        ("Tim Baldwin", "Timothy Baldwin", LOOSE),
        ("J.-P. Dupont", "Jean-Pierre Dupont", VARIANT),
        ("Jean Dupont", "Jean-Pierre Dupont", ""),
        ("Hui Shen", "Hui-Liang Shen", ""),
        ("Kiet A. Nguyen", "Kiet Van Nguyen", ""),
        ("Maarten de Rijke", "Maarten Rijke", VARIANT),
        ("Jane Smith", "John Smith", ""),
        ("J. A. Smith", "J. B. Smith", ""),
        ("Yang Liu", "Liu Yang", ""),
    ],
)
def test_which_names_can_be_one_person(a: str, b: str, how: str) -> None:
    x, y = Name.parse(a), Name.parse(b)
    assert relation(x, y) == relation(y, x) == how
    if how:
        assert block_key(x) == block_key(y)


def test_variants_of_a_name_are_one_person() -> None:
    block = [
        authorship("p1", "Hinrich Schütze", "Ann Lee"),
        authorship("p2", "Hinrich Schuetze", "Bo Chen"),
        authorship("p3", "H. Schütze", "Cy Dora"),
    ]
    assert len({block_of(a) for a in block}) == 1
    [person] = cluster_block(block)
    assert person.name in ("Hinrich Schütze", "Hinrich Schuetze")


def test_an_initial_joins_a_fuller_name_only_when_it_fits_one() -> None:
    alone = [authorship("p1", "Steven Abney", "Ann Lee"), authorship("p2", "S. Abney", "Bo Chen")]
    assert people(cluster_block(alone)) == [["p1", "p2"]]
    two = [
        authorship("p1", "Jing Wang", "Ann Lee"),
        authorship("p2", "Jun Wang", "Bo Chen"),
        authorship("p3", "J. Wang", "Cy Dora"),
    ]
    assert people(cluster_block(two)) == [["p1"], ["p2"], ["p3"]]
    # with a shared coauthor (of a rare name) the initial joins the person it shares it with
    two[1] = authorship("p2", "Jun Wang", "Quentin Dubois")
    evidence = [*two[:2], authorship("p3", "J. Wang", "Quentin Dubois")]
    assert people(cluster_block(evidence)) == [["p1"], ["p2", "p3"]]


def test_the_input_order_changes_nothing() -> None:
    block = [
        authorship(f"p{i}", name, *coauthors, year=2020 + i % 4)
        for i, (name, coauthors) in enumerate(
            [
                ("Yang Liu", ("Maosong Sun",)),
                ("Yang Liu", ("Maosong Sun", "Peng Li")),
                ("Y. Liu", ("Peng Li",)),
                ("Yang Liu", ("Diyi Yang",)),
                ("Yang Liu", ("Quentin Dubois",)),
                ("Yang Liu", ("Diyi Yang", "Quentin Dubois")),
                ("Yang Liu", ("Ann Lee",)),
            ]
        )
    ]
    expected = persons(block)
    for seed in range(5):
        shuffled = block[:]
        random.Random(seed).shuffle(shuffled)
        assert persons(shuffled) == expected


def test_person_keys_are_the_name_alone_or_anchored_in_the_earliest_paper() -> None:
    block = [
        authorship("p2", "Yang Liu", "Maosong Sun", year=2021),
        authorship("p3", "Yang Liu", "Maosong Sun", year=2022),
        authorship("p1", "Yang Liu", "Diyi Yang", year=2023),
    ]
    keys = {c.key: people([c])[0] for c in cluster_block(block)}
    assert keys == {"yang liu": ["p2", "p3"], "yang liu~p1": ["p1"]}
    # a paper added to one person changes no key; a new person takes a key of its own
    more = [
        *block,
        authorship("p4", "Yang Liu", "Diyi Yang", year=2024),
        authorship("p0", "Yang Liu", "Xu Sun", year=2025),
    ]
    keys = {c.key: people([c])[0] for c in cluster_block(more)}
    assert keys == {"yang liu": ["p2", "p3"], "yang liu~p1": ["p1", "p4"], "yang liu~p0": ["p0"]}
    assert shared(cluster_block(more)) == {"yang liu": ["yang liu", "yang liu~p0", "yang liu~p1"]}


def test_the_thesaurus_splits_a_name_by_a_paper_or_a_coauthor() -> None:
    marks = marks_of(
        [
            ("Yang Liu [with Maosong Sun]", "Yang Liu (Tsinghua)", 2),
            ("Yang Liu [paper p3]", "Yang Liu (Edinburgh)", 3),
        ]
    )
    block = [
        authorship("p1", "Yang Liu", "Maosong Sun", "Zhiyuan Liu"),
        authorship("p2", "Yang Liu", "Maosong Sun"),
        authorship("p3", "Yang Liu", "Zhiyuan Liu"),  # kg's evidence would join it to p1
    ]
    clusters = cluster_block(block, marks)
    assert {c.key: people([c])[0] for c in clusters} == {
        "yang liu (tsinghua)": ["p1", "p2"],
        "yang liu (edinburgh)": ["p3"],
    }
    assert {c.name for c in clusters} == {"Yang Liu (Tsinghua)", "Yang Liu (Edinburgh)"}


def test_the_thesaurus_merges_people_kg_keeps_apart() -> None:
    marks = [
        Mark("yang liu", "p1", "", "Yang Liu", 2),
        Mark("yang liu", "p2", "", "Yang Liu", 3),
        Mark("y. liu", "p3", "", "Yang Liu", 4),
    ]
    block = [
        authorship("p1", "Yang Liu", "Ann Lee"),
        authorship("p2", "Yang Liu", "Bo Chen"),
        authorship("p3", "Y. Liu", "Cy Dora"),
        authorship("p4", "Yang Liu", "Di Ezra"),
    ]
    assert people(cluster_block(block)) == [["p1"], ["p2"], ["p3"], ["p4"]]
    assert people(cluster_block(block, marks)) == [["p1", "p2", "p3"], ["p4"]]


def test_a_mark_moves_an_authorship_to_the_block_of_its_person() -> None:
    marks = [Mark("susan warwick", "p1", "", "Susan Armstrong", 2)]
    a = authorship("p1", "Susan Warwick", "Ann Lee")
    b = authorship("p2", "Susan Armstrong", "Bo Chen")
    assert block_of(a, marks) == block_of(b) != block_of(a)
    assert [people(cluster_block(bl, marks)) for bl in blocks([a, b], marks).values()] == [[["p1", "p2"]]]


def test_a_thesaurus_mark_row_is_the_persons_stages_not_a_rename() -> None:
    from kg.curation import Curation
    from kg.errors import IssueLog
    from kg.readers.thesaurus import Thesaurus, parse

    text = "label\treplace by\nYang Liu [with Maosong Sun]\tYang Liu (THU)\nH. Schuetze\tHinrich Schütze\n"
    curation = Curation(Thesaurus("t.txt", "", tuple(parse(text, "t.txt", IssueLog()))), {})
    assert curation.marks == [Mark("yang liu", "", "maosong sun", "Yang Liu (THU)", 2)]
    assert set(curation.persons) == {"h. schuetze"}
    assert [e.label for e in curation.unused()] == ["H. Schuetze"]


def test_a_new_paper_that_joins_two_persons_keeps_the_earlier_key() -> None:
    before = [
        authorship("p1", "Yang Liu", "Maosong Sun", year=2020),
        authorship("p2", "Yang Liu", "Quentin Dubois", year=2022),
    ]
    assert {c.key for c in cluster_block(before)} == {"yang liu", "yang liu~p2"}
    after = [*before, authorship("p3", "Yang Liu", "Maosong Sun", "Quentin Dubois", year=2023)]
    [joined] = cluster_block(after)
    assert joined.key == "yang liu" and people([joined]) == [["p1", "p2", "p3"]]


def test_a_new_paper_that_splits_a_person_leaves_the_key_with_its_earliest_paper() -> None:
    # "S. Abney" is the only fuller name's shorter form, until a second fuller name comes
    before = [
        authorship("p1", "Steven Abney", "Ann Lee", year=2020),
        authorship("p2", "S. Abney", "Bo Chen", year=2021),
    ]
    assert [(c.key, people([c])[0]) for c in cluster_block(before)] == [("steven abney", ["p1", "p2"])]
    after = [*before, authorship("p3", "Sarah Abney", "Cy Dora", year=2022)]
    assert {c.key: people([c])[0] for c in cluster_block(after)} == {
        "steven abney": ["p1"],
        "s. abney": ["p2"],
        "sarah abney": ["p3"],
    }


def test_a_name_of_many_papers_weighs_only_the_pairs_that_share_something(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import kg.persons.cluster as cluster

    block = [authorship(f"p{i}", "Yang Liu", f"Coauthor{i // 3} Zyx") for i in range(12)]
    dense = people(cluster_block(block))
    monkeypatch.setattr(cluster, "DENSE", 4)
    assert (
        people(cluster_block(block))
        == dense
        == sorted([["p0", "p1", "p2"], ["p3", "p4", "p5"], ["p6", "p7", "p8"], ["p10", "p11", "p9"]])
    )


def test_no_name_is_keyed_like_one_person_of_a_shared_name() -> None:
    block = [authorship("p1", "Yang Liu~px", "Ann Lee")]
    assert [c.key for c in cluster_block(block)] == ["yang liu-px"]


def test_two_last_authors_of_one_venue_are_likelier_one_person() -> None:
    # a middling name: two papers at one venue with nothing else in common stay apart, unless both
    # list it last (a group's leader: a venue has far fewer of those than authors)
    name = "Xiaolong Wang"
    assert 0.2 < expected_people(Name.parse(name)) < 0.5
    venue = "Conference on Robot Learning"

    def two(senior: bool, second_venue: str = venue) -> list[list[str]]:
        block = [
            authorship("p1", name, "Ann Lee", "Bo Chen", venue=venue, senior=senior),
            authorship("p2", name, "Cy Dora", "Dan Eve", venue=second_venue, senior=senior),
        ]
        return people(cluster_block(block))

    assert two(senior=False) == [["p1"], ["p2"]]
    assert two(senior=True) == [["p1", "p2"]]
    assert two(senior=True, second_venue="Conference on Language Modeling") == [["p1"], ["p2"]]


def test_the_last_author_is_senior_unless_the_list_is_in_surname_order() -> None:
    from kg.ledger import Entry
    from kg.persons.stage import authorships

    def entry(names: list[str]) -> Entry:
        rows = [[n.casefold(), n, []] for n in names]
        return Entry("p1", (), "2024", {"author": [rows, "CoRL", []]})

    assert [a.senior for a in authorships(entry(["Cy Cole", "Ann Abel", "Bo Berg"]))] == [False, False, True]
    assert not any(a.senior for a in authorships(entry(["Ann Abel", "Bo Berg", "Cy Cole"])))
    assert not any(a.senior for a in authorships(entry(["Bo Berg", "Ann Abel"])))  # two authors: a pair


# --- parts of a block: decided apart, the same persons --------------------------------------------

GIVEN = ["Wei", "Wen", "W.", "Weiwei", "Wei-Lin", "Wen Y.", "J.", "Jane", "John", "John A.", "Jo", "Zoë", "Zoe"]
SURNAME = ["Wang", "Quixbrook", "van Wang", "Wang~x", "Wang-x"]


@st.composite
def block_of_names(draw: st.DrawFn) -> list[Authorship]:
    """Authorships of names that share and do not share forms, initials and prefixes, with coauthors
    that some share, on papers of up to two of them."""
    out = []
    for n in range(draw(st.integers(2, 14))):
        name = f"{draw(st.sampled_from(GIVEN))} {draw(st.sampled_from(SURNAME))}"
        coauthors = draw(st.lists(st.sampled_from(["Zed Quorra", "Mia Vantorp", "Kai Lomb"]), max_size=2))
        paper = f"p{draw(st.integers(0, n))}"
        out.append(authorship(paper, name, *coauthors, year=draw(st.integers(2018, 2025))))
    return [
        Authorship(**{**{f: getattr(a, f) for f in Authorship.__slots__}, "position": i})  # type: ignore[arg-type]
        for i, a in enumerate(out, 1)
    ]


@settings(max_examples=150, deadline=None)
@given(block_of_names())
def test_a_block_decided_part_by_part_is_the_block_decided_whole(items: list[Authorship]) -> None:
    whole = tuple(sorted(cluster_block(items), key=lambda c: c.key))
    assert decide_block(items) == whole


def test_the_parts_of_a_block() -> None:
    names = [("Wei Wang", "wei wang"), ("Wen Wang", "wen wang"), ("Weiwei Wang", "weiwei wang")]
    assert parts(names) == [[0, 2], [1]]  # "Wei" starts "Weiwei": they can be variants; Wen cannot
    assert parts([*names, ("W. Wang", "w. wang")]) == [[0, 1, 2, 3]]  # an initial meets them all
    # names whose keys would be written alike are one part, so keys made apart never collide
    assert parts([("Ann Wang~x", "ann wang~x"), ("Bo Wang-x", "ann wang-x")]) == [[0, 1]]
    # spellings of one name are one part whatever their first given names look like
    assert parts([("Zhi-Hua Zhou", "zhi-hua zhou"), ("Zhihua Zhou", "zhihua zhou")]) == [[0, 1]]
