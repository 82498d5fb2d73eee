"""Handlers live in a namespace subpackage (no __init__.py) and import no server framework."""

from typing import Literal


class MetricTools:
    def __init__(self, mcp):
        mcp.tool(name="get_metric_series")(self.get_metric_series)
        mcp.tool()(self.list_alarms)

    def get_metric_series(self, metric: str, period_seconds: int = 60, stat: Literal["avg", "max"] = "avg") -> list:
        """Return the datapoints of one metric over the last hour."""
        return []

    async def list_alarms(self, state: Literal["ok", "alarm"] = "alarm") -> list:
        """List the alarms in a state."""
        return []
