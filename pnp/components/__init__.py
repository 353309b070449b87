"""One module per component kind: card faces and full-page sheets."""
