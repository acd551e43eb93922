"""The hall's HTTP and WebSocket server (Starlette on uvicorn) over ``cardhall.hall``.

``cardhall.server.app.create_app(config, db_url)`` builds the application;
``cardhall serve`` runs it. The protocol is documented in docs/protocol.md.
Nothing is imported here, so that ``cardhall.cli`` can register the server's
subcommands without the server's dependencies installed.
"""
