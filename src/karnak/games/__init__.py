"""One package per game, each a data file of board figures plus the rules over the core."""
