"""The variation tree: branching never loses a node; undo/redo/branch/promote/delete."""

from __future__ import annotations

import random
from typing import Any

import pytest

from desk18xx.engine.log import effective_actions
from desk18xx.engine.variations import (
    ROOT_ID,
    Mark,
    Node,
    TreeError,
    VariationTree,
    action_key,
    tree_from_log,
)


def act(n: int, kind: str = "bid", **extra: Any) -> dict[str, Any]:
    return {"type": kind, "entity": 1, "entity_type": "player", "price": n, **extra}


def prices(nodes: list[Node]) -> list[int]:
    return [n.action["price"] for n in nodes if n.action is not None]


def line_tree() -> tuple[VariationTree, list[Node]]:
    tree = VariationTree()
    return tree, [tree.play(act(i)) for i in range(1, 6)]


def test_play_builds_the_main_line_and_numbers_actions() -> None:
    tree, nodes = line_tree()
    assert tree.current is nodes[-1]
    assert prices(tree.main_line()) == [1, 2, 3, 4, 5]
    assert [n.depth for n in nodes] == [1, 2, 3, 4, 5]
    assert [n.action["id"] for n in nodes if n.action] == [1, 2, 3, 4, 5]
    assert all(n.is_main_line for n in nodes)
    assert tree.actions() == [n.action for n in nodes]
    assert len(tree) == 6 and tree.node(ROOT_ID) is tree.root


def test_undo_then_acting_starts_a_branch_and_keeps_the_old_future() -> None:
    tree, nodes = line_tree()
    tree.undo()
    tree.undo()
    assert tree.current is nodes[2]
    branch = tree.play(act(40))
    assert branch.parent is nodes[2] and branch.branch_index == 1
    assert not branch.is_main_line
    assert prices(tree.main_line()) == [1, 2, 3, 4, 5]  # old future kept
    assert prices(tree.path()) == [1, 2, 3, 40]
    assert len(tree) == 7


def test_redo_follows_the_branch_last_visited() -> None:
    tree, nodes = line_tree()
    tree.go_to(nodes[1])
    b1 = tree.play(act(30))
    b2 = tree.play(act(31))
    tree.go_to(nodes[1])
    assert tree.redo() is b1 and tree.redo() is b2 and tree.redo() is None
    tree.go_to(nodes[4])  # back on the main line: redo from node 2 follows it again
    tree.go_to(nodes[1])
    assert tree.redo() is nodes[2]
    tree.to_start()
    assert tree.current is tree.root and tree.undo() is None
    assert tree.to_end() is nodes[4]


def test_playing_an_existing_move_follows_it_instead_of_duplicating() -> None:
    tree, nodes = line_tree()
    tree.go_to(nodes[1])
    again = tree.play({**act(3), "id": 99, "created_at": 5})
    assert again is nodes[2] and len(tree) == 6
    assert action_key(act(3)) == action_key({**act(3), "id": 7, "user": 2})


def test_siblings_and_sibling_moves() -> None:
    tree, nodes = line_tree()
    alt = []
    for i in range(2):
        tree.go_to(nodes[0])
        alt.append(tree.play(act(20 + i)))
    assert tree.siblings(nodes[1]) == [nodes[1], *alt]
    tree.go_to(nodes[1])
    assert tree.next_sibling() is alt[0]
    assert tree.next_sibling() is alt[1]
    assert tree.next_sibling() is None  # the last one
    assert tree.next_sibling(-5) is nodes[1]
    assert tree.siblings(tree.root) == [tree.root]


def test_promote_makes_a_line_the_main_line() -> None:
    tree, nodes = line_tree()
    tree.go_to(nodes[1])
    deep = tree.add_line([act(30), act(31)])
    tree.go_to(deep[0])
    side = tree.play(act(50))
    tree.promote(side)
    assert prices(tree.main_line()) == [1, 2, 30, 50]
    assert side.is_main_line and not nodes[2].is_main_line
    assert nodes[2].branch_index == 1
    assert len(tree) == 9  # nothing lost
    tree.move_branch(nodes[2], -1)
    assert prices(tree.main_line()) == [1, 2, 3, 4, 5]


