"""Errors a user can act on. The CLI prints the message as one line and exits 2."""


class UserError(Exception):
    """Bad input or a refused action: the message names the file, field or character."""
