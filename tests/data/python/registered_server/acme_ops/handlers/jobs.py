"""A handler that keeps the server it is given and registers its methods through it."""

from typing import Literal


class JobHandler:
    def __init__(self, mcp, allow_write: bool = False):
        self.mcp = mcp
        self.allow_write = allow_write
        self.mcp.tool(name="manage_jobs")(self.manage_jobs)
        self.mcp.add_tool(self.cancel_job, name="cancel_job")

    def manage_jobs(self, operation: Literal["list", "describe"], job_id: str | None = None) -> dict:
        """List jobs, or describe one job by id."""
        return {}

    def cancel_job(self, job_id: str, reason: str = "") -> bool:
        """Cancel a running job. Irreversible."""
        return self.allow_write
