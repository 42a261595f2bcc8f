"""Text made safe inside HTML ``<script>`` elements: the one place the views and the site escape
what they inline.  A leaf: it imports nothing of kg."""

from __future__ import annotations

import json

__all__ = ["inline_script", "json_for_html"]


def inline_script(script: str) -> str:
    """A script safe inside ``<script>...</script>``: no closing tag or comment opener in it.

    >>> inline_script('a = "</script>"; b = "<!--"')
    'a = "<\\\\/script>"; b = "<\\\\!--"'
    """
    return (
        script.replace("</script", "<\\/script").replace("</SCRIPT", "<\\/SCRIPT").replace("<!--", "<\\!--")
    )


def json_for_html(value: object) -> str:
    """JSON safe inside an HTML ``<script>`` element: ``<``, ``>`` and ``&`` are escaped.

    >>> json_for_html({"t": "</script><img src=x onerror=alert(1)>&"})
    '{"t":"\\\\u003c/script\\\\u003e\\\\u003cimg src=x onerror=alert(1)\\\\u003e\\\\u0026"}'
    """
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )
