"""The engine, the titles and io never load Qt (STYLE.md §1)."""

import subprocess
import sys


def test_engine_titles_io_do_not_import_pyside6() -> None:
    code = (
        "import pkgutil, importlib, sys\n"
        "import desk18xx.engine, desk18xx.titles, desk18xx.io\n"
        "for pkg in (desk18xx.engine, desk18xx.titles, desk18xx.io):\n"
        "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        importlib.import_module(m.name)\n"
        "print(sorted(k for k in sys.modules if k.startswith('PySide6')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[]", f"PySide6 modules loaded by the engine: {out}"
