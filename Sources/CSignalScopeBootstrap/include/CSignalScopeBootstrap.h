// The bootstrap has no API; see bootstrap.c.
