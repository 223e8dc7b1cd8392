"""Ratings and leaderboards: one openskill rating per game for every account and every bot
spec, updated once when a rated game ends, with its history; the leaderboard, the profile and
a finished game's changes over HTTP.

- :mod:`.rules`: which games are rated, who is rated at which rank, the update (pure);
- :mod:`.tables`: ``ratings``, ``rated_games``, ``rating_events`` (migration 0008_ratings);
- :mod:`.store`: the database (a game counts exactly once);
- :mod:`.service`: follows the hub's ``games`` topic and catches up at start;
- :mod:`.routes`: ``/api/leaderboard/<game>``, ``/api/players/<name>``,
  ``/api/games/<id>/ratings``.
"""
