"""Study files (save format 2): the whole tree with notes survives save and load."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from desk18xx.engine.variations import Mark, VariationTree
from desk18xx.io import migrations
from desk18xx.io.savefile import (
    SavedPlayer,
    SaveFormatError,
    SaveHeader,
    TamperedSaveError,
    dump_save,
    load_save,
    save_game,
)
from desk18xx.io.study import (
    LINE_CURRENT,
    export_line,
    load_study,
    save_study,
    study_section,
)

HEADER = SaveHeader("1867", (SavedPlayer("1", "Ann"), SavedPlayer("2", "Bø")), 7)
DOC = Path(__file__).resolve().parents[2] / "docs" / "save-format.md"


def act(n: int, entity: int = 1) -> dict[str, Any]:
    return {"type": "bid", "entity": entity, "entity_type": "player", "company": "P1",
            "price": n}


def study_tree() -> VariationTree:
    tree = VariationTree()
    main = tree.add_line([act(i) for i in range(1, 5)])
    tree.go_to(main[1])
    side = tree.add_line([act(30, 2), act(31)])
    tree.go_to(main[1])
    other = tree.play(act(40, 2))
    tree.set_name(side[0], "Bø bids high")
    tree.set_note(side[1], "Too expensive?\nCompare after SR 2: 'quotes', \"double\", ünïcode")
    tree.set_marks(side[1], [Mark.MISTAKE, Mark.INTERESTING])
    tree.set_marks(other, ["good"])
    tree.set_digest(other, "abc")
    tree.root.note = "Opening study"
    tree.go_to(side[1])
    return tree


def test_notes_names_and_marks_survive_save_and_load(tmp_path: Path) -> None:
    tree = study_tree()
    path = tmp_path / "study.yaml"
    save_study(path, HEADER, tree, "d-main", notes={"1": "my plan"})
    loaded = load_study(path)
    assert loaded.tree.to_data() == tree.to_data()
    assert loaded.header == HEADER
    assert loaded.saved.notes == {"1": "my plan"}
    assert loaded.saved.format_version == migrations.CURRENT_VERSION == 2
    side = loaded.tree.current
    assert side.note.startswith("Too expensive?\nCompare")
    assert side.marks == [Mark.MISTAKE, Mark.INTERESTING]
    assert side.parent is not None and side.parent.name == "Bø bids high"
    assert loaded.tree.root.note == "Opening study"
    # the file is also a plain game: its actions are the main line
    plain = load_save(path)
    assert list(plain.actions) == [n.action for n in tree.main_line()]
    # saving again gives the same text
    again = tmp_path / "again.yaml"
    save_study(again, HEADER, loaded.tree, "d-main", notes={"1": "my plan"})
    assert again.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")


def test_the_study_example_in_the_format_doc_is_valid(tmp_path: Path) -> None:
    example = DOC.read_text(encoding="utf-8").split("```yaml\n")[2].split("```", 1)[0]
    path = tmp_path / "example.yaml"
    path.write_text(example, encoding="utf-8")
    loaded = load_study(path)
    tree = loaded.tree
    assert len(tree) == 4 and tree.current.name == "Bob lets M24 go"
    assert tree.current.marks == [Mark.INTERESTING]
    assert dump_save(loaded.header, loaded.saved.actions, loaded.saved.state_digest,
                     notes=loaded.saved.notes, study=study_section(loaded.header, tree)) \
        == example


def edit(path: Path, change: Any) -> None:
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True),
                    encoding="utf-8")


def test_an_edited_variation_is_found_by_node(tmp_path: Path) -> None:
    path = tmp_path / "study.yaml"
    save_study(path, HEADER, study_tree(), "d")
    edit(path, lambda d: d["study"]["nodes"][5]["action"].update(price=1))
    with pytest.raises(TamperedSaveError, match=r"study\.nodes\[5\]: fails the hash chain") as e:
        load_study(path)
    assert e.value.index == 5


def test_notes_are_outside_the_hashes(tmp_path: Path) -> None:
    path = tmp_path / "study.yaml"
    save_study(path, HEADER, study_tree(), "d")
    edit(path, lambda d: d["study"]["nodes"][0].update(note="edited by hand"))
    assert load_study(path).tree.main_line()[0].note == "edited by hand"


@pytest.mark.parametrize("change, message", [
    (lambda d: d["study"]["nodes"].reverse(), "no earlier node"),
    (lambda d: d["study"]["nodes"][0].pop("hash"), r"nodes\[0\]\.hash: is missing"),
    (lambda d: d["study"].update(nodes=3), "study.nodes: must be a list"),
    (lambda d: d.update(study=[1]), "study: must be a mapping"),
    (lambda d: d["study"]["nodes"][0].update(marks=["wow"]), "study: nodes\\[0\\].marks"),
])
def test_bad_study_sections(tmp_path: Path, change: Any, message: str) -> None:
    path = tmp_path / "study.yaml"
    save_study(path, HEADER, study_tree(), "d")
    edit(path, change)
    with pytest.raises(SaveFormatError, match=message):
        load_study(path)


def test_a_main_line_that_is_not_the_game_is_refused(tmp_path: Path) -> None:
    tree = study_tree()
    path = tmp_path / "study.yaml"
    main = [n.action for n in tree.main_line() if n.action]
    save_game(path, HEADER, main[:-1], "d", study=study_section(HEADER, tree))
    with pytest.raises(SaveFormatError, match="main line is not the game"):
        load_study(path)


def test_an_autosave_holds_the_current_line_and_is_checked_against_it(
        tmp_path: Path) -> None:
    tree = study_tree()  # the current node is on a side line
    path = tmp_path / "autosave.yaml"
    current = tree.actions(tree.current)
    section = study_section(HEADER, tree, line=LINE_CURRENT)
    save_game(path, HEADER, [{**a, "id": 90 + i} for i, a in enumerate(current)], "d",
              study=section)  # a line played again gets new action ids: still the line
    loaded = load_study(path)
    assert loaded.tree.to_data() == tree.to_data()  # names, notes, marks, current node
    assert loaded.tree.current.id == tree.current.id
    save_game(path, HEADER, current[:-1], "d", study=section)
    with pytest.raises(SaveFormatError, match="current line is not the game"):
        load_study(path)
    save_game(path, HEADER, current, "d", study={**section, "line": "sideways"})
    with pytest.raises(SaveFormatError, match="study.line: must be 'main' or 'current'"):
        load_study(path)


def test_export_a_line_as_a_plain_game(tmp_path: Path) -> None:
    tree = study_tree()
    node = tree.current
    path = tmp_path / "line.yaml"
    export_line(path, HEADER, tree, node, "d-line")
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert "study" not in document
    game = load_save(path)
    assert list(game.actions) == tree.actions(node)
    assert [a["price"] for a in game.actions] == [1, 2, 30, 31]
    ids = [a["id"] for a in game.actions]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    # and it opens as a one-line study
    assert [n.action for n in load_study(path).tree.main_line()] == tree.actions(node)


def write_v1(path: Path, actions: list[dict[str, Any]]) -> None:
    text = dump_save(HEADER, actions, "d-v1").replace("format_version: 2\n",
                                                      "format_version: 1\n", 1)
    path.write_text(text, encoding="utf-8")


def test_a_version_1_plain_game_loads_as_a_study_with_its_undone_moves(tmp_path: Path) -> None:
    raw = [{**act(1), "id": 1}, {**act(2), "id": 2},
           {"type": "undo", "entity": 1, "entity_type": "player", "id": 3},
           {**act(5), "id": 4}]
    path = tmp_path / "old.yaml"
    write_v1(path, raw)
    loaded = load_study(path)
    assert loaded.saved.format_version == 1
    tree = loaded.tree
    assert [n.action["price"] for n in tree.main_line() if n.action] == [1, 5]
    assert [c.action["price"] for c in tree.main_line()[0].children if c.action] == [5, 2]
    # saved again, it is a version 2 study file
    again = tmp_path / "new.yaml"
    save_study(again, loaded.header, tree, "d")
    assert yaml.safe_load(again.read_text(encoding="utf-8"))["format_version"] == 2
    assert load_study(again).tree.to_data() == tree.to_data()


def test_a_version_1_file_with_a_study_key_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "odd.yaml"
    write_v1(path, [{**act(1), "id": 1}])
    path.write_text(path.read_text(encoding="utf-8").replace("end:\n", "study: null\nend:\n"),
                    encoding="utf-8")
    with pytest.raises(SaveFormatError, match="format_version 1 has no 'study'"):
        load_save(path)
