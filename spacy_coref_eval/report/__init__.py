"""Stage 6: report scores as a JSON document, a table or a spaCy scores dict."""
