"""Player accounts: names, passwords, sessions, sign-in limits and passkeys.

Below the server: nothing here knows HTTP or the database; the server's accounts routes and
account storage use these pieces. Playing as a guest needs none of it.
"""
