"""Helpers shared by the tests, in one place: scripted dice and games, the web app, live pages,
the browser, and the import graph."""
