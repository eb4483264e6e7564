"""The 16 powers (R16 to R31) as ids; the engine's hooks name them."""

COLLECTOR = "collector"
CUNNING = "cunning"
CUTE = "cute"
DICTATOR = "dictator"
DOCTOR = "doctor"
GOOD_FRIEND = "good_friend"
GREEDY = "greedy"
HUSTLER = "hustler"
JUNK_DEALER = "junk_dealer"
KID = "kid"
LUCKY_MAN = "lucky_man"
PROFESSIONAL = "professional"
SMART = "smart"
STEALTHY = "stealthy"
UNBREAKABLE = "unbreakable"
VULTURE = "vulture"

POWERS = (
    COLLECTOR, CUNNING, CUTE, DICTATOR, DOCTOR, GOOD_FRIEND, GREEDY, HUSTLER,
    JUNK_DEALER, KID, LUCKY_MAN, PROFESSIONAL, SMART, STEALTHY, UNBREAKABLE, VULTURE,
)

WOUND_LIMIT = 3  # R8
UNBREAKABLE_LIMIT = 5  # R30


def wound_limit(power: str | None) -> int:
    return UNBREAKABLE_LIMIT if power == UNBREAKABLE else WOUND_LIMIT


def shrugs_off(power: str | None, bangs: int) -> bool:
    """R26: the Lucky Man hit by two or more Bang! in a turn takes no wound."""
    return power == LUCKY_MAN and bangs >= 2
