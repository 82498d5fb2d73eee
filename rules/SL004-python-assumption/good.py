from typing import Literal

from fastmcp import FastMCP
from pydantic import BaseModel, Field

mcp = FastMCP("shop")


class OrderFilter(BaseModel):
    """Which orders to return."""

    status: Literal["open", "shipped", "cancelled"] = Field(description="Order status")
    placed_after: str | None = Field(None, description="ISO 8601 date, e.g. 2024-05-01")


@mcp.tool
def search_orders(filter: OrderFilter, limit: int = Field(20, ge=1, le=100, description="At most this many")) -> list[str]:
    """Search orders by status and date. Do not use for refunds; use refund_order."""
    return []
