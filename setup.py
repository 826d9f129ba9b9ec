"""Build hook: ship the top-level ``maps/`` inside the package as ``desk18xx/maps``.

All metadata is in pyproject.toml.  ``maps/`` stays at the top of the source
tree (tools and the installer read it there); a built wheel carries a copy in
the package, where :func:`desk18xx.engine.data.maps_dir` looks for it.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

MAPS = Path(__file__).resolve().parent / "maps"


class BuildPyWithMaps(build_py):
    """``build_py`` that also copies the YAML files and README of ``maps/``."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads maps/ from the source tree
        target = Path(self.build_lib) / "desk18xx" / "maps"
        for src in sorted(MAPS.rglob("*")):
            if src.is_file() and src.suffix in (".yaml", ".md"):
                dst = target / src.relative_to(MAPS)
                self.mkpath(str(dst.parent))
                self.copy_file(str(src), str(dst))


setup(cmdclass={"build_py": BuildPyWithMaps})
