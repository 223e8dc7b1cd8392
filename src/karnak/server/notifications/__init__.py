"""Notifications: what an account is told (your turn, an invitation, a game over, a friend
request), stored while it is away and pushed live while it is connected.

Any module notifies through :meth:`Notifier.notify`; the e-mail sender and the page's socket
take notifications from the hub (``account:<id>`` for one account's sockets,
``notifications`` for whoever handles them all). A notification's text is written for its
reader alone and must hold nothing that reader may not see.
"""