def test_delete_removes_a_node_and_its_future_only() -> None:
    tree, nodes = line_tree()
    tree.go_to(nodes[1])
    branch = tree.add_line([act(30), act(31)])
    tree.go_to(nodes[4])
    assert tree.delete(nodes[3]) == 2  # nodes 4 and 5
    assert tree.current is nodes[2]  # the current node was deleted: moved to the parent
    assert prices(tree.main_line()) == [1, 2, 3]
    assert branch[1] in tree and nodes[4] not in tree
    with pytest.raises(TreeError, match="not in this tree"):
        tree.go_to(nodes[4])
    with pytest.raises(TreeError, match="cannot be deleted"):
        tree.delete(tree.root)
    assert tree.delete(nodes[2]) == 1
    assert prices(tree.main_line()) == [1, 2, 30, 31]  # the variation moved up


def test_names_notes_marks() -> None:
    tree, nodes = line_tree()
    tree.set_name(nodes[2], "  Gambit ")
    tree.set_note(nodes[2], "Sell CPR early?\nThen buy GT.")
    tree.set_marks(nodes[2], ["interesting", Mark.GOOD, "good"])
    assert nodes[2].name == "Gambit"
    assert nodes[2].marks == [Mark.GOOD, Mark.INTERESTING]
    assert tree.toggle_mark(nodes[2], Mark.GOOD) is False
    assert tree.toggle_mark(nodes[2], "mistake") is True
    assert [m.symbol for m in nodes[2].marks] == ["?", "!?"]
    with pytest.raises(ValueError):
        tree.set_marks(nodes[2], ["brilliant"])


def test_transpositions_by_digest() -> None:
    tree, nodes = line_tree()
    tree.go_to(nodes[0])
    other = tree.add_line([act(3), act(2)])
    for node, digest in [(nodes[2], "same"), (other[1], "same"), (nodes[1], "x")]:
        tree.set_digest(node, digest)
    assert tree.transpositions(nodes[2]) == [other[1]]
    assert tree.transpositions(other[1]) == [nodes[2]]
    assert tree.transpositions(nodes[1]) == [] and tree.transpositions(nodes[4]) == []
    assert tree.transposition_groups() == [[nodes[2], other[1]]]
    tree.delete(other[0])
    assert tree.transpositions(nodes[2]) == []


def test_listeners_hear_every_change() -> None:
    tree, nodes = line_tree()
    events: list[tuple[str, int | None]] = []
    tree.subscribe(lambda event, node: events.append((event, None if node is None else node.id)))
    tree.undo()
    tree.play(act(9))
    tree.set_note(nodes[0], "x")
    tree.promote(tree.current)
    tree.delete(tree.current)
    assert [e for e, _ in events] == ["current", "added", "current", "changed", "reordered",
                                      "removed", "current"]


def test_plain_data_round_trip_keeps_everything() -> None:
    tree, nodes = line_tree()
    tree.go_to(nodes[1])
    branch = tree.add_line([act(30), act(31)])
    tree.set_name(branch[0], "side")
    tree.set_note(branch[1], "note")
    tree.set_marks(branch[1], ["mistake"])
    tree.set_digest(branch[1], "d")
    tree.root.note = "start"
    data = tree.to_data()
    again = VariationTree.from_data(data)
    assert again.to_data() == data
    assert again.current.id == branch[1].id
    assert again.node(branch[0].id).name == "side"
    assert prices(again.main_line()) == [1, 2, 3, 4, 5]
    assert again.play(act(77)).action["id"] == 8  # ids continue above every stored id


@pytest.mark.parametrize("bad, message", [
    ({"nodes": [{"id": 1, "parent": 5, "action": act(1)}]}, "no earlier node 5"),
    ({"nodes": [{"id": 1, "parent": 0, "action": act(1)}] * 2}, "used twice"),
    ({"nodes": [{"id": 0, "parent": 0, "action": act(1)}]}, "positive integer"),
    ({"nodes": [{"id": 1, "parent": 0, "action": {"x": 1}}]}, "string type"),
    ({"nodes": [{"id": 1, "parent": 0}]}, "missing"),
    ({"nodes": [{"id": 1, "parent": 0, "action": act(1), "marks": ["wow"]}]}, "marks"),
])
def test_from_data_refuses_bad_trees(bad: dict[str, Any], message: str) -> None:
    with pytest.raises(TreeError, match=message):
        VariationTree.from_data(bad)


