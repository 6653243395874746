"""Live tables in memory: the hub that changes them, their seats, sockets, chat, clock, bots,
and how this process keeps its copies in step with the others."""
