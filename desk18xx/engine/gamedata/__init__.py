"""Game data of a title, read from ``maps/<title>/*.yaml`` into frozen dataclasses.

The public entry point is :mod:`desk18xx.engine.data` (``load_title``, which
re-exports every dataclass defined here).  One module per file kind:

- ``yamlnode``: the YAML cursor that reports bad nodes with file and key
- ``tiles``: printed hexes (``map.yaml``) and the tile manifest (``tiles.yaml``)
- ``market``: ``market.yaml``
- ``trains``: ``trains.yaml`` and ``phases.yaml``
- ``entities``: ``companies.yaml`` and ``corporations.yaml``
- ``config``: ``title.yaml``
"""
