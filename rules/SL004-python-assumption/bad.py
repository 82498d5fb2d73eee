from fastmcp import FastMCP

from shop.models import OrderFilter
from shop.settings import SEARCH_DESCRIPTION

mcp = FastMCP("shop")


@mcp.tool(description=SEARCH_DESCRIPTION)
def search_orders(filter: OrderFilter, **options: str) -> list[str]:
    """Search orders by status and date. Do not use for refunds; use refund_order."""
    return []
