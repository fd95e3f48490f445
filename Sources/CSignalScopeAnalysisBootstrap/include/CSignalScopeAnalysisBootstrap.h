// The analysis module's load-time constructor has no API: see bootstrap.c.
