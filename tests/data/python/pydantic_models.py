"""MCP low-level server style: tools whose inputSchema is `Model.model_json_schema()` of a model in this file."""

from __future__ import annotations

import datetime
import enum
from typing import Annotated, Literal, Optional, Union

from mcp.types import Tool
from pydantic import BaseModel, ConfigDict, Field

DEFAULT_LIMIT = 20


class Status(str, enum.Enum):
    """Order status."""

    OPEN = "open"
    SHIPPED = "shipped"


class Money(BaseModel):
    amount: float = Field(gt=0, description="Amount in the currency's minor unit")
    currency: Literal["EUR", "USD"] = "EUR"


class Line(BaseModel):
    sku: str = Field(pattern=r"^[A-Z]{3}-\d+$", examples=["ABC-1"])
    quantity: int = Field(1, ge=1)
    price: Money | None = None


class SearchOrders(BaseModel):
    """Find orders."""

    model_config = ConfigDict(extra="forbid")

    status: Optional[Status] = None  # noqa: UP045 - the typing spelling is what is tested
    placed_after: datetime.date | None = Field(None, description="Inclusive")
    lines: list[Line] = Field(default_factory=list, max_length=10)
    limit: Annotated[int, Field(ge=1, le=100)] = DEFAULT_LIMIT
    sort: Union[Literal["asc"], Literal["desc"]] = "desc"  # noqa: UP007 - as above
    tags: set[str] = set()
    meta: dict[str, str] | None = None
    customer: str = Field(alias="customerId", min_length=3)


TOOLS = [
    Tool(name="search_orders", description="Find orders.", inputSchema=SearchOrders.model_json_schema()),
    Tool(name="price_line", description="Price one line.", inputSchema=Line.model_json_schema()),
]
