"""The simulated worker (docs/simulated_worker.md): a client of the public websocket protocol that plays a worker in a
real room, to pilot a campaign before people are paid; and a scripted expert to play the other side offline.

`questions`: what it asks and the leak guard (pure). `client`: the protocol client. `play`: the two sides of a
dialogue. `runs`: accounts, sessions, pairing's goal for a simulated worker, and a run from start to end.
"""
