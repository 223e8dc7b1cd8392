"""Chat per game: the seats write, everyone who can open the game reads.

Who writes: the seats, by their link (token) or by the session of the account that holds
them; bots and spectators do not. Who reads: every seat and every spectator, through the
same history (``GET /api/games/{id}/chat``) and the game's WebSocket (``{"event": "chat"}``).
There is no spectator chat: anyone can open a game without a token, players included, so a
chat "hidden from the seats" could not be hidden from them, and a spectator's advice would
reach a player all the same. Lines are stored, bounded (length, characters, lines per
game), rate-limited per client, and carry only what every reader sees anyway: who wrote
(seat and name, and the holding account's name), the text, a number within the game's chat
and the time it was posted; never a game version, which would count private moves.
"""
