"""The dashboard's pages, scripts, styles and translations, installed as `companion.web`."""
