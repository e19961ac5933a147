"""`paifu bench` runs and reports every game with an engine (it measures; it never asserts speed)."""

from paifu_bench import bench_chess, bench_game
from replay import games


def test_bench_reports_each_game_and_python_chess():
    for game in games.available():
        rates = bench_game(game, 2, 1)
        names = [r.name for r in rates]
        assert f"{game}: parse + validate" in names
        assert all(r.units > 0 and r.seconds > 0 for r in rates)
    chess_rates = bench_chess(3, 1)
    assert chess_rates and chess_rates[0].unit == "plies" and chess_rates[0].units > 0
