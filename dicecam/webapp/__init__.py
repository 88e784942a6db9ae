"""Flask + Flask-SocketIO server and the tablet view."""
