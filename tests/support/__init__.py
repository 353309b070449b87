"""What the tests share: the companion driven in-process (inprocess) and over HTTP from a real
server (http), a phone's live stream (stream), the API's small helpers (api: bearer, error_of,
open_table, join), a table kept without the server (tracked, stored), a game with secrets of the
tests' own (secret_game), Chromium at phone size (browser), PDFs read back (pdfcards, qpdf), and
the simulations' and property tests' shared checks."""
