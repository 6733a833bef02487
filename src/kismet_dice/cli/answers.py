"""Reading what a person types in plain text: the dice to keep and a box's number or name.

Each wrong answer gets its own reason, so the person learns what to type instead of reading
the general help again. The rules decide what is legal; this only reads the words.
"""

from __future__ import annotations

from kismet_dice.rules import Box, IllegalAction

BOX_HINT = "Type a box's number (1-15) or the start of its name, like '9' or 'straight' ('hint' for advice)."


class WrongAnswer(ValueError):
    """An answer that does not read; the message says what was wrong and what to type."""


def read_keep(text: str) -> tuple[int, ...]:
    """Engine positions (0-4) of the dice to keep, from a person's 1-5 as '1 3', '1,3' or '13'.

    >>> read_keep("1 3"), read_keep("25"), read_keep("")
    ((0, 2), (1, 4), ())
    >>> read_keep("9")
    Traceback (most recent call last):
    ...
    kismet_dice.cli.answers.WrongAnswer: There is no die 9: dice are 1 to 5.
    >>> read_keep("12345678")
    Traceback (most recent call last):
    ...
    kismet_dice.cli.answers.WrongAnswer: Five dice at most, and keeping all five leaves nothing to roll.
    """
    words = text.replace(",", " ").split()
    digits: list[str] = []
    for word in words:
        if word.lstrip("+-").isdigit() and not word.isdigit():
            raise WrongAnswer(f"There is no die {word}: dice are 1 to 5.")
        if not word.isdigit():
            raise WrongAnswer(
                f"{word!r} is not a die: type the positions of the dice to keep, like '1 3' or '13', "
                "Enter to roll all five, or 's' to score."
            )
        # "13" is dice 1 and 3; "10" has no die 0 in it.
        digits.extend(word)
    if len(digits) > 5:
        raise WrongAnswer("Five dice at most, and keeping all five leaves nothing to roll.")
    for digit in digits:
        if not "1" <= digit <= "5":
            raise WrongAnswer(f"There is no die {digit}: dice are 1 to 5.")
    if len(set(digits)) != len(digits):
        twice = next(digit for digit in digits if digits.count(digit) > 1)
        raise WrongAnswer(f"Die {twice} is named twice: name each die to keep once.")
    if len(digits) == 5:
        raise WrongAnswer("Keeping all five leaves nothing to roll: type 's' to score.")
    return tuple(sorted(int(digit) - 1 for digit in digits))


def _words(text: str) -> str:
    return " ".join(text.replace("_", " ").replace("-", " ").split()).lower()


def box_candidates(text: str) -> tuple[Box, ...]:
    """The boxes ``text`` may mean: by number, by whole name, or by the start of a name.

    >>> box_candidates("yar"), box_candidates("Full house")
    ((<Box.YARBOROUGH: 14>,), (<Box.FULL_HOUSE: 11>,))
    >>> [box.label for box in box_candidates("four")]
    ['Four of a Kind', 'Fours']
    """
    try:
        return (Box.parse(text),)
    except IllegalAction:
        pass
    key = _words(text)
    if not key:
        return ()
    squeezed = key.replace(" ", "")
    found = [
        box
        for box in Box
        if _words(box.label).startswith(key) or _words(box.label).replace(" ", "").startswith(squeezed)
    ]
    return tuple(sorted(found, key=lambda box: box.label))


def read_box(text: str) -> Box:
    """The one box ``text`` names, or :class:`WrongAnswer` saying why not (naming the candidates).

    >>> read_box("yar")
    <Box.YARBOROUGH: 14>
    >>> try:
    ...     read_box("full")
    ... except WrongAnswer as error:
    ...     print(error)
    Full House or Full House Same Color? Type more of the name, or its number.
    """
    if not text.strip():
        raise WrongAnswer(f"Nothing was typed. {BOX_HINT}")
    if text.strip().lstrip("+-").isdigit():
        raise_for_number(text.strip())
    candidates = box_candidates(text)
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise WrongAnswer(f"No box's name starts with {text.strip()!r}. {BOX_HINT}")
    labels = [box.label for box in candidates]
    question = ", ".join(labels[:-1]) + " or " + labels[-1]
    raise WrongAnswer(f"{question}? Type more of the name, or its number.")


def raise_for_number(text: str) -> None:
    """A box number out of range is named as such (a number in range reads as its box)."""
    if not (text.isdigit() and 1 <= int(text) <= len(Box)):
        raise WrongAnswer(f"There is no box {text}: boxes are numbered 1 to {len(Box)}.")


__all__ = ["BOX_HINT", "WrongAnswer", "box_candidates", "raise_for_number", "read_box", "read_keep"]
