"""The map model: hex grid, tiles, board state, track graph, routes.

- :mod:`hexgrid`: coordinates, neighbours, edges, distance (pure maths).
- :mod:`tiles`: int tables of a tile at a rotation (``geometry``).
- :mod:`board`: the mutable board (tiles, tokens, reservations, borders,
  supply) with 18xx.games ids.
- :mod:`upgrades`: tile-lay legality and cost; title knobs in ``TrackRules``.
- :mod:`graph`: what a company reaches from its tokens (``graph_for``).
- :mod:`chains`, :mod:`routes`: recorded routes to track, checks, revenue;
  title hooks in a ``RouteRules`` subclass.
"""
