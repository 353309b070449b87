"""Drawing primitives: fonts, fitted rich text, vector icons, colours."""
