"""Several processes together over Redis: notices, leases, presence and shared counters."""
