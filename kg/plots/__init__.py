"""Figures for papers and slides (``kg plot``): computed by SPARQL from a build's store, drawn with matplotlib.

``kg.plots.figures.FIGURES`` is the table: each figure is a module with ``NAME``, a one-line docstring,
``compute(store, options)`` (the numbers it draws, a frozen record, no matplotlib needed) and
``draw(data, options)`` (a matplotlib ``Figure``).  ``kg.plots.figures.plot`` does both and writes the file
through the atomic writer of ``kg.files``.

The package itself imports nothing, so its modules import each other without a cycle.
"""
