"""Time on screen and in text, in one place: `m:ss`.

One function, so the preview, the night and day screens, `narrator script` and
`narrator play` never disagree by accident. The roundings differ on purpose and say
so at the call: `up=True` for what is still to come (a countdown shows 0:01 until
the last second is really over), the nearest second for estimates, and tenths for
positions in a sound file.
"""

from __future__ import annotations


def clock(seconds: float, *, up: bool = False, tenths: bool = False) -> str:
    """`m:ss` (`m:ss.s` with `tenths`); negative times show as 0:00."""
    seconds = max(0.0, seconds)
    if tenths:
        return f"{int(seconds // 60)}:{seconds % 60:04.1f}"
    # up: the next whole second, but a thousandth over one still shows that one
    whole = int(seconds + 0.999) if up else round(seconds)
    return f"{whole // 60}:{whole % 60:02d}"
