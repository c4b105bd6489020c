"""The README's partitioned DuckDB query, and a join of games and moves, in Spark (pyspark,
local mode) on a dataset that pdnkit wrote:

    pdnkit convert archive/ --format parquet --partition-by year -o by-year
    python3 -m venv /tmp/spark-venv && /tmp/spark-venv/bin/pip install pyspark
    /tmp/spark-venv/bin/python examples/spark_parquet.py by-year

Spark needs Java (17 or later). It reads the Hive folders (`games/year=1950/…`) as the
column `year`, and `year=__HIVE_DEFAULT_PARTITION__` as null.
"""

import sys

from pyspark.sql import SparkSession

dataset = sys.argv[1] if len(sys.argv) > 1 else "by-year"
spark = (
    SparkSession.builder.master("local[2]")
    .appName("pdnkit-parquet")
    .config("spark.ui.enabled", "false")
    .config("spark.sql.shuffle.partitions", "4")
    .getOrCreate()
)
spark.sparkContext.setLogLevel("ERROR")

games = spark.read.parquet(f"{dataset}/games")
moves = spark.read.parquet(f"{dataset}/moves")
games.createOrReplaceTempView("games")
moves.createOrReplaceTempView("moves")

print("games:", games.count(), "moves:", moves.count())
games.printSchema()

# the README's query: games per year (the partition)
spark.sql("SELECT year, count(*) AS games FROM games GROUP BY year ORDER BY year").show(100)

# games and their moves joined: per status, games, plies and captures
spark.sql(
    """
    SELECT g.status, count(DISTINCT g.game_id) AS games, count(m.ply) AS plies,
           count_if(m.capture) AS captures
    FROM games g LEFT JOIN moves m ON m.game_id = g.game_id AND m.year <=> g.year
    GROUP BY g.status ORDER BY g.status
    """
).show()

spark.stop()
