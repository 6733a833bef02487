"""The one error type every illegal action in Kismet raises."""


class IllegalAction(ValueError):
    """An action the rules do not allow, or a value that is not a legal one.

    The message always says what was wrong. Whatever raised it has changed nothing.

    >>> issubclass(IllegalAction, ValueError)
    True
    """
