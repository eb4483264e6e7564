"""League night: many tables at one venue, verified results, ratings and the venue page.

The table side (`outbox`, `reporter`, `bridge`) sends each finished game, with the whole
game as a scenario file, to the venue until the league acknowledges it; the league side
(`service`, `verify`, `store`, `rating`, `web`) replays it through the engine, stores it
and rates the players. See docs/LEAGUE.md.
"""
