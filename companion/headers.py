"""Security headers on every answer, pages, API, streams and errors alike.

The Content-Security-Policy lets a page run only the app's own files: no inline script or style
attribute, no other origin, no framing (the host's page must not be laid under another site's
buttons). The join code is in every table URL, so no Referer carries it to another site.
"""

from __future__ import annotations

from flask import Flask, Response

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",  # the pages' scripts set styles through element.style, which CSP allows
        "img-src 'self'",  # the QR codes are SVGs from the app's own routes
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'self'",
    ]
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers too old to read it
}


def configured(app: Flask) -> None:
    app.after_request(_secured)


def _secured(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response
