"""The pure domain: no cloud SDK, no I/O, time and randomness injected."""
