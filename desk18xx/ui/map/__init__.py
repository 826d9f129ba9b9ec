"""The hex map, drawn as 18xx.games draws boards.

Pure layout (shapely, no Qt), testable headless:

- :mod:`~desk18xx.ui.map.geometry`: tile units (corner radius 100), edge points,
  arcs, :class:`TrackShape`, :class:`StopPlace`, box placement, shared river costs.
- :mod:`~desk18xx.ui.map.tilelayout`: where a tile's stops and track go at a
  rotation (port of ``Engine::Tile#compute_city_town_edges``), hit tests.
- :mod:`~desk18xx.ui.map.hexlayout`: revenues, label, terrain, icons, markers and
  the location name placed in the free space of a hex.
- :mod:`~desk18xx.ui.map.boardview`: the read-only protocol the map draws from
  (:class:`BoardView` of :class:`HexState`) and frozen implementations.
- :mod:`~desk18xx.ui.map.starting`: a title's starting board as a ``BoardView``.

Qt:

- :mod:`~desk18xx.ui.map.painter`: QPainter drawing of one hex (and its borders).
- :mod:`~desk18xx.ui.map.items`: thin ``HexItem``/``BorderItem``/coordinate frame.
- :mod:`~desk18xx.ui.map.scene`: ``MapScene``, one item per hex.
- :mod:`~desk18xx.ui.map.render`: scene or board to ``QImage``/PNG.
"""
