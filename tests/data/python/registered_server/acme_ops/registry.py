"""register(mcp) with add_tool; this file imports no framework (the server comes as a parameter)."""


def list_invoices(customer_id: str, limit: int = 20) -> list:
    """List a customer's invoices, newest first."""
    return []


def get_invoice(invoice_id: str) -> dict:
    """Fetch one invoice with its lines."""
    return {}


def register(mcp):
    mcp.add_tool(list_invoices, name="list_customer_invoices")
    mcp.add_tool(get_invoice)
