// The OpenCombine adapter's load-time constructor has no API: see bootstrap.c.
