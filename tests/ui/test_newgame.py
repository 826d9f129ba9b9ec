"""The new game dialog: titles, player ranges, names, options and the seed."""

from __future__ import annotations

import pytest

from desk18xx.ui.dialogs.newgame import NewGameDialog

pytestmark = pytest.mark.gui


def test_defaults_to_four_players_of_1867(qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = NewGameDialog(seed=99)
    qtbot.addWidget(dialog)
    setup = dialog.setup()
    assert setup.title == "1867"
    assert [name for _pid, name in setup.players] == ["Alice", "Bob", "Carol", "Dave"]
    assert setup.seed == 99
    assert setup.options == ()


def test_player_ranges_follow_the_title(qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    assert (dialog.count.minimum(), dialog.count.maximum()) == (2, 6)
    dialog.title_combo.setCurrentIndex(1)
    assert dialog.setup().title == "1822CA"
    assert (dialog.count.minimum(), dialog.count.maximum()) == (2, 7)
    dialog.count.setValue(7)
    assert len(dialog.setup().players) == 7
    assert not dialog.option_boxes
    dialog.title_combo.setCurrentIndex(2)
    assert dialog.setup().title == "1822CA-ERS"
    assert (dialog.count.minimum(), dialog.count.maximum()) == (2, 5)  # 18xx.games meta


def test_regional_scenarios_can_be_saved(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A scenario started from the dialog was named "1822CA ERS", which the save file
    refuses: saving, autosave and e-mail moves of ERS/WRS games all failed."""
    from desk18xx.io.savefile import load_save
    from desk18xx.titles import TITLES
    from desk18xx.ui.session import GameSession

    dialog = NewGameDialog(seed=7)
    qtbot.addWidget(dialog)
    for index in (2, 3):
        dialog.title_combo.setCurrentIndex(index)
        dialog.count.setValue(3)
        setup = dialog.setup()
        assert setup.title in TITLES
        session = GameSession()
        session.new_game(setup)
        path = tmp_path / f"{index}.d18xx"
        session.save(str(path))
        assert load_save(str(path)).header.title == setup.title


def test_grid_market_option_and_names(qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    dialog.option_boxes["grid_market"].setChecked(True)
    dialog.count.setValue(2)
    dialog.name_edits[0].setText("Ann")
    dialog.name_edits[1].setText("")
    setup = dialog.setup()
    assert setup.options == ("grid_market", "compat_18xxgames")  # two players: 18xx.games
    assert setup.players == (("1", "Ann"), ("2", "Player 2"))
    dialog.count.setValue(3)
    assert dialog.setup().options == ("grid_market",)


def test_seed_is_random_by_default_and_editable(qtbot) -> None:  # type: ignore[no-untyped-def]
    seeds = set()
    for _ in range(3):
        dialog = NewGameDialog()
        qtbot.addWidget(dialog)
        seeds.add(dialog.seed.value())
    assert len(seeds) > 1
    dialog.seed.setValue(12345)
    assert dialog.setup().seed == 12345
