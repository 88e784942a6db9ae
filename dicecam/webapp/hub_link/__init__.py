"""The table's link to a tournament hub: results sent through the outbox (``link``), and the
group the hub seats started at the table (``seating``)."""
