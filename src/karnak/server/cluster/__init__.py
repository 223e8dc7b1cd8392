"""Running Karnak as several server processes over one database.

One process with SQLite needs nothing from here but the lock that keeps a second process
off its file. Several processes share a PostgreSQL database, which decides every write, and
a Redis broker that carries live events between them (:mod:`.broker`); each running game's
background work (bots, timers, reminders) runs in the one process that holds the game's
lease (:mod:`.leases`). docs/operating.md tells how to run it.
"""
