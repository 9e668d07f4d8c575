"""index.html embeds the tables of each experiment; a miss study's chart.csv has
thousands of rows (one per cell of class, position, miss on offer and earlier seats in,
and action), so the page shows the first rows and names the CSV that holds the rest."""

import pandas as pd

from loo_sim.report.html import HTML_ROWS, Section, _section_html


def test_index_html_embeds_the_first_rows_of_a_long_table_and_points_to_its_csv():
    long = pd.DataFrame({"cell": range(HTML_ROWS + 250), "value": 1.5})
    short = pd.DataFrame({"cell": range(3), "value": 2.5})
    section = Section(name="miss-5", title="Miss", header=[], config_json="{}", summary=None,
                      tables=[("chart.csv", long), ("heuristics.csv", short)])  # fmt: skip
    page = "".join(_section_html(section))
    assert page.count("<tr>") == HTML_ROWS + 3  # body rows
    assert f"chart.csv ({HTML_ROWS + 250} rows)" in page
    assert "(250 more rows in <code>miss-5/chart.csv</code>)" in page
    assert "more rows in <code>miss-5/heuristics.csv" not in page
