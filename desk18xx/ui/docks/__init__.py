"""Dock widgets around the map: market, companies, players, bank, auction, log, tiles."""
