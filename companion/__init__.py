"""The Spellpress companion: a Flask app for phones at the table (see create_app)."""
