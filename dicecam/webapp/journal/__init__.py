"""The journal a table keeps: the SQLite one (``sqlite``) or the PostgreSQL one (``postgres``),
chosen by ``choose``, and the outbox of results for a tournament hub beside the games."""
