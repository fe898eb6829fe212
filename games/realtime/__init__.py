"""The real-time side of a room: its table socket and the frame grammar, the server's own
moves (the driver and its schedule), the heartbeat, broadcasts and the channel layer's
format, limits per client, outages, and the worker threads (docs/architecture.md)."""
