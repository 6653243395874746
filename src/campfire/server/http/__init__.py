"""The HTTP face of the server: the app, its routes, pages, request bodies, headers and the
table WebSocket. Imports point down: http -> tables -> cluster -> store -> the pure modules."""