def test_random_operations_never_lose_a_node() -> None:
    """Whatever is played, undone, redone, promoted or jumped to, every node made stays
    reachable (only delete removes, and exactly the subtree)."""
    rng = random.Random(18)
    tree = VariationTree()
    made: set[int] = set()
    for _ in range(2000):
        roll = rng.random()
        if roll < 0.45:
            made.add(tree.play(act(rng.randrange(4))).id)
        elif roll < 0.6:
            tree.undo()
        elif roll < 0.7:
            tree.redo()
        elif roll < 0.8:
            tree.go_to(rng.choice(list(tree.nodes())))
        elif roll < 0.85:
            tree.promote(rng.choice(list(tree.nodes())))
        elif roll < 0.9:
            tree.next_sibling(rng.choice((-1, 1)))
        elif roll < 0.92 and len(tree) > 1:
            victim = rng.choice([n for n in tree.nodes() if not n.is_root])
            gone = {n.id for n in victim.walk()}
            assert tree.delete(victim) == len(gone)
            made -= gone
        reachable = {n.id for n in tree.nodes()} - {ROOT_ID}
        assert reachable == made
    # every node's children hold different actions (no duplicate moves)
    for node in tree.nodes():
        keys = [action_key(c.action) for c in node.children if c.action]
        assert len(keys) == len(set(keys))
        for child in node.children:
            assert child.parent is node and child.depth == node.depth + 1


# --- a study from a recorded log -------------------------------------------------------

def test_tree_from_log_keeps_undone_actions_as_variations() -> None:
    raw = [
        {**act(1), "id": 1},
        {**act(2), "id": 2},
        {"type": "undo", "entity": 1, "id": 3},
        {**act(20), "id": 4},
        {"type": "message", "entity": 1, "id": 5, "message": "hi"},
        {"type": "undo", "entity": 1, "id": 6},
        {"type": "redo", "entity": 1, "id": 7},
        {**act(3), "id": 8},
        {"type": "undo", "entity": 1, "id": 9, "action_id": 1},
        {"type": "redo", "entity": 1, "id": 10},
    ]
    tree = tree_from_log(raw)
    assert tree.actions(tree.main_line()[-1]) == list(effective_actions(raw))
    assert tree.current is tree.main_line()[-1]
    first = tree.main_line()[0]
    assert prices(tree.main_line()) == [1, 20, 3]
    assert [c.action["price"] for c in first.children if c.action] == [20, 2]
    assert len(tree) == 5  # root, 1, 20, 3 and the undone 2


def test_tree_from_log_matches_filtering_on_the_recorded_fixtures() -> None:
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
    files = sorted(root.glob("*/*.json"))
    assert files, f"the recorded games are missing from {root} (../shared)"
    for file in files:
        raw = json.loads(file.read_text(encoding="utf-8"))["actions"]
        tree = tree_from_log(raw)
        main = tree.main_line()
        assert tree.actions(main[-1] if main else tree.root) == list(effective_actions(raw))
        undone = sum(1 for a in raw if a.get("type") == "undo")
        assert len(tree) - 1 >= len(main)
        if undone == 0:
            assert len(tree) - 1 == len(main)


def test_cached_main_line_follows_every_change() -> None:
    """`is_main_line` (cached) agrees with walking up after plays, promotes, moves
    and deletes in any order."""

    def walked(node: Node) -> bool:
        while node.parent is not None:
            if node.parent.children[0] is not node:
                return False
            node = node.parent
        return True

    rng = random.Random(7)
    tree = VariationTree()
    for step in range(300):
        nodes = list(tree.nodes())
        choice = rng.random()
        if choice < 0.6:
            tree.go_to(rng.choice(nodes))
            tree.play(act(step))
        elif choice < 0.75:
            tree.promote(rng.choice(nodes))
        elif choice < 0.85:
            tree.move_branch(rng.choice(nodes), rng.choice((-1, 1)))
        elif len(nodes) > 1:
            tree.delete(rng.choice(nodes[1:]))
        assert all(n.is_main_line == walked(n) for n in tree.nodes()), step
    copy = VariationTree.from_data(tree.to_data())
    assert all(n.is_main_line == walked(n) for n in copy.nodes())
