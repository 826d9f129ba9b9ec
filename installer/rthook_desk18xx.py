"""PyInstaller runtime hook: point desk18xx at the game data inside the bundle.

Runs before the program. ``maps/`` and ``resources/`` sit next to the
``desk18xx`` package in the bundle (``sys._MEIPASS``), as in a source tree;
``DESK18XX_MAPS`` makes that explicit for ``desk18xx.engine.data.maps_dir``.
A value the player set already wins (a folder of modified maps).
"""

import os
import sys

_bundle = getattr(sys, "_MEIPASS", None)
if _bundle is not None:
    os.environ.setdefault("DESK18XX_MAPS", os.path.join(_bundle, "maps"))
