"""Accounts: who a person is across games (sign-up, log-in, sessions, CSRF, seats held).

A person may play without an account, by a seat's secret link, as before; an account adds an
identity: a name and a password, a session cookie that opens the games it holds without their
links, and a seat claimed by its link becomes the account's. Friends, open tables, chat,
notifications, ratings and e-mail build on it, each in a module of its own.
"""
