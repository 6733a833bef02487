"""The screens of the terminal game, each a small class."""
