"""The tournament hub: tables join an evening with a code and send their settled passes;
the hub keeps them in PostgreSQL and shows one standings board, live, to every screen.

``store.py`` (PostgreSQL through psycopg 3, with migrations), ``app.py`` (Flask +
Flask-SocketIO; every emit goes through Redis so N hub processes reach every client),
``server.py`` (N processes sharing one port with SO_REUSEPORT, restarted when they die),
``config.py`` (what ``dicecam hub init`` writes and ``dicecam hub`` reads).
"""
