"""The error an interface turns into one line for the person, never a traceback."""


class UserError(Exception):
    """A problem the person can fix; its message is printed as one line."""
