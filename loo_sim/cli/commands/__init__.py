"""The commands of ``loo-sim``, one module each; ``cli/__init__.py`` registers them."""
