"""`VariationTree.merge_line`: a received line joins your tree as its main line; nothing of
yours is removed or renamed (names, notes, marks, your own variations)."""

from __future__ import annotations

from desk18xx.engine.variations import Mark, VariationTree


def a(n: int, kind: str = "pass") -> dict[str, object]:
    return {"type": kind, "entity": "1", "id": n, "n": n}


def test_a_merged_line_becomes_the_main_line_and_keeps_your_annotations() -> None:
    tree = VariationTree()
    first, second = tree.add_line([a(1), a(2)])
    tree.set_name(second, "my plan")
    tree.set_note(first, "the opening")
    tree.toggle_mark(first, Mark.GOOD)
    tree.go_to(first)
    mine = tree.play(a(3))  # a variation of yours after the first move
    tree.set_note(mine, "what if")
    copy = tree.copy()
    end = copy.merge_line([a(1), a(4), a(5)])
    assert [n.action["n"] for n in copy.main_line() if n.action] == [1, 4, 5]
    assert copy.current is end
    kept = copy.main_line()[0]
    assert kept.note == "the opening" and kept.marks == [Mark.GOOD]
    others = {n.action["n"]: n for n in copy.nodes() if n.action}
    assert others[2].name == "my plan" and others[3].note == "what if"
    assert {c.action["n"] for c in kept.children if c.action} == {2, 3, 4}
    assert len(copy) == len(tree) + 2  # two new moves, nothing removed
    assert [n.action["n"] for n in tree.main_line() if n.action] == [1, 2]  # the original
    assert tree.current is mine


def test_merging_a_line_you_already_have_changes_nothing_but_the_main_line() -> None:
    tree = VariationTree()
    tree.add_line([a(1), a(2)])
    tree.go_to(tree.root)
    tree.add_line([a(7)])
    before = len(tree)
    end = tree.merge_line([a(7)])
    assert len(tree) == before and tree.main_line() == [end]
    assert tree.merge_line([]) is tree.root
