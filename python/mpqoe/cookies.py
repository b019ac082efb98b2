"""The controller's rule cookies, decoded (org.mpqoe.core.control.Cookies): 16 bits "mpqoe"
(0x4D51), 8 bits the kind of rule, 24 bits the connection id, 8 bits a generation (bumped when
a subflow moves) and 8 bits the subflow index. mininet-scripts/tests/test_contract.py checks
these against cookies that the Java code makes (`bin/mpqoe contract`)."""

APP, APP_MASK = 0x4D51 << 48, 0xFFFF << 48
SUBFLOW, LABEL, DELIVERY, TABLE_MISS, PLAIN = 1, 2, 3, 4, 5
KINDS = {
    "SUBFLOW": SUBFLOW,
    "LABEL": LABEL,
    "DELIVERY": DELIVERY,
    "TABLE_MISS": TABLE_MISS,
    "PLAIN": PLAIN,
}
FORWARDING_APP = 2  # Floodlight's AppCookie id of its Forwarding module (top 12 bits)


def is_ours(c):
    return (c & APP_MASK) == APP


def kind(c):
    """The kind of an mpqoe cookie, None for anyone else's."""
    return (c >> 40) & 0xFF if is_ours(c) else None


def connection(c):
    return (c >> 16) & 0xFFFFFF


def generation(c):
    return (c >> 8) & 0xFF


def subflow(c):
    return c & 0xFF


def floodlight_app(c):
    """The AppCookie id of a Floodlight module's cookie."""
    return c >> 52
