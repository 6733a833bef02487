"""Kismet in the browser: the web app behind ``kismet serve``."""

from kismet_dice.web.app import create_app

__all__ = ["create_app"]
