# SPDX-License-Identifier: MIT
# How cgtop2 writes a cgroup's name (man cgtop2, DESCRIPTION), for the suites' Python checks
# (PYTHONPATH=$CGKIT_TOP/tests/helpers).


def is_ctl(c):
    """A control character: C0, DEL, C1."""
    return ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0


def table(n):
    """The table's text of name n (bytes): \\t \\n \\r, \\xNN per byte of another control
    character or of no UTF-8, \\\\ for a backslash."""
    out = ""
    for c in n.decode("utf-8", "surrogateescape"):
        if c in "\t\n\r":
            out += {"\t": "\\t", "\n": "\\n", "\r": "\\r"}[c]
        elif 0xDC80 <= ord(c) <= 0xDCFF:
            out += "\\x%02x" % (ord(c) - 0xDC00)
        elif is_ctl(c):
            out += "".join("\\x%02x" % b for b in c.encode())
        elif c == "\\":
            out += "\\\\"
        else:
            out += c
    return out


def label_value(n):
    """(value, escaped) of name n (bytes) as a label of the expositions: the name itself where
    it is UTF-8 with no control character, else the table's text and escaped="true"."""
    try:
        t = n.decode("utf-8")
        if not any(is_ctl(c) for c in t):
            return t, False
    except UnicodeDecodeError:
        pass
    return table(n), True


def json_value(n):
    """(value, escaped) of name n (bytes) as a JSON string, decoded: the name itself where it is
    UTF-8 (JSON escapes what it must), else the table's text and KEY_escaped true beside it."""
    try:
        return n.decode("utf-8"), False
    except UnicodeDecodeError:
        return table(n), True


def unescape(s):
    """The bytes of a name from its escaped text (the table's, a label's or JSON's): \\xNN a
    byte, \\t \\n \\r, \\\\ a backslash; anything else is itself."""
    import re

    one = {b"t": b"\t", b"n": b"\n", b"r": b"\r", b"\\": b"\\"}
    return re.sub(rb"\\(x[0-9a-f]{2}|[tnr\\])",
                  lambda m: one.get(m.group(1)) or bytes([int(m.group(1)[1:], 16)]),
                  s.encode("utf-8"))
