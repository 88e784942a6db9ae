"""The tablets' side of the web app: the app factory and its pages, the Socket.IO namespace
with its payload check and pairing, and what one app instance runs (``services``)."""
