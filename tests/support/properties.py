"""What the property-based tests share: hypothesis settings for examples that each run the loader
or a whole `pnp` command (the fixtures they share, `scratch` and `templates_read_once`, are in
conftest.py)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

# No deadline (an example is a command, whose time varies with the machine's load), the same
# examples on every run, and the health checks that count a slow or large example as a fault off.
PROPERTY = settings(
    deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
