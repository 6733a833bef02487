"""The API's routers, one per concern: games (and their live pages), the Hall of Fame, the pages."""
