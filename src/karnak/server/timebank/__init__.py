"""Time and abandonment: a time bank for turn-based play, reminders, and bots for seats
whose person left or ran out of time.

- :mod:`.clock`: the time control, each seat's clock and the rule that runs it;
- :mod:`.abandonment`: handing a seat to a bot, and how the result then counts;
- :mod:`.service`: the timers (reminders, time running out), fed by the hub;
- :mod:`.store`: the columns (migration 0006_time); :mod:`.views`: what views say of it;
- :mod:`.routes`: ``POST /api/games/{id}/leave``.

The rules as players read them are in docs/players.md, "Time and abandonment".
"""
