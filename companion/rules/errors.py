"""The one error the engine raises: an action the rules do not allow now."""


class RuleError(Exception):
    """Refused action; `rule` names the ruling (e.g. "R5") that forbids it."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} [{rule}]")
        self.rule = rule
        self.message = message
