"""Open tables (games waiting for their players, joined from the lobby by accounts and
guests), invitations, the rematch, "my games" and turn notifications.

Modules: ``tables`` (the rows, migration 0005_tables), ``store`` (the database),
``service`` (the rules of a table, and starting its game), ``turns`` (whose turn it is, for
the accounts), ``my_games`` (an account's games), ``routes`` (the JSON API).
"""
