"""The terminal game, made with Textual."""

from kismet_dice.tui.app import KismetApp

__all__ = ["KismetApp"]
