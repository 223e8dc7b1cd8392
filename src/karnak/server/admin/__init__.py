"""Administration: the admin role, finding and restraining accounts, games and chat lines,
the reports players send, and an audit log of every administrator's action.

An administrator is an account whose ``role`` is "admin"; the first one is made on the
command line (``karnak admin create NAME``, karnak.cli.admin_cmd), since no page can tell who
should be the first. Everything an administrator does goes through :class:`AdminService`,
which writes one audit row per action in the same transaction as the action itself: an
action that is not in the audit log did not happen. The log is only ever appended to.

What an administrator sees of a running game is what a spectator sees: the admin pages are a
place of trust for the site, not for the games' hidden information.
"""
